/**
 * Open-loop send schedule of one connection: send n is due at `firstSlotUs + n * intervalUs`,
 * whether or not earlier sends were answered. A timer that fires late still sends, and reports
 * how late it is, so the latency can be measured from the planned time (wrk2's correction for
 * coordinated omission) and the lateness counted.
 */
import type { Clock, Timers } from '../../core/clocks/index.ts';
import { ENGINE_WORDS } from './words.ts';

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

/** A lane's slot came due: as SlotHandler, with the lane's own value (what a lane sends for). */
export type LaneHandler<T> = (lane: T, plannedUs: number, sendLagUs: number, seq: number) => void;

/** What the engine's sends run on: one lane per sending connection, planned alike (LaneSchedule,
 *  or LoopPerLane where one timer chain cannot be used). */
export interface SendSchedule<T> {
  add(value: T, firstSlotUs: number): void;
  start(): void;
  /** Plans nothing at or after `endUs` any more; slots planned before it still fire, late if due. */
  endAt(endUs: number): void;
  /** Stops at once and hands every slot before the end that never fired to `unfired`. */
  stop(unfired?: (lane: T, plannedUs: number) => void): void;
}

/**
 * The same lanes, each on its own OpenLoop (a timer per connection): for browsers, which clamp a
 * timer set from a timer callback more than 5 levels deep to at least 4 ms. One chain re-armed for
 * every slot is always that deep, so its sends would go in 4 ms batches; a connection's own chain
 * fires once an interval, and the dashboard's tail was measured with it (bench/TOOL-RESULTS.md).
 */
export class LoopPerLane<T> implements SendSchedule<T> {
  readonly #loops: { value: T; loop: OpenLoop }[] = [];

  constructor(
    private readonly clock: Clock,
    private readonly timers: Timers,
    private readonly intervalUs: number,
    private readonly endUs: number,
    private readonly onSlot: LaneHandler<T>,
  ) {}

  add(value: T, firstSlotUs: number): void {
    const loop = new OpenLoop(this.clock, this.timers, firstSlotUs, this.intervalUs, this.endUs, (plannedUs, sendLagUs, seq) => this.onSlot(value, plannedUs, sendLagUs, seq));
    this.#loops.push({ value, loop });
  }

  start(): void {
    for (const { loop } of this.#loops) loop.start();
  }

  endAt(endUs: number): void {
    for (const { loop } of this.#loops) loop.endAt(endUs);
  }

  stop(unfired: (lane: T, plannedUs: number) => void = () => {}): void {
    for (const { value, loop } of this.#loops) for (const plannedUs of loop.stop()) unfired(value, plannedUs);
  }
}

/**
 * The open loops of every sending connection of an engine as one schedule, with one timer: lane i
 * sends n is due at `firstSlotUs[i] + n * intervalUs`, exactly as an OpenLoop per connection
 * plans it, but one timer, armed for the next due slot, fires and sends every slot that is due
 * (each with its own lateness, read when it is sent). A timer per connection cost a Timeout
 * object, a timer-list insert and removal and a closure per send (0.7 s of the runner's 47 s at
 * 1,000 x 10/s in its profile), and on a loaded machine such a runner fell behind for good: at
 * 10,000 x 1/s, load 27, none of its 150,000 slots had fired by the run's end; with this schedule it kept its
 * plan at 10,000 (p99 173 ms) where both peers fell behind (bench/PEERS-RESULTS.md).
 *
 * The lanes share one interval and their first slots lie within one interval of each other (the
 * engine spreads them over it), so the slots come due in a fixed round: lane order by first
 * slot, then the next round. Every planned slot either fires or is handed back by stop().
 */
export class LaneSchedule<T> implements SendSchedule<T> {
  /** Lanes in the order their slots come due. */
  #lanes: { value: T; firstSlotUs: number }[] = [];
  /** The next slot: lane #cursor of round #round (a lane's round is its send's seq). */
  #cursor = 0;
  #round = 0;
  #timer: unknown = null;
  #started = false;
  #stopped = false;
  #endUs: number;

  constructor(
    private readonly clock: Clock,
    private readonly timers: Timers,
    private readonly intervalUs: number,
    endUs: number,
    private readonly onSlot: LaneHandler<T>,
  ) {
    this.#endUs = endUs;
  }

  /** A lane whose first slot is at `firstSlotUs`; before start(). */
  add(value: T, firstSlotUs: number): void {
    if (this.#started) throw new Error(ENGINE_WORDS.laneAfterStart());
    this.#lanes.push({ value, firstSlotUs });
  }

  start(): void {
    this.#started = true;
    // A stable sort: lanes with the same first slot keep the order they were added in.
    this.#lanes.sort((a, b) => a.firstSlotUs - b.firstSlotUs);
    const lanes = this.#lanes;
    if (lanes.length > 0 && lanes[lanes.length - 1]!.firstSlotUs - lanes[0]!.firstSlotUs >= this.intervalUs) {
      throw new Error(ENGINE_WORDS.lanesTooFarApart());
    }
    this.#arm();
  }

  /** Plans nothing at or after `endUs` any more; slots planned before it still fire, late if due. */
  endAt(endUs: number): void {
    this.#endUs = Math.min(this.#endUs, endUs);
    if (!this.#stopped && this.#started && this.#nextUs() >= this.#endUs) this.#halt();
  }

  /**
   * Stops at once, and hands every slot before the end that never fired to `unfired` (lane, its
   * planned time), lane by lane: the client fell so far behind that they were still waiting. None
   * when the schedule had finished, and none on a second call.
   */
  stop(unfired: (lane: T, plannedUs: number) => void = () => {}): void {
    if (this.#stopped) return;
    this.#halt();
    this.#lanes.forEach((lane, i) => {
      const from = i < this.#cursor ? this.#round + 1 : this.#round;
      for (let plannedUs = lane.firstSlotUs + from * this.intervalUs; plannedUs < this.#endUs; plannedUs += this.intervalUs) unfired(lane.value, plannedUs);
    });
  }

  /** Sends made so far, over every lane. */
  get sends(): number {
    return this.#round * this.#lanes.length + this.#cursor;
  }

  #halt(): void {
    this.#stopped = true;
    if (this.#timer !== null) this.timers.clearTimeout(this.#timer);
    this.#timer = null;
  }

  #nextUs(): number {
    const lane = this.#lanes[this.#cursor];
    return lane === undefined ? Infinity : lane.firstSlotUs + this.#round * this.intervalUs;
  }

  #arm(): void {
    const nextUs = this.#nextUs();
    if (this.#stopped || nextUs >= this.#endUs) return;
    // Whole ms, rounded up, as OpenLoop asks (browsers truncate a fractional delay).
    const delayMs = Math.max(0, Math.ceil((nextUs - this.clock.nowUs()) / 1_000));
    this.#timer = this.timers.setTimeout(this.#fire, delayMs);
  }

  /**
   * One wake-up: every slot due when it woke, in order, each with its lateness read as it is sent
   * (slots that come due meanwhile wait for the next wake-up, as Node's timers phase runs the timers
   * due when it starts). Never fewer: a cap on the slots a wake-up sends, with the event loop's
   * whole round between two wake-ups, once let a client behind its plan fall further behind for
   * good (5,000 connections at 1/s at load 15: 5-9 s late, against 1-1.7 s with a timer each).
   */
  readonly #fire = (): void => {
    this.#timer = null;
    const lanes = this.#lanes;
    const wokeUs = this.clock.nowUs();
    while (!this.#stopped) {
      const lane = lanes[this.#cursor]!;
      const seq = this.#round;
      const plannedUs = lane.firstSlotUs + seq * this.intervalUs;
      if (plannedUs >= this.#endUs) return;
      // Never before the planned time: a timer may wake a little early.
      if (plannedUs > wokeUs) break;
      if (++this.#cursor === lanes.length) {
        this.#cursor = 0;
        this.#round++;
      }
      this.onSlot(lane.value, plannedUs, this.clock.nowUs() - plannedUs, seq);
    }
    this.#arm();
  };
}
