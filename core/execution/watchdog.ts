/**
 * Notices a worker (a Web Worker, an engine thread, an agent's thread) that stopped reporting
 * without dying: a stuck thread or an unreachable agent sends no "fatal", it just falls silent,
 * and the run would wait on it, keeping every second it never reports open (core/execution/aggregator.ts).
 * The coordinator tells it when each worker was heard from; it calls back once per silent worker.
 */
import type { Clock, Timers } from '../clocks/index.ts';

/**
 * A worker that sent nothing for this long is given up for lost, in ms: every worker reports once
 * a second (workers/engine/bench-engine.ts), so this is 10 reports missed in a row. A starved
 * worker is alive but late: on the 2-core machine at load 17, two engine threads that had just
 * opened 19,500 connections reported event-loop lags of 1.4 and 3 s and then nothing for 5-6 s
 * (bench/RESULTS.md, 2026-11-26), so 5 s gave up on live workers. A worker silent for 10 s has
 * made that much of its receptions late or unknown, more than a run can pass with (a 60 s run
 * fails on 1% late); waiting longer would only hold its open seconds, each a whole histogram,
 * for as long as it stays silent.
 */
export const WORKER_SILENCE_LIMIT_MS = 10_000;
/** How often silence is looked for, in ms: the workers' report interval. */
export const WATCHDOG_INTERVAL_MS = 1_000;

export class SilenceWatchdog {
  /** When each watched worker was last heard from, epoch µs; absent once it is no longer watched. */
  readonly #heardUs = new Map<number, number>();
  #timer: unknown = null;

  constructor(
    private readonly clock: Clock,
    private readonly timers: Timers,
    private readonly onSilent: (workerIndex: number, silentMs: number) => void,
    private readonly limitMs = WORKER_SILENCE_LIMIT_MS,
  ) {}

  /** Starts watching `workers` workers, as if each had just been heard from. */
  start(workers: number): void {
    const nowUs = this.clock.nowUs();
    for (let w = 0; w < workers; w++) this.#heardUs.set(w, nowUs);
    this.#schedule(nowUs);
  }

  heard(workerIndex: number): void {
    if (this.#heardUs.has(workerIndex)) this.#heardUs.set(workerIndex, this.clock.nowUs());
  }

  /** This worker has finished or is already lost: its silence means nothing any more. */
  forget(workerIndex: number): void {
    this.#heardUs.delete(workerIndex);
  }

  stop(): void {
    if (this.#timer !== null) this.timers.clearTimeout(this.#timer);
    this.#timer = null;
    this.#heardUs.clear();
  }

  /**
   * A check that itself fires late (this thread was busy, a page in the background) judges
   * nothing: the workers' messages queued meanwhile have not been read yet, and would be taken
   * for silence. The next check, on time, judges.
   */
  #schedule(fromUs: number): void {
    const dueUs = fromUs + WATCHDOG_INTERVAL_MS * 1_000;
    this.#timer = this.timers.setTimeout(() => {
      this.#timer = null;
      const nowUs = this.clock.nowUs();
      if (nowUs - dueUs < WATCHDOG_INTERVAL_MS * 1_000) this.#check(nowUs);
      if (this.#heardUs.size > 0) this.#schedule(nowUs);
    }, WATCHDOG_INTERVAL_MS);
  }

  #check(nowUs: number): void {
    for (const [workerIndex, heardUs] of [...this.#heardUs]) {
      const silentMs = (nowUs - heardUs) / 1_000;
      if (silentMs < this.limitMs) continue;
      this.#heardUs.delete(workerIndex);
      this.onSilent(workerIndex, silentMs);
    }
  }
}
