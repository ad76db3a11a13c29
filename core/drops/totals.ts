/**
 * A drop's figures as each worker counts them and the page adds them up: connections lost, back
 * (resumed or reconnected), given up, put back in their group, and those that never came back.
 * The engine's bookkeeping that fills them per connection is workers/engine/drop-ledger.ts.
 *
 * Two ways back:
 * - resumed: stateful reconnect bridged the gap on the same connection (same id, same groups,
 *   the unacknowledged messages resent by both sides);
 * - reconnected: a new connection (a new id, in no group): group scenarios must join again.
 */
export type BackHow = 'resumed' | 'reconnected';

/** A drop's figures on one worker (or, summed, on the whole run). */
export interface DropTotals {
  /** Connections lost (planned drops and any other loss), counted once per gap. */
  dropped: number;
  /** Gaps ended by stateful reconnect on the same connection. */
  resumed: number;
  /** Gaps ended by a new connection. */
  reconnected: number;
  /** Gaps that ended with the policy giving up: those connections never came back. */
  gaveUp: number;
  /** Reconnected connections put back in their group, and joins that failed. */
  rejoined: number;
  rejoinFailed: number;
  /** Time spent putting connections back in their groups (JoinGroup round trips), µs: the cost
   *  of a rejoin is this over `rejoined + rejoinFailed`. */
  rejoinUs: number;
}

export function emptyDropTotals(): DropTotals {
  return { dropped: 0, resumed: 0, reconnected: 0, gaveUp: 0, rejoined: 0, rejoinFailed: 0, rejoinUs: 0 };
}

export function addDropTotals(into: DropTotals, delta: DropTotals): DropTotals {
  for (const key of Object.keys(into) as (keyof DropTotals)[]) into[key] += delta[key] ?? 0;
  return into;
}

/** Connections still in a gap: lost and neither back nor given up (at the end of a run: never back). */
export function stillAwayOf(totals: DropTotals): number {
  return totals.dropped - totals.resumed - totals.reconnected - totals.gaveUp;
}

/** Connections that never came back: the policy gave up, or the run ended while they were away. */
export function neverBackOf(totals: DropTotals): number {
  return totals.gaveUp + stillAwayOf(totals);
}
