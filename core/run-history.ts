/**
 * The kept runs: a small store interface (IndexedDB in the page, a Map in tests), the history's
 * operations on it, and the recorder that writes a run as it goes, once per closed second, so a
 * reload or a crash of the tab loses at most the last second.
 */
import { defaultRunName } from './labels.ts';
import { importRuns, newRunId, settleStale, verdictOf, type KeptRun } from './kept-run.ts';
import type { RunResult } from './run-result.ts';

/** Where kept runs live. Every method resolves once the change is durable. */
export interface RunDb {
  put(run: KeptRun): Promise<void>;
  get(id: string): Promise<KeptRun | undefined>;
  all(): Promise<KeptRun[]>;
  delete(id: string): Promise<void>;
}

export interface Versions {
  toolVersion: string;
  signalrClientVersion: string;
}

export class RunHistory {
  constructor(
    private readonly db: RunDb,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * Every kept run, newest first. Runs cut off by a reload are marked interrupted, durably;
   * `liveId` is this page's own run in progress, never cut off however long its last second took.
   */
  async list(liveId: string | null = null): Promise<KeptRun[]> {
    const nowMs = this.now().getTime();
    const runs = await this.db.all();
    const settled = runs.map((run) => (run.id === liveId ? run : settleStale(run, nowMs)));
    await Promise.all(settled.filter((run, i) => run !== runs[i]).map((run) => this.db.put(run)));
    return settled.sort((a, b) => b.result.startedAt.localeCompare(a.result.startedAt) || b.id.localeCompare(a.id));
  }

  get(id: string): Promise<KeptRun | undefined> {
    return this.db.get(id);
  }

  async rename(id: string, name: string): Promise<void> {
    const trimmed = name.trim();
    if (trimmed === '') throw new Error('A run needs a name: type at least one character, or press Escape to keep the old one.');
    const run = await this.db.get(id);
    if (!run) throw new Error(`No kept run has the id ${id}; it may have been deleted in another tab. Reload the history.`);
    await this.db.put({ ...run, name: trimmed });
  }

  remove(id: string): Promise<void> {
    return this.db.delete(id);
  }

  /** Keeps every run in a file (one run or a comparison); returns them. Throws on a bad file. */
  async import(text: string): Promise<KeptRun[]> {
    const runs = importRuns(text, this.now());
    for (const run of runs) await this.db.put(run);
    return runs;
  }
}

export interface RecordingOptions {
  name?: string;
  comparisonId?: string | null;
}

/**
 * Writes one run at a time as it goes. The page calls `update` as often as it likes (every
 * frame); a write happens when a second has closed since the last one, and once at the end.
 * Writes never overlap: while one is in flight only the latest state waits.
 */
export class RunRecorder {
  #run: KeptRun | null = null;
  #writtenSeconds = -1;
  #finished = false;
  #writing: Promise<void> | null = null;
  #pending: KeptRun | null = null;
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
      verdict: verdictOf(result),
      result,
    };
    this.#writtenSeconds = result.points.length;
    this.#finished = false;
    this.#write(this.#run);
    return this.#run.id;
  }

  /** The run's state now; written if a second closed since the last write or the run finished. */
  update(result: RunResult, finished: boolean): void {
    const run = this.#run;
    if (!run || this.#finished) return;
    if (!finished && result.points.length === this.#writtenSeconds) return;
    this.#writtenSeconds = result.points.length;
    this.#finished = finished;
    this.#run = { ...run, status: finished ? 'complete' : 'running', savedAt: this.now().toISOString(), verdict: verdictOf(result), result };
    this.#write(this.#run);
  }

  /** Resolves when every write asked for so far is done. */
  async flushed(): Promise<void> {
    while (this.#writing) await this.#writing;
  }

  #write(run: KeptRun): void {
    if (this.#writing) {
      this.#pending = run;
      return;
    }
    this.#writing = this.db.put(run).then(
      () => (this.lastError = null),
      (error: unknown) => (this.lastError = `The run could not be kept in this browser: ${error instanceof Error ? error.message : String(error)}. Download it as JSON before leaving the page.`),
    ).then(() => {
      this.#writing = null;
      const next = this.#pending;
      this.#pending = null;
      if (next) this.#write(next);
    });
  }
}

/** A RunDb in memory: for tests, and for a browser that refuses IndexedDB (private modes). */
export class MemoryRunDb implements RunDb {
  readonly #runs = new Map<string, KeptRun>();
  async put(run: KeptRun): Promise<void> {
    this.#runs.set(run.id, structuredClone(run));
  }
  async get(id: string): Promise<KeptRun | undefined> {
    const run = this.#runs.get(id);
    return run && structuredClone(run);
  }
  async all(): Promise<KeptRun[]> {
    return [...this.#runs.values()].map((run) => structuredClone(run));
  }
  async delete(id: string): Promise<void> {
    this.#runs.delete(id);
  }
}
