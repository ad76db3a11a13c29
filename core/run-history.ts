/**
 * The kept runs: a small store interface (IndexedDB in the page, memory in tests), the history's
 * operations on it, and the recorder that writes a run as it goes, once per closed second, so a
 * reload or a crash of the tab loses at most the last second.
 *
 * A run is stored as a head (everything but the per-second series) plus one row per second.
 * Closed seconds never change, so each write adds only the new seconds: its cost stays flat
 * however long the run (bench/keep-cost.mjs).
 */
import { defaultRunName } from './labels.ts';
import { headOf, importRuns, newRunId, settleCutOff, type KeptRun, type KeptRunHead } from './kept-run.ts';
import type { SecondPoint } from './run-aggregator.ts';
import type { RunResult } from './run-result.ts';

/** One second of a kept run. */
export interface KeptSecond {
  runId: string;
  second: number;
  point: SecondPoint | null;
  /** The second's merged latency histogram (compressed base64); null when nothing arrived. */
  histogram: string | null;
}

/** Where kept runs live. Every method resolves once the change is durable. */
export interface RunDb {
  /** Writes the head, and the seconds of `result.points` from index `seriesFrom` on (default all). */
  put(run: KeptRun, seriesFrom?: number): Promise<void>;
  /** Writes the head only (a rename, a status). */
  putHead(head: KeptRunHead): Promise<void>;
  get(id: string): Promise<KeptRun | undefined>;
  heads(): Promise<KeptRunHead[]>;
  delete(id: string): Promise<void>;
}

/** The seconds of a run from point index `from` on; histograms of seconds without a point too when writing all. */
export function secondsOf(run: KeptRun, from = 0): KeptSecond[] {
  const { points, histograms } = run.result;
  const rows = new Map<number, KeptSecond>();
  for (const point of points.slice(from)) rows.set(point.second, { runId: run.id, second: point.second, point, histogram: null });
  const firstSecond = from === 0 ? -Infinity : (points[from]?.second ?? Infinity);
  for (const h of histograms) {
    if (h.second < firstSecond) continue;
    const row = rows.get(h.second) ?? { runId: run.id, second: h.second, point: null, histogram: null };
    rows.set(h.second, { ...row, histogram: h.latency });
  }
  return [...rows.values()];
}

export function joinRun(head: KeptRunHead, seconds: readonly KeptSecond[]): KeptRun {
  const { seconds: _count, result, ...meta } = head;
  const sorted = [...seconds].sort((a, b) => a.second - b.second);
  return {
    ...meta,
    result: {
      ...result,
      points: sorted.flatMap((s) => (s.point ? [s.point] : [])),
      histograms: sorted.flatMap((s) => (s.histogram !== null ? [{ second: s.second, latency: s.histogram }] : [])),
    },
  };
}

export interface Versions {
  toolVersion: string;
  signalrClientVersion: string;
}

/** Whether some page still runs a kept run (held Web Locks in a browser); null where that cannot be told. */
export type RunLiveness = (runId: string) => Promise<boolean | null>;

export class RunHistory {
  constructor(
    private readonly db: RunDb,
    private readonly now: () => Date = () => new Date(),
    private readonly liveness: RunLiveness = async () => null,
  ) {}

  /**
   * Every kept run's head, newest first. Runs cut off by a reload are marked interrupted,
   * durably, as soon as no page runs them; `liveId` is this page's own run in progress, never
   * cut off however long its last second took.
   */
  async list(liveId: string | null = null): Promise<KeptRunHead[]> {
    const nowMs = this.now().getTime();
    const heads = await this.db.heads();
    const settled = await Promise.all(heads.map(async (head) =>
      head.id === liveId || head.status !== 'running' ? head : settleCutOff(head, nowMs, await this.liveness(head.id))));
    await Promise.all(settled.filter((head, i) => head !== heads[i]).map((head) => this.db.putHead(head)));
    return settled.sort((a, b) => b.result.startedAt.localeCompare(a.result.startedAt) || b.id.localeCompare(a.id));
  }

  get(id: string): Promise<KeptRun | undefined> {
    return this.db.get(id);
  }

  async rename(id: string, name: string): Promise<void> {
    const trimmed = name.trim();
    if (trimmed === '') throw new Error('A run needs a name: type at least one character, or press Escape to keep the old one.');
    const head = (await this.db.heads()).find((h) => h.id === id);
    if (!head) throw new Error(`No kept run has the id ${id}; it may have been deleted in another tab. Reload the history.`);
    await this.db.putHead({ ...head, name: trimmed });
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

/** Seconds before the newest that each write rewrites: their receptions may still be arriving. */
const REWRITTEN_SECONDS = 10;

export interface RecordingOptions {
  name?: string;
  comparisonId?: string | null;
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
      (error: unknown) => (this.lastError = `The run could not be kept in this browser: ${error instanceof Error ? error.message : String(error)}. Download it as JSON before leaving the page.`),
    ).then(() => {
      this.#writing = null;
      const next = this.#pending;
      this.#pending = null;
      if (next) this.#write(next.run, next.from);
    });
  }
}

/** A RunDb in memory: for tests, and for a browser that refuses IndexedDB (private modes). */
export class MemoryRunDb implements RunDb {
  readonly #heads = new Map<string, KeptRunHead>();
  readonly #seconds = new Map<string, Map<number, KeptSecond>>();

  async put(run: KeptRun, seriesFrom = 0): Promise<void> {
    this.#heads.set(run.id, structuredClone(headOf(run)));
    const rows = this.#seconds.get(run.id) ?? new Map<number, KeptSecond>();
    for (const row of secondsOf(run, seriesFrom)) rows.set(row.second, structuredClone(row));
    this.#seconds.set(run.id, rows);
  }

  async putHead(head: KeptRunHead): Promise<void> {
    this.#heads.set(head.id, structuredClone(head));
  }

  async get(id: string): Promise<KeptRun | undefined> {
    const head = this.#heads.get(id);
    return head && structuredClone(joinRun(head, [...(this.#seconds.get(id)?.values() ?? [])]));
  }

  async heads(): Promise<KeptRunHead[]> {
    return [...this.#heads.values()].map((head) => structuredClone(head));
  }

  async delete(id: string): Promise<void> {
    this.#heads.delete(id);
    this.#seconds.delete(id);
  }
}
