/**
 * How a run ended, and the guide's verdict on it: one rule for the dashboard, the presentation,
 * the history, comparisons, the HTML report and the runner's exit code.
 *
 * The guide's rule (both editions): a load is within a tier when 99% of messages arrive in under
 * 1 s. Here the share is taken over every *planned* reception (core/accounting/fates.ts), so a message that
 * was lost, never sent, or arrived late counts against the run. Only a run that finished can pass,
 * and only when its accounting holds: more arrived or never sent than planned (an accounting
 * error) fails it, since such an excess could hide a loss.
 */
import { formatCount, formatMs, formatShare } from '../format.ts';
import { deliveryOf, lostOf, notSentOf, overCountOf, shareUnderOneSecond, type Fates } from '../accounting/index.ts';
import { edition } from '../guide/index.ts';
import { clockProblem, type ClockJudgement } from '../clocks/index.ts';
import { lostWorkersText, type LossSide } from './worker-loss.ts';
import type { TextMismatch } from '../diagnosis/index.ts';
import { OUTCOME_WORDS as W } from './words.ts';

/** The guide's share of messages that must arrive in under 1 s (0.99 in both editions). Marked
 *  pure so a bundle that never reads it (the engine's) leaves the
 *  guide's tables out. */
export const REQUIRED_SHARE = /* @__PURE__ */ requiredShare();

function requiredShare(): number {
  return edition('current').defaults.latencyRule.shareOfMessages;
}

/**
 * - running: not over yet (or, in a kept record, still being written);
 * - finished: sent to its planned end and drained;
 * - stopped: the user (Stop, Ctrl+C, SIGTERM) ended it early; it drained what it had sent;
 * - failed: nothing could be measured (no connection opened, the hub refused the method);
 * - interrupted: the page closed mid-run; the record holds what it had, never drained.
 */
export const OUTCOME_KINDS = ['running', 'finished', 'stopped', 'failed', 'interrupted'] as const;
export type OutcomeKind = (typeof OUTCOME_KINDS)[number];

export interface RunOutcome {
  kind: OutcomeKind;
  /** stopped: measured seconds planned before the stop (of config.durationSec). */
  stoppedAtSec?: number;
  /** failed: why nothing could be measured, worded for people. */
  reason?: string;
  /** failed: which failure the coordinator named (the diagnosis reads it, never the words):
   *  noConnection, hubRefused (the scenario's method), neverCalled (the profile's receive method),
   *  textNotFound (the receive method called, never with this run's text where the profile reads
   *  it), allClosed (every connection closed with Reconnect off). Absent in runs kept before codes. */
  code?: 'noConnection' | 'hubRefused' | 'neverCalled' | 'textNotFound' | 'allClosed';
  /** textNotFound: the calls and what they carried (core/diagnosis/evidence.ts). */
  textNotFound?: TextMismatch;
}

export const OUTCOME_LABELS: Record<OutcomeKind, string> = {
  running: 'running',
  finished: 'finished',
  stopped: 'stopped',
  failed: 'failed',
  interrupted: 'interrupted',
};

/** True once the outcome's losses are known: the run drained (finished or stopped), or failed,
 *  when nothing more can arrive (no connection opened, or every one closed with Reconnect off). */
export function drained(outcome: RunOutcome): boolean {
  return outcome.kind === 'finished' || outcome.kind === 'stopped' || outcome.kind === 'failed';
}

/** "stopped at 10 of 30 s", "failed: …", "finished". */
export function outcomeText(outcome: RunOutcome, durationSec: number): string {
  if (outcome.kind === 'stopped') return W.stoppedAt({ atSec: outcome.stoppedAtSec ?? 0, durationSec });
  if (outcome.kind === 'failed') return W.failedFor({ reason: outcome.reason });
  return OUTCOME_LABELS[outcome.kind];
}

export type VerdictStatus = 'pass' | 'fail' | 'none';

export interface RunVerdict {
  /** none: no verdict can be given (running, stopped early, interrupted). Never a pass. */
  status: VerdictStatus;
  /** Arrived in under 1 s over planned; null when nothing was planned. */
  share: number | null;
  /** Arrived (at any time) over planned; null when nothing was planned. */
  delivery: number | null;
  /** One sentence for people, with the share and the delivery. */
  sentence: string;
}

export interface VerdictInput {
  outcome: RunOutcome;
  /** The run's fates, all seconds together. */
  fates: Fates;
  durationSec: number;
  /** Whole-run p99 from the planned send time, µs; null when nothing arrived. */
  p99Us: number | null;
  /** Workers (or agents' threads) lost mid-run: what they were to send counts as never sent
   *  (`workerLost`, core/accounting/planned-receptions.ts), what was to reach their connections as lost. */
  lostWorkers: number;
  /** Each lost worker's side (core/outcome/worker-loss.ts); absent or short: the rest are the client's. */
  lostSides?: readonly LossSide[];
  /** Receptions that arrived more than once (totals.duplicated); default 0. */
  duplicated?: number;
  /** Set when the run planned a drop: its duplicated messages, and stateful reconnect as the hub
   *  granted it (core/drops/drop-report.ts statefulStateOf; absent: off). A failure for messages the
   *  drop cost then says what saves them, never stateful reconnect when the hub refused it. */
  plannedDrop?: { duplicated: number; statefulReconnect?: 'off' | 'on' | 'partly' | 'refused' | 'asked' } | null;
  /** The hub's address, to name a hub that refused stateful reconnect. */
  endpointUrl?: string;
  /** With agents: the receptions judged against their clocks (core/clocks/clock-drift.ts). More
   *  than 1% undecidable, or a reception before its planned time beyond the clocks' bound, and
   *  the run has no verdict (unless it already failed for messages lost, which no clock changes). */
  clocks?: ClockJudgement | null;
}

export function runVerdict(input: VerdictInput): RunVerdict {
  const { outcome, fates } = input;
  const share = shareUnderOneSecond(fates);
  const delivery = deliveryOf(fates);
  const verdict = (status: VerdictStatus, sentence: string): RunVerdict => ({ status, share, delivery, sentence });
  switch (outcome.kind) {
    case 'running':
      return verdict('none', W.running());
    case 'interrupted':
      return verdict('none', W.interrupted());
    case 'failed':
      return verdict('fail', W.failed({ reason: outcome.reason }));
    case 'stopped':
      return verdict('none', W.stopped({ atSec: formatCount(outcome.stoppedAtSec ?? 0), durationSec: formatCount(input.durationSec), measured: measured(input) }));
    case 'finished':
      if (fates.planned === 0) return verdict('fail', W.nothingPlanned());
      if (input.lostWorkers > 0) {
        return verdict('fail', W.lostWorkers({ lost: lostWorkersText(input.lostWorkers, input.lostSides), measured: measured(input) }));
      }
      if ((overCountOf(fates, true) ?? 0) > 0) {
        return verdict('fail', W.overCount({ overCount: formatCount(overCountOf(fates, true) ?? 0), measured: measured(input) }));
      }
      // Every planned message counts: a run that lost one, never sent one or delivered one twice
      // is not a pass, however many of the rest arrived in under 1 s.
      const missing = missingText(input, input.plannedDrop?.duplicated ?? input.duplicated ?? 0);
      if (missing && input.plannedDrop) return verdict('fail', W.plannedDropCost({ missing, measured: measured(input), saves: whatSaves(input.plannedDrop.statefulReconnect ?? 'off', input.endpointUrl) }));
      // Loss is known whatever the clocks say; in time or late is not, within their bound.
      const clocks = missing ? null : clockProblem(input.clocks, fates.planned);
      if (clocks) return verdict('none', W.clocksUndecided({ clocks, measured: measured(input) }));
      if (share === null || share < REQUIRED_SHARE) {
        return verdict('fail', W.belowShare({ measured: measured(input) }));
      }
      if (missing) return verdict('fail', W.missing({ missing, measured: measured(input) }));
      return verdict('pass', W.pass({ measured: measured(input) }));
  }
}

/** What would have saved the messages a planned drop cost, given stateful reconnect as it was. */
function whatSaves(stateful: 'off' | 'on' | 'partly' | 'refused' | 'asked', endpointUrl = 'the endpoint'): string {
  if (stateful === 'refused') return W.statefulRefused({ endpointUrl });
  if (stateful === 'on' || stateful === 'partly') return W.statefulGranted();
  return W.statefulOff();
}

/** The planned messages that did not arrive once ("12 lost, 40 never sent, 3 duplicated"); null when none. */
function missingText({ outcome, fates }: VerdictInput, duplicated: number): string | null {
  const lost = lostOf(fates, drained(outcome)) ?? 0;
  const notSent = notSentOf(fates);
  const parts = [
    ...(lost > 0 ? [W.lost({ count: lost })] : []),
    ...(notSent > 0 ? [W.neverSent({ count: notSent })] : []),
    ...(duplicated > 0 ? [W.duplicated({ count: duplicated })] : []),
  ];
  return parts.length > 0 ? parts.join(', ') : null;
}

/** "99.50% of 6,000 planned receptions arrived in under 1 s (delivery 99.80%: 12 lost; p99 12 ms)". */
function measured({ outcome, fates, p99Us }: VerdictInput): string {
  if (fates.planned === 0) return W.noneWasPlanned();
  const share = shareUnderOneSecond(fates);
  const delivery = deliveryOf(fates);
  const lost = lostOf(fates, drained(outcome));
  const notSent = notSentOf(fates);
  const overCount = overCountOf(fates, drained(outcome));
  const missing = [
    ...(lost !== null && lost > 0 ? [W.lost({ count: lost })] : []),
    ...(notSent > 0 ? [W.neverSent({ count: notSent })] : []),
    ...(overCount !== null && overCount > 0 ? [W.beyondPlan({ count: overCount })] : []),
  ];
  const deliveryText = delivery === null ? '' : W.delivery({ delivery, missing });
  const p99Text = p99Us === null ? W.nothingArrived() : W.p99({ p99: formatMs(p99Us) });
  return W.measured({ share: share ?? 0, planned: fates.planned, details: [deliveryText, p99Text].filter(Boolean) });
}

export interface VerdictDisplay {
  /** good: pass; bad: fail; warn: no verdict (stopped, interrupted) or failing so far; neutral: running. */
  tone: 'good' | 'bad' | 'warn' | 'neutral';
  text: string;
}

/**
 * The verdict as every view shows it. While running, `judgedShare` (RunAggregator.judgedShare:
 * the share over receptions planned over 1 s ago) says how the run stands so far.
 */
export function verdictDisplay(verdict: RunVerdict, running: boolean, judgedShare: number | null = null): VerdictDisplay {
  if (running) {
    if (judgedShare === null) return { tone: 'neutral', text: verdict.sentence };
    const failing = judgedShare < REQUIRED_SHARE;
    return { tone: failing ? 'warn' : 'neutral', text: W.soFar({ sentence: verdict.sentence, share: formatShare(judgedShare), failing }) };
  }
  return { tone: verdict.status === 'pass' ? 'good' : verdict.status === 'fail' ? 'bad' : 'warn', text: verdict.sentence };
}
