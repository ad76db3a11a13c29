/**
 * Writes the live run as it goes, once per closed second, so a reload or a crash of the tab loses
 * at most the last second. Each write adds the new seconds and rewrites the few before them whose
 * receptions may still be arriving: its cost stays flat however long the run
 * (bench/keep-cost.mjs).
 */
import { type RunResult } from '../result/index.ts';
import { defaultRunName } from '../run-config/index.ts';
import { newRunId, type KeptRun } from './kept-run.ts';
import type { RunDb } from './db.ts';
import { HISTORY_WORDS } from './words.ts';
import type { CapacityResult } from '../capacity/index.ts';

export interface Versions {
  toolVersion: string;
  signalrClientVersion: string;
}

/** Seconds before the newest that each write rewrites: their receptions may still be arriving. */
export const REWRITTEN_SECONDS = 10;

export interface RecordingOptions {
  name?: string;
  comparisonId?: string | null;
  /** The capacity search this run is a step of, as it stands (core/capacity/). */
  capacity?: CapacityResult;
}

/**
 * Writes one run at a time as it goes. The page calls `update` as often as it likes (every
 * frame); a write happens when a second has closed since the last one, and once at the end.
 * Writes never overlap: while one is in flight only the latest state waits, with every second
 * the waiting writes would have added.
 */
export class RunRecorder {
  #run: KeptRun | null = null;
  #writtenSeconds = -1;
  #finished = false;
  #writing: Promise<void> | null = null;
  #pending: { run: KeptRun; from: number } | null = null;
  /** The last write's failure, for the page to show; writes go on. */
  lastError: string | null = null;

  constructor(
    private readonly db: RunDb,
    private readonly versions: Versions,
    private readonly now: () => Date = () => new Date(),
    private readonly random: () => number = Math.random,
  ) {}

  get runId(): string | null {
    return this.#run?.id ?? null;
  }

  /** The id of the run being written, until it has finished. */
  get liveId(): string | null {
    return this.#finished ? null : this.runId;
  }

  /** The run as last handed to the store. */
  get run(): KeptRun | null {
    return this.#run;
  }

  /** Starts keeping a new run; it is written at once, so it shows in the history while it connects. */
  begin(result: RunResult, options: RecordingOptions = {}): string {
    this.#run = {
      id: newRunId(this.now(), this.random),
      name: options.name ?? defaultRunName(result.config),
      status: 'running',
      savedAt: this.now().toISOString(),
      ...this.versions,
      comparisonId: options.comparisonId ?? null,
      ...(options.capacity ? { capacity: options.capacity } : {}),
      result,
    };
    this.#writtenSeconds = result.points.length;
    this.#finished = false;
    this.#write(this.#run, 0);
    return this.#run.id;
  }

  /**
   * The run's state now; written if a second closed since the last write or the run finished.
   * Receptions keep arriving for seconds already written (a second's fates fill in as its
   * messages land), so each write also rewrites the last few seconds, and the final one all.
   */
  update(result: RunResult, finished: boolean): void {
    const run = this.#run;
    if (!run || this.#finished) return;
    if (!finished && result.points.length === this.#writtenSeconds) return;
    const from = finished ? 0 : Math.max(0, this.#writtenSeconds - REWRITTEN_SECONDS);
    this.#writtenSeconds = result.points.length;
    this.#finished = finished;
    this.#run = { ...run, status: result.outcome.kind, savedAt: this.now().toISOString(), result };
    this.#write(this.#run, from);
  }

  /** A finished run's figures that came after its end (its agents' closing clock round: the
   *  agents, the clocks' judgement and the verdict): a write of the head only, the seconds stay. */
  amend(result: RunResult): void {
    const run = this.#run;
    if (!run || !this.#finished) return;
    this.#run = { ...run, savedAt: this.now().toISOString(), result };
    this.#write(this.#run, result.points.length);
  }

  /** Keeps the capacity search this run is a step of, as it stands once the step is judged: a
   *  write of the head only (no second is rewritten). */
  setCapacity(capacity: CapacityResult): void {
    const run = this.#run;
    if (!run) return;
    this.#run = { ...run, capacity };
    this.#write(this.#run, run.result.points.length);
  }

  /** Resolves when every write asked for so far is done. */
  async flushed(): Promise<void> {
    while (this.#writing) await this.#writing;
  }

  #write(run: KeptRun, from: number): void {
    if (this.#writing) {
      this.#pending = { run, from: Math.min(from, this.#pending?.from ?? from) };
      return;
    }
    this.#writing = this.db.put(run, from).then(
      () => (this.lastError = null),
      (error: unknown) => (this.lastError = HISTORY_WORDS.notKept({ error })),
    ).then(() => {
      this.#writing = null;
      const next = this.#pending;
      this.#pending = null;
      if (next) this.#write(next.run, next.from);
    });
  }
}
