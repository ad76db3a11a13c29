/**
 * Whether the client kept its schedule: one rule and one window for the run summary, the
 * runner's text, the report, the attribution of a run's limit and the capacity search's steps.
 * Pure.
 *
 * The rule: a client whose sends or timers ran a quarter of the guide's 1 s budget late, or that
 * missed more than the guide's 1% margin of its send slots, did not keep its schedule; its
 * figures describe itself as much as the service. The window: the *sending seconds*, those in
 * which measured sends were planned. Opening connections, the warm-up and the drain cost the
 * client time the load does not; the server's CPU is read over the same seconds
 * (server-metrics/run-limit.ts), so both sides are judged over one stretch of time.
 */
import { formatCount, formatShare } from '../format.ts';

/** A client whose sends or timers ran this late, in ms, did not keep its schedule: a quarter of
 *  the guide's 1 s budget. */
export const CLIENT_LAG_LIMIT_MS = 250;
/** Share of its send slots a client may miss and still count as keeping its schedule: the guide's
 *  1% margin. A few missed slots at a high rate cost little; more than the margin can decide the rule. */
export const CLIENT_MISSED_SLOT_LIMIT = 0.01;

/** What the rule needs of one second of a run (core/execution/aggregator.ts SecondPoint). */
export interface ClientSecond {
  second: number;
  /** Largest lag of a send behind its planned time in this second, ms. */
  maxSendLagMs: number;
  /** How late a worker's report timer fired in this second, ms (the worst worker). */
  eventLoopLagMs: number;
  fates: { planned: number };
}

export interface ScheduleInput {
  points: readonly ClientSecond[];
  /** Sends that missed their slot over the run (measured sends only). */
  missedSlots: number;
  /** Measured sends made, the base of the missed-slot share. */
  sent: number;
}

export interface ClientSchedule {
  /** Worst lateness of a send or of the event loop over the sending seconds, ms; null when no
   *  second was reported (nothing to judge the client by). */
  lagMs: number | null;
  missedSlots: number;
  /** Missed slots over sends, 0..1; null when nothing was sent. */
  missedShare: number | null;
  /** true kept, false fell behind, null unknown (no second reported). */
  kept: boolean | null;
  /** How it fell behind, worded ("lagged 800 ms", "missed 40 send slots (4.00% of its sends)");
   *  empty when it kept its schedule or when that is unknown. */
  reasons: string[];
}

/**
 * The seconds in which measured sends were planned; every reported second when none was (a run
 * that failed before sending), so a window is never empty while there are figures.
 */
export function sendingSeconds(points: readonly ClientSecond[]): Set<number> {
  const sending = points.filter((p) => p.fates.planned > 0);
  return new Set((sending.length > 0 ? sending : points).map((p) => p.second));
}

export function clientSchedule({ points, missedSlots, sent }: ScheduleInput): ClientSchedule {
  const window = sendingSeconds(points);
  const inWindow = points.filter((p) => window.has(p.second));
  const lagMs = inWindow.length === 0 ? null : inWindow.reduce((worst, p) => Math.max(worst, p.maxSendLagMs, p.eventLoopLagMs), 0);
  const missedShare = sent > 0 ? missedSlots / sent : null;
  const reasons = scheduleReasons(lagMs ?? 0, missedSlots, sent);
  return { lagMs, missedSlots, missedShare, kept: reasons.length > 0 ? false : lagMs === null ? null : true, reasons };
}

/** The rule itself, over figures already cut to the window. */
export function scheduleReasons(lagMs: number, missedSlots: number, sent: number): string[] {
  const missedShare = sent > 0 ? missedSlots / sent : 0;
  return [
    ...(lagMs >= CLIENT_LAG_LIMIT_MS ? [`lagged ${formatCount(Math.round(lagMs))} ms`] : []),
    ...(missedShare > CLIENT_MISSED_SLOT_LIMIT ? [`missed ${formatCount(missedSlots)} send slot${missedSlots === 1 ? '' : 's'} (${formatShare(missedShare)} of its sends)`] : []),
  ];
}

/** One worker's row is marked when it was lost or ran past the lag limit. */
export function workerFellBehind(worker: { lost: boolean; maxEventLoopLagMs: number; maxSendLagMs: number }): boolean {
  return worker.lost || Math.max(worker.maxEventLoopLagMs, worker.maxSendLagMs) >= CLIENT_LAG_LIMIT_MS;
}
