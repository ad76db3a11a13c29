/**
 * The bookkeeping of drops on one worker: which connections are in a gap (lost, not yet back),
 * how long each took to come back, how many never did, and the cost of putting a reconnected
 * connection back in its group. Pure, with times passed in (epoch µs), so it is tested without
 * a network; the engine feeds it from the connections' events and reports its totals
 * (core/drops/totals.ts) once a second.
 */
import { emptyDropTotals, type BackHow } from '../../core/drops/index.ts';

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
