/** A clock and timers that move only when a test says so; timers fire in due order. */
import type { Clock, Timers } from '../../core/clocks/clock.ts';

const MAX_TIMERS_PER_ADVANCE = 1_000_000;

interface PendingTimer {
  id: number;
  dueUs: number;
  callback: () => void;
}

export class FakeTime implements Clock, Timers {
  #nowUs: number;
  #nextId = 1;
  #timers: PendingTimer[] = [];

  constructor(startUs = 1_700_000_000_000_000) {
    this.#nowUs = startUs;
  }

  nowUs(): number {
    return this.#nowUs;
  }

  setTimeout(callback: () => void, delayMs: number): unknown {
    const timer = { id: this.#nextId++, dueUs: this.#nowUs + Math.max(0, delayMs) * 1_000, callback };
    this.#timers.push(timer);
    return timer.id;
  }

  clearTimeout(handle: unknown): void {
    this.#timers = this.#timers.filter((t) => t.id !== handle);
  }

  get pendingTimers(): number {
    return this.#timers.length;
  }

  /** Moves time forward to `targetUs`, firing every timer due by then (and those they set). */
  async advanceTo(targetUs: number): Promise<void> {
    // Code that keeps setting zero-delay timers would otherwise spin here forever, starving the
    // test runner's own time-out.
    for (let fired = 0; ; fired++) {
      if (fired > MAX_TIMERS_PER_ADVANCE) throw new Error(`More than ${MAX_TIMERS_PER_ADVANCE} timers fired without time reaching its target: a timer loop that never lets time pass.`);
      this.#timers.sort((a, b) => a.dueUs - b.dueUs || a.id - b.id);
      const next = this.#timers[0];
      if (!next || next.dueUs > targetUs) break;
      this.#timers.shift();
      this.#nowUs = Math.max(this.#nowUs, next.dueUs);
      next.callback();
      // Let promise callbacks (sends, receives) run as they would between timer tasks.
      await flushMicrotasks();
    }
    this.#nowUs = Math.max(this.#nowUs, targetUs);
    await flushMicrotasks();
  }

  async advanceByMs(ms: number): Promise<void> {
    await this.advanceTo(this.#nowUs + ms * 1_000);
  }

  /** Moves the clock without firing timers: a busy event loop. */
  jumpByMs(ms: number): void {
    this.#nowUs += ms * 1_000;
  }
}

export async function flushMicrotasks(): Promise<void> {
  for (let i = 0; i < 50; i++) await Promise.resolve();
}
