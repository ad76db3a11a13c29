/**
 * Open-loop send schedule of one connection: send n is due at `firstSlotUs + n * intervalUs`,
 * whether or not earlier sends were answered. A timer that fires late still sends, and reports
 * how late it is, so the latency can be measured from the planned time (wrk2's correction for
 * coordinated omission) and the lateness counted.
 */
import type { Clock, Timers } from '../../core/clocks/index.ts';

export type SlotHandler = (plannedUs: number, sendLagUs: number, seq: number) => void;

export class OpenLoop {
  #seq = 0;
  #timer: unknown = null;
  #stopped = false;
  /** No send is planned at or after this time. */
  #endUs: number;

  constructor(
    private readonly clock: Clock,
    private readonly timers: Timers,
    private readonly firstSlotUs: number,
    private readonly intervalUs: number,
    endUs: number,
    private readonly onSlot: SlotHandler,
  ) {
    this.#endUs = endUs;
  }

  start(): void {
    this.#arm();
  }

  /**
   * Plans nothing at or after `endUs` any more (the user stopped the run). Slots planned before
   * it still fire, late if the timers are: a client that fell behind catches up and its lateness
   * is measured, as at the planned end.
   */
  endAt(endUs: number): void {
    this.#endUs = Math.min(this.#endUs, endUs);
    if (!this.#stopped && this.#plannedUs() >= this.#endUs) this.stop();
  }

  /**
   * Stops at once. Returns the planned times of the slots before the end that never fired: the
   * client fell so far behind that they were still waiting, and every planned slot must be
   * accounted for. Empty when the loop had finished, and on a second call.
   */
  stop(): number[] {
    const unfiredUs: number[] = [];
    if (this.#stopped) return unfiredUs;
    this.#stopped = true;
    if (this.#timer !== null) this.timers.clearTimeout(this.#timer);
    this.#timer = null;
    for (let plannedUs = this.#plannedUs(); plannedUs < this.#endUs; plannedUs += this.intervalUs) unfiredUs.push(plannedUs);
    return unfiredUs;
  }

  /** Sends made so far. */
  get sends(): number {
    return this.#seq;
  }

  #plannedUs(): number {
    return this.firstSlotUs + this.#seq * this.intervalUs;
  }

  #arm(): void {
    if (this.#stopped || this.#plannedUs() >= this.#endUs) return;
    // Whole ms, rounded up: browsers truncate a fractional delay, so the timer would wake up to
    // 1 ms early, and the re-armed timer for the rest is nested deeper than 5 levels, which the
    // HTML timer rules clamp to at least 4 ms: measured, that added ~4 ms to most sends.
    const delayMs = Math.max(0, Math.ceil((this.#plannedUs() - this.clock.nowUs()) / 1_000));
    this.#timer = this.timers.setTimeout(() => this.#fire(), delayMs);
  }

  #fire(): void {
    this.#timer = null;
    if (this.#stopped) return;
    const plannedUs = this.#plannedUs();
    const nowUs = this.clock.nowUs();
    // Timers round to whole ms and may wake a little early: never send before the planned time,
    // or the latency measured from it would come out too small.
    if (nowUs < plannedUs) {
      this.#arm();
      return;
    }
    const seq = this.#seq++;
    this.onSlot(plannedUs, nowUs - plannedUs, seq);
    this.#arm();
  }
}
