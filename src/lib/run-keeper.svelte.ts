/**
 * Keeps every run of the page in the browser as it goes (core/history/history.ts over IndexedDB)
 * and holds the history list the History page shows.
 */
import type { CapacityResult } from '../../core/capacity/index.ts';
import { RunHistory, RunRecorder, VERSIONS, type KeptRun, type KeptRunHead, type RecordingOptions } from '../../core/history/index.ts';
import type { RunConfig } from '../../core/run-config/index.ts';
import type { RunController } from './run-controller.svelte.ts';
import { openRunDb } from './run-store.ts';
import { PAGE_WORDS } from './words.ts';

/** Longest a running second's write waits for the page to be idle, in ms. */
const WRITE_WITHIN_MS = 500;

/** Runs `task` when the page is idle (at most WRITE_WITHIN_MS later); returns a cancel. */
function whenIdle(task: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(task, { timeout: WRITE_WITHIN_MS });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(task, 0);
  return () => clearTimeout(id);
}

export class RunKeeper {
  /** Every kept run (without its series), newest first, as of the last refresh. */
  runs = $state.raw<KeptRunHead[]>([]);
  /** Why runs are not kept (storage refused, a write failed), for the page to show; null when fine. */
  warning = $state<string | null>(null);
  /** The live run's record as last written; null before the first run. */
  current = $state.raw<KeptRun | null>(null);
  #history: RunHistory | null = null;
  #recorder: RunRecorder | null = null;
  readonly #ready: Promise<void>;
  #trackedConfig: RunConfig | null = null;
  #trackedSeconds = -1;
  #trackedDone = false;
  #next: RecordingOptions = {};
  #releaseLock: (() => void) | null = null;

  constructor() {
    this.#ready = openRunDb().then(async ({ db, warning }) => {
      this.#history = new RunHistory(db, () => new Date(), runIsAlive);
      this.#recorder = new RunRecorder(db, VERSIONS);
      this.warning = warning;
      await this.refresh();
    });
  }

  ready(): Promise<void> {
    return this.#ready;
  }

  /** Name and comparison of the next run started; used once. */
  keepNextAs(options: RecordingOptions): void {
    this.#next = options;
  }

  #trackedAgents: readonly unknown[] | null = null;
  #trackedEvidence = 0;

  /**
   * Called on every refresh of the run (each frame at most). A new configuration object means
   * a new run; a new closed second or the end means a write.
   */
  track(run: RunController): void {
    const recorder = this.#recorder;
    const config = run.config;
    const view = run.view;
    if (!recorder || !config || !view) return;
    const seconds = run.points.length;
    const done = view.phase === 'done';
    let begun = false;
    if (config !== this.#trackedConfig) {
      const result = run.partialResult();
      if (!result) return;
      begun = true;
      this.#trackedConfig = config;
      const id = recorder.begin(result, this.#next);
      this.#next = {};
      this.#holdWhileRunning(id);
    } else if (seconds === this.#trackedSeconds && done === this.#trackedDone && view.agents === this.#trackedAgents && run.lateEvidence === this.#trackedEvidence) {
      return;
    }
    // The agents' closing clock round ends after the run does, and so may the answer of the
    // endpoint's origin (its diagnosis): the figures are written again then.
    const amend = done && this.#trackedDone;
    this.#trackedSeconds = seconds;
    this.#trackedDone = done;
    this.#trackedAgents = view.agents;
    this.#trackedEvidence = run.lateEvidence;
    this.#cancelIdleWrite();
    // A second of a running run is written when the page is idle, not in the frame that draws it
    // (at most WRITE_WITHIN_MS later): copying and keeping it made that frame's task longer. The
    // first write and the end are written at once.
    if (!done && !begun) {
      this.#idleWrite = whenIdle(() => {
        this.#idleWrite = null;
        this.#write(run, false, false);
      });
      return;
    }
    this.#write(run, done, amend);
  }

  /** A running second's write, waiting for the page to be idle; null when none waits. */
  #idleWrite: (() => void) | null = null;

  #cancelIdleWrite(): void {
    this.#idleWrite?.();
    this.#idleWrite = null;
  }

  #write(run: RunController, done: boolean, amend: boolean): void {
    const recorder = this.#recorder;
    if (!recorder) return;
    const result = run.partialResult();
    if (result && amend) recorder.amend(result);
    else if (result) recorder.update(result, done);
    this.current = recorder.run;
    // Writes finish later; a failure shows from the next second on, while the run still goes.
    if (recorder.lastError) this.warning = recorder.lastError;
    if (done) void this.#afterWrite();
  }

  /** Keeps the capacity search the live run is a step of, as it stands after the step was judged. */
  async keepCapacity(capacity: CapacityResult): Promise<void> {
    this.#recorder?.setCapacity(capacity);
    await this.#afterWrite();
  }

  /** Resolves once the live run's writes are durable; returns its record. */
  async flushed(): Promise<KeptRun | null> {
    await this.#recorder?.flushed();
    return this.#recorder?.run ?? null;
  }

  async refresh(): Promise<void> {
    if (!this.#history) return;
    try {
      this.runs = await this.#history.list(this.#recorder?.liveId ?? null);
    } catch (error) {
      this.warning = PAGE_WORDS.historyUnreadable({ reason: messageOf(error) });
    }
  }

  async rename(id: string, name: string): Promise<void> {
    await this.#ready;
    await this.#history!.rename(id, name);
    await this.refresh();
  }

  async remove(id: string): Promise<void> {
    await this.#ready;
    await this.#history!.remove(id);
    await this.refresh();
  }

  /** Keeps the runs of a file; throws an Error that says what is wrong with a bad one. */
  /** The file's runs not kept yet, kept now; and those that were kept already (left as they are). */
  async import(text: string): Promise<{ added: KeptRun[]; alreadyKept: KeptRun[] }> {
    await this.#ready;
    const sorted = await this.#history!.importSorted(text);
    await this.refresh();
    return sorted;
  }

  async get(id: string): Promise<KeptRun | undefined> {
    await this.#ready;
    return this.#history!.get(id);
  }

  /**
   * Holds a Web Lock named after the run until it ends: the browser releases it the moment this
   * page goes (reload, close, crash), so any page's history sees at once that the run was cut off.
   */
  #holdWhileRunning(runId: string): void {
    this.#releaseLock?.();
    const locks = globalThis.navigator?.locks;
    if (!locks) return;
    const held = new Promise<void>((resolve) => (this.#releaseLock = resolve));
    void locks.request(lockName(runId), () => held).catch(() => {});
  }

  async #afterWrite(): Promise<void> {
    this.#releaseLock?.();
    this.#releaseLock = null;
    await this.#recorder?.flushed();
    this.current = this.#recorder?.run ?? null;
    if (this.#recorder?.lastError) this.warning = this.#recorder.lastError;
    await this.refresh();
  }
}

function lockName(runId: string): string {
  return `signalr-live-bench-run:${runId}`;
}

/** Whether some page of this origin still runs the kept run; null where Web Locks are missing. */
async function runIsAlive(runId: string): Promise<boolean | null> {
  const locks = globalThis.navigator?.locks;
  if (!locks) return null;
  const { held = [] } = await locks.query();
  return held.some((lock) => lock.name === lockName(runId));
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
