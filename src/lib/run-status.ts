/**
 * What the run bar and the hero figures say about a run, from its view: the phase in words with
 * how far it got (connecting n of N, elapsed of total, draining, the outcome), and the handful of
 * figures a person looks at first, each labelled with what it covers. Pure: the clock is passed in.
 */
import { formatCount, formatMs, formatShare } from '../../core/format.ts';
import { notSentOf } from '../../core/accounting/index.ts';
import { recentRates, sendingSecOf, type SecondPoint } from '../../core/execution/index.ts';
import { outcomeText, verdictDisplay, type VerdictDisplay } from '../../core/outcome/index.ts';
import { type RunConfig } from '../../core/run-config/index.ts';
import type { RunView } from './run-controller.svelte.ts';
import { PAGE_WORDS } from './words.ts';

export type BarPhase = 'preparing' | 'connecting' | 'starting' | 'running' | 'draining' | 'done';
export type Tone = 'neutral' | 'good' | 'bad' | 'warn';

export interface RunBarState {
  phase: BarPhase;
  /** "Connecting", "Running", "Finished"… */
  title: string;
  /** "75 of 200 open", "12 of 30 s · 18 s left", "stopped at 10 of 30 s". */
  detail: string;
  /** 0 to 1, or null when there is nothing to measure progress by. */
  progress: number | null;
  tone: Tone;
}

/** The run bar for a run's view at `nowUs` (epoch microseconds); `preparing`: agents' clocks are measured. */
export function runBarState(view: RunView | null, config: RunConfig | null, preparing: boolean, nowUs: number): RunBarState | null {
  if (preparing) return { phase: 'preparing', title: 'Preparing', detail: "measuring the agents' clocks", progress: null, tone: 'neutral' };
  if (!view || !config) return null;
  const total = config.connections;
  if (view.phase === 'connecting') {
    const { connectionsOpened: opened, connectionsFailed: failed } = view.totals;
    const failedText = failed > 0 ? `, ${formatCount(failed)} failed` : '';
    return { phase: 'connecting', title: 'Connecting', detail: `${formatCount(opened)} of ${formatCount(total)} open${failedText}`, progress: clamp((opened + failed) / total), tone: failed > 0 ? 'warn' : 'neutral' };
  }
  if (view.phase === 'running') {
    const { sendStartUs, sendEndUs } = view;
    if (sendStartUs === 0 || nowUs < sendStartUs) return { phase: 'starting', title: 'Starting', detail: `${formatCount(view.connectionsOpen)} of ${formatCount(total)} open, the first sends are due`, progress: 0, tone: 'neutral' };
    const elapsedSec = Math.min(config.durationSec, Math.floor((nowUs - sendStartUs) / 1_000_000));
    const leftSec = Math.max(0, Math.ceil((sendEndUs - nowUs) / 1_000_000));
    const loss = connectionLoss(view, config);
    const time = `${formatCount(elapsedSec)} of ${formatCount(config.durationSec)} s · ${formatCount(leftSec)} s left`;
    return { phase: 'running', title: 'Running', detail: loss ? `${time} · ${loss.text}` : time, progress: clamp((nowUs - sendStartUs) / Math.max(1, sendEndUs - sendStartUs)), tone: loss?.tone ?? 'neutral' };
  }
  if (view.phase === 'draining') {
    // With every connection gone the run is ending (the coordinator ends it as failed): say why, not "waiting".
    const loss = connectionLoss(view, config);
    if (loss && view.connectionsOpen === 0 && !config.reconnect) return { phase: 'draining', title: 'Ending', detail: `${loss.text}: nothing left to measure`, progress: null, tone: 'bad' };
    const waiting = PAGE_WORDS.draining({ seconds: formatCount(config.drainSec) });
    return { phase: 'draining', title: 'Draining', detail: loss ? `${waiting} · ${loss.text}` : waiting, progress: 1, tone: loss?.tone ?? 'neutral' };
  }
  const outcome = view.outcome;
  const title = outcome.kind === 'finished' ? 'Finished' : outcome.kind === 'stopped' ? 'Stopped' : outcome.kind === 'failed' ? 'Failed' : 'Interrupted';
  const tone: Tone = outcome.kind === 'failed' ? 'bad' : outcome.kind === 'finished' ? (view.verdict.status === 'pass' ? 'good' : 'bad') : 'warn';
  // "Finished" says the run went its course, not that it passed: the verdict's word goes beside it.
  const verdictWord = view.verdict.status === 'pass' ? 'pass' : (view.fates.overCount ?? 0) > 0 ? 'fail: accounting error' : "fail: below the guide's rule";
  // A failure's first sentence: the library's own words are in the error box (FailedRun) or the summary.
  const detail = outcome.kind === 'finished' ? `${formatCount(config.durationSec)} s of sending, drained · ${verdictWord}` : outcome.kind === 'failed' ? firstSentence(outcome.reason ?? 'nothing could be measured') : outcomeText(outcome, config.durationSec);
  return { phase: 'done', title, detail, progress: null, tone };
}

export interface HeroFigure {
  key: 'connections' | 'received' | 'sent' | 'p99Recent' | 'p99Run' | 'delivery';
  label: string;
  value: string;
  /** What the figure covers ("mean of the last 5 s", "whole run"). */
  note: string;
  tone: Tone;
}

/** The figures above the charts. Unknown reads "–", never 0. */
export function heroFigures(view: RunView, config: RunConfig, points: readonly SecondPoint[]): { figures: HeroFigure[]; verdict: VerdictDisplay } {
  const done = view.phase === 'done';
  // While running: the mean of the last whole seconds; at the end: of every whole second.
  const rates = recentRates(points, done ? Number.MAX_SAFE_INTEGER : undefined, sendingSecOf(config.durationSec, view.outcome));
  const rateNote = done ? 'mean of the run' : 'mean of the last 5 s';
  const hasRates = points.some((p) => p.sent > 0 || p.received > 0);
  const rate = (n: number) => (hasRates ? formatCount(n) : '–');
  const underOneSecond = done ? view.verdict.delivery : view.judgedShare;
  const figures: HeroFigure[] = [
    { key: 'connections', label: 'Connections open', value: formatCount(view.connectionsOpen), note: `of ${formatCount(config.connections)} planned`, tone: view.connectionsOpen < config.connections && view.phase === 'running' ? 'warn' : 'neutral' },
    { key: 'received', label: 'Received msg/s (out)', value: rate(rates.outboundPerSec), note: rateNote, tone: 'neutral' },
    { key: 'sent', label: 'Sent msg/s (in)', value: rate(rates.inboundPerSec), note: rateNote, tone: 'neutral' },
    // Once the run is over only the run's p99 stands: the one the verdict uses.
    ...(done ? [] : [{ key: 'p99Recent' as const, label: 'p99, last 10 s', value: view.recentLatency ? formatMs(view.recentLatency.p99Us) : '–', note: 'from planned send time', tone: ((view.recentLatency?.p99Us ?? 0) >= 1_000_000 ? 'bad' : 'neutral') as Tone }]),
    { key: 'p99Run', label: 'p99 of the run', value: view.latency.count > 0 ? formatMs(view.latency.p99Us) : '–', note: `${formatCount(view.latency.count)} messages`, tone: view.latency.count > 0 && (view.latency.p99Us ?? 0) >= 1_000_000 ? 'bad' : 'neutral' },
    done
      ? { key: 'delivery', label: 'Delivery', value: underOneSecond === null || underOneSecond === undefined ? '–' : formatShare(underOneSecond), note: missingNote(view), tone: underOneSecond === 1 && view.fates.lost === 0 ? 'good' : 'bad' }
      : { key: 'delivery', label: 'Under 1 s so far', value: underOneSecond === null || underOneSecond === undefined ? '–' : formatShare(underOneSecond), note: 'of receptions due over 1 s ago', tone: underOneSecond !== null && underOneSecond !== undefined && underOneSecond < 0.99 ? 'warn' : 'neutral' },
  ];
  return { figures, verdict: verdictDisplay(view.verdict, !done, view.judgedShare) };
}

/** What did not arrive: lost and never sent (those owed to absent receivers named), or that
 *  losses were never counted; and an accounting error when there was one. */
function missingNote(view: RunView): string {
  const notSent = notSentOf(view.fates);
  const absent = view.fates.notSent.receiverAbsent;
  const notSentText = notSent > 0 ? `, ${formatCount(notSent)} never sent${absent > 0 ? ` (${formatCount(absent)} to receivers absent)` : ''}` : '';
  const overText = (view.fates.overCount ?? 0) > 0 ? PAGE_WORDS.overCounted({ over: formatCount(view.fates.overCount ?? 0) }) : '';
  return (view.fates.lost === null ? `losses not counted${notSentText}` : `${formatCount(view.fates.lost)} lost${notSentText}`) + overText;
}

/**
 * Connections lost while the run sends, in words with the close code when the client library gave
 * one: "50 of 50 closed (1006) at 8 s; reconnect off" (red: nothing left to measure), or amber
 * while some are still open or coming back. Null when none was lost, and for a planned drop
 * (its own panel measures it).
 */
export function connectionLoss(view: RunView, config: RunConfig): { text: string; tone: Tone } | null {
  if (view.totals.disconnects === 0 || (config.dropAtSec ?? null) !== null) return null;
  const notOpen = Math.max(0, config.connections - view.connectionsOpen);
  const code = closeCodeOf(view.errorSamples);
  const at = view.connectionsLostAtSec === null ? '' : ` at ${formatCount(view.connectionsLostAtSec)} s`;
  const what = config.reconnect ? `${formatCount(view.totals.disconnects - view.totals.reconnects)} of ${formatCount(config.connections)} lost${code}${at}; reconnecting` : `${formatCount(notOpen)} of ${formatCount(config.connections)} closed${code}${at}; reconnect off`;
  return { text: what, tone: view.connectionsOpen === 0 ? 'bad' : 'warn' };
}

/** " (1006)": the WebSocket close code the client library quoted, or nothing. */
function closeCodeOf(samples: readonly { kind: string; message: string }[]): string {
  for (const sample of samples) {
    const code = sample.kind === 'closed' ? /status code:? (\d{4})/.exec(sample.message)?.[1] : undefined;
    if (code) return ` (${code})`;
  }
  return '';
}

/** A run that ended without a single connection ever open: nothing to chart or judge, one error box. */
export function neverConnected(view: Pick<RunView, 'phase' | 'outcome' | 'totals'>): boolean {
  return view.phase === 'done' && view.outcome.kind === 'failed' && view.totals.connectionsOpened === 0;
}

/** "no connection could be opened." of "no connection could be opened. WebSockets (json) to …". */
export function firstSentence(text: string): string {
  const end = text.search(/\.\s/);
  return end < 0 ? text : text.slice(0, end + 1);
}

function clamp(share: number): number {
  return Number.isFinite(share) ? Math.min(1, Math.max(0, share)) : 0;
}

/** "Comparison 2 of 4: Long Polling + JSON", or the pause before it; null outside a comparison. */
/** Where a comparison or a search is: the combination or step under way (the run bar's step line). */
export interface ComparisonStatus {
  /** 1-based position of the running combination among the runnable ones. */
  step: number;
  total: number;
  label: string;
  /** Seconds left in the pause before the next combination; 0 while a run is going. */
  pauseLeftSec: number;
}

export function comparisonStepText(status: ComparisonStatus | null): string | null {
  if (!status) return null;
  return status.pauseLeftSec > 0
    ? `Comparison ${status.step} of ${status.total}: ${status.label} starts in ${status.pauseLeftSec} s`
    : `Comparison ${status.step} of ${status.total}: ${status.label}`;
}
