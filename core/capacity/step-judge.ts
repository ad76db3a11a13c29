/**
 * The verdict on one step of a capacity search, and who broke when it failed. Pure.
 *
 * A step holds when its run finished and passed the guide's rule over every planned reception
 * (core/run-outcome.ts). A failing step is put down to the *client* when the client's own health
 * can explain the failure, by the same rule the run summary uses (core/server-metrics/attribution.ts:
 * its sends or event loop ran a quarter of the 1 s budget late, or it missed more than 1% of its
 * send slots), or when it asked for more connections than the browser allows and some failed.
 * Otherwise the client kept its schedule, so the latency, loss or refused connections came from
 * the *service*; the server's own load, when its metrics were read, is named first. A
 * client-limited step never counts as the service's capacity.
 */
import { formatCount, formatMs } from '../format.ts';
import { lostOf, notSentOf } from '../fates.ts';
import { drained } from '../run-outcome.ts';
import type { RunResult } from '../run-result.ts';
import { clientLagReasons } from '../server-metrics/attribution.ts';
import { limitOfResult } from '../server-metrics/run-limit.ts';

export type LimitedBy = 'service' | 'client';

export interface ClientContext {
  /** Most connections this client can hold (a browser's cap), null when it has none known. */
  connectionCap: number | null;
}

/** The client's own health over a step. */
export interface StepHealth {
  /** Worst event-loop lag of any worker over the step's seconds, ms. */
  maxEventLoopLagMs: number;
  /** Worst lateness of a send against its planned time, ms; absent in searches kept before it. */
  maxSendLagMs?: number;
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

type StepRun = Pick<RunResult, 'config' | 'outcome' | 'verdict' | 'fates' | 'totals' | 'latency' | 'points' | 'workers' | 'server'>;

export function stepHealth(run: StepRun, client: ClientContext): StepHealth {
  const { missedSlots, sent, connectionsFailed } = run.totals;
  return {
    maxEventLoopLagMs: Math.max(0, ...run.points.map((p) => p.eventLoopLagMs), ...run.workers.map((w) => w.maxEventLoopLagMs)),
    maxSendLagMs: Math.max(0, ...run.points.map((p) => p.maxSendLagMs), ...run.workers.map((w) => w.maxSendLagMs)),
    missedSlots,
    missedSlotShare: sent > 0 ? missedSlots / sent : null,
    connectionsFailed,
    connectionCap: client.connectionCap,
  };
}

export function judgeStep(run: StepRun, health: StepHealth): StepJudgement {
  const { outcome, verdict } = run;
  // A step that planned nothing measured nothing; one that lost every connection after "go" ended
  // early as failed (core/run-coordinator.ts) and is judged on what it measured, like a finished one.
  if (outcome.kind === 'failed' && run.fates.planned === 0) return { passed: null, limitedBy: null, reasons: [`nothing could be measured: ${outcome.reason ?? 'see the errors'}`] };
  if (outcome.kind !== 'finished' && outcome.kind !== 'failed') return { passed: null, limitedBy: null, reasons: [`the step did not finish (${outcome.kind}), so it has no verdict`] };
  if (verdict.status === 'pass') return { passed: true, limitedBy: null, reasons: [verdict.sentence] };
  // The server's side from its metrics, when they were read: the same sentence as the run summary's.
  const server = run.server ? limitOfResult(run) : null;
  const client = clientReasons(run, health);
  if (client.length > 0) {
    const both = server?.side === 'both' ? [server.sentence] : [];
    return { passed: false, limitedBy: 'client', reasons: [...client, ...both, verdict.sentence] };
  }
  const serverLoad = server && (server.side === 'server' || server.side === 'near') ? [server.sentence] : [];
  return { passed: false, limitedBy: 'service', reasons: [...serverLoad, ...serviceReasons(run), verdict.sentence] };
}

/** What in the client's own health can explain a failure; empty when it kept its schedule. */
export function clientReasons(run: Pick<StepRun, 'config' | 'totals'>, health: StepHealth): string[] {
  const reasons: string[] = [];
  const cap = health.connectionCap;
  if (cap !== null && run.config.connections > cap && health.connectionsFailed > 0) {
    reasons.push(`the client asked for ${formatCount(run.config.connections)} connections, above the ${formatCount(cap)} this browser allows, and ${formatCount(health.connectionsFailed)} failed to open`);
  }
  const lag = clientLagReasons({ clientLagMs: Math.max(health.maxEventLoopLagMs, health.maxSendLagMs ?? 0), missedSlots: health.missedSlots, sent: run.totals.sent });
  reasons.push(...lag.map((reason) => `the client ${reason}`));
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
