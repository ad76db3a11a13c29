/**
 * The bookkeeping of drops on one worker: which connections are in a gap (lost, not yet back),
 * how long each took to come back, how many never did, and the cost of putting a reconnected
 * connection back in its group. Pure, with times passed in (epoch µs), so it is tested without
 * a network; the engine feeds it from the connections' events and reports it once a second.
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

export class DropLedger {
  readonly totals = emptyDropTotals();
  /** Connection index → when its gap began. */
  readonly #gaps = new Map<number, number>();
  /** Connections that came back as new connections and are not yet in their group again. */
  readonly #awaitingRejoin = new Set<number>();
  #intervalBack = 0;
  #intervalDropped = 0;

  /** Connection `index` was lost at `atUs`. A second loss inside one gap is the same gap. */
  lost(index: number, atUs: number): void {
    if (this.#gaps.has(index)) return;
    this.#gaps.set(index, atUs);
    this.#awaitingRejoin.delete(index);
    this.totals.dropped++;
    this.#intervalDropped++;
  }

  inGap(index: number): boolean {
    return this.#gaps.has(index);
  }

  /**
   * Connection `index` is back at `atUs`. Returns the time to reconnect in µs (from the start of
   * its gap), or null when it was not in a gap (nothing to count).
   */
  back(index: number, atUs: number, how: BackHow): number | null {
    const sinceUs = this.#gaps.get(index);
    if (sinceUs === undefined) return null;
    this.#gaps.delete(index);
    this.totals[how]++;
    this.#intervalBack++;
    if (how === 'reconnected') this.#awaitingRejoin.add(index);
    return Math.max(0, atUs - sinceUs);
  }

  /** The policy gave up on connection `index`: it stays lost for the rest of the run. */
  gaveUp(index: number): void {
    if (!this.#gaps.delete(index)) return;
    this.totals.gaveUp++;
  }

  /**
   * Whether connection `index` must join its group again: a reconnected connection has a new id
   * and is in no group; a resumed one kept both.
   */
  needsRejoin(index: number): boolean {
    return this.#awaitingRejoin.has(index);
  }

  /** The outcome of putting connection `index` back in its group, and how long it took. */
  rejoinDone(index: number, ok: boolean, tookUs = 0): void {
    if (!this.#awaitingRejoin.delete(index)) return;
    this.totals.rejoinUs += tookUs;
    if (ok) this.totals.rejoined++;
    else this.totals.rejoinFailed++;
  }

  /** Connections back (either way) and lost since the last call: the storm's per-second rates. */
  takeInterval(): { back: number; dropped: number } {
    const taken = { back: this.#intervalBack, dropped: this.#intervalDropped };
    this.#intervalBack = 0;
    this.#intervalDropped = 0;
    return taken;
  }
}

/**
 * Slots of one open-loop schedule (first at `firstUs`, then every `intervalUs`, none at or after
 * `endUs`) planned in [fromUs, toUs). These are the receptions a gap costs a connection per sender
 * it hears from: without stateful reconnect each ends as never sent (its sender was reconnecting)
 * or lost (its receiver was); never as arrived, and never left out of the plan.
 */
export function slotsInWindow(firstUs: number, intervalUs: number, endUs: number, fromUs: number, toUs: number): number {
  const upToUs = Math.min(toUs, endUs);
  if (upToUs <= fromUs || upToUs <= firstUs) return 0;
  const firstIn = Math.max(0, Math.ceil((fromUs - firstUs) / intervalUs));
  const lastBefore = Math.ceil((upToUs - firstUs) / intervalUs) - 1;
  return Math.max(0, lastBefore - firstIn + 1);
}

/**
 * Receptions a receiver in a gap [fromUs, toUs) was planned to get: the slots in that window of
 * every sender it hears from (itself for echo, every broadcast sender, its group's senders).
 */
export function expectedGapReceptions(senders: readonly { firstUs: number }[], intervalUs: number, endUs: number, fromUs: number, toUs: number): number {
  let total = 0;
  for (const sender of senders) total += slotsInWindow(sender.firstUs, intervalUs, endUs, fromUs, toUs);
  return total;
}
