/**
 * The verdict on one step of a capacity search, and who broke when it failed. Pure.
 *
 * A step holds when its run finished and passed the guide's rule over every planned reception
 * (core/run-outcome.ts). A failing step is put down to the *client* when the client's own health
 * can explain the failure: its event loop stalled for a quarter of the 1 s budget, it missed
 * more than 1% of its send slots (the guide's whole margin), or it asked for more connections
 * than the browser allows and some failed. Otherwise the client kept its schedule, so the
 * latency, loss or refused connections came from the *service*. A client-limited step never
 * counts as the service's capacity.
 */
import { formatCount, formatMs, formatShare } from '../format.ts';
import { lostOf, notSentOf } from '../fates.ts';
import { drained } from '../run-outcome.ts';
import type { RunResult } from '../run-result.ts';

/** Worst event-loop lag that still leaves the client's timing trustworthy, ms. */
export const CLIENT_LAG_LIMIT_MS = 250;
/** Share of send slots a client may miss: the guide's 1% margin. */
export const CLIENT_MISSED_SLOT_LIMIT = 0.01;

export type LimitedBy = 'service' | 'client';

export interface ClientContext {
  /** Most connections this client can hold (a browser's cap), null when it has none known. */
  connectionCap: number | null;
}

/** The client's own health over a step. */
export interface StepHealth {
  /** Worst event-loop lag of any worker over the step's seconds, ms. */
  maxEventLoopLagMs: number;
  missedSlots: number;
  /** Missed slots over sends, 0..1; null when nothing was sent. */
  missedSlotShare: number | null;
  connectionsFailed: number;
  connectionCap: number | null;
}

export interface StepJudgement {
  /** true held, false broke, null could not be judged (stopped, nothing measured, interrupted). */
  passed: boolean | null;
  /** Who broke; null when the step held or could not be judged. */
  limitedBy: LimitedBy | null;
  /** Why, worded for people: the first is the main reason. */
  reasons: string[];
}

type StepRun = Pick<RunResult, 'config' | 'outcome' | 'verdict' | 'fates' | 'totals' | 'latency' | 'points' | 'workers'>;

export function stepHealth(run: StepRun, client: ClientContext): StepHealth {
  const lags = [...run.points.map((p) => p.eventLoopLagMs), ...run.workers.map((w) => w.maxEventLoopLagMs)];
  const { missedSlots, sent, connectionsFailed } = run.totals;
  return {
    maxEventLoopLagMs: Math.max(0, ...lags),
    missedSlots,
    missedSlotShare: sent > 0 ? missedSlots / sent : null,
    connectionsFailed,
    connectionCap: client.connectionCap,
  };
}

export function judgeStep(run: StepRun, health: StepHealth): StepJudgement {
  const { outcome, verdict } = run;
  if (outcome.kind === 'failed') return { passed: null, limitedBy: null, reasons: [`nothing could be measured: ${outcome.reason ?? 'see the errors'}`] };
  if (outcome.kind !== 'finished') return { passed: null, limitedBy: null, reasons: [`the step did not finish (${outcome.kind}), so it has no verdict`] };
  if (verdict.status === 'pass') return { passed: true, limitedBy: null, reasons: [verdict.sentence] };
  const client = clientReasons(run, health);
  if (client.length > 0) return { passed: false, limitedBy: 'client', reasons: [...client, verdict.sentence] };
  return { passed: false, limitedBy: 'service', reasons: [...serviceReasons(run), verdict.sentence] };
}

/** What in the client's own health can explain a failure; empty when it kept its schedule. */
export function clientReasons(run: Pick<StepRun, 'config'>, health: StepHealth): string[] {
  const reasons: string[] = [];
  const cap = health.connectionCap;
  if (cap !== null && run.config.connections > cap && health.connectionsFailed > 0) {
    reasons.push(`the client asked for ${formatCount(run.config.connections)} connections, above the ${formatCount(cap)} this browser allows, and ${formatCount(health.connectionsFailed)} failed to open`);
  }
  if (health.maxEventLoopLagMs >= CLIENT_LAG_LIMIT_MS) {
    reasons.push(`the client's event loop stalled for up to ${formatCount(health.maxEventLoopLagMs)} ms (limit ${CLIENT_LAG_LIMIT_MS} ms)`);
  }
  if (health.missedSlotShare !== null && health.missedSlotShare > CLIENT_MISSED_SLOT_LIMIT) {
    reasons.push(`the client missed ${formatCount(health.missedSlots)} send slots (${formatShare(health.missedSlotShare)} of its sends, over the guide's 1% margin)`);
  }
  return reasons;
}

function serviceReasons(run: StepRun): string[] {
  const reasons: string[] = [];
  if (run.latency.count > 0) reasons.push(`p99 ${formatMs(run.latency.p99Us)} while the client kept its schedule`);
  const lost = lostOf(run.fates, drained(run.outcome));
  if (lost !== null && lost > 0) reasons.push(`${formatCount(lost)} planned receptions were lost`);
  const notSent = notSentOf(run.fates);
  if (notSent > 0) reasons.push(`${formatCount(notSent)} could not be sent (connections backed up, closed or never opened)`);
  if (run.totals.connectionsFailed > 0) reasons.push(`${formatCount(run.totals.connectionsFailed)} connections failed to open`);
  return reasons;
}

/** "client-limited" / "service-limited", for lines and cards. */
export function limitedByText(limitedBy: LimitedBy | null): string {
  return limitedBy === 'client' ? 'client-limited' : limitedBy === 'service' ? 'service-limited' : '';
}
