/** The history's operations on the kept runs: list (settling runs cut off), rename, delete, import. */
import { importRuns, settleCutOff, type KeptRun, type KeptRunHead } from './kept-run.ts';
import type { RunDb } from './db.ts';
import { withKnownLatencies } from '../run/index.ts';

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
    return settled.map((head) => ({ ...head, result: withKnownLatencies(head.result) })).sort((a, b) => b.result.startedAt.localeCompare(a.result.startedAt) || b.id.localeCompare(a.id));
  }

  /** A kept run, read as this version reads runs (withKnownLatencies: older records hold 0 for unknown percentiles). */
  async get(id: string): Promise<KeptRun | undefined> {
    const run = await this.db.get(id);
    return run && { ...run, result: withKnownLatencies(run.result) };
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

  /** Keeps every run in a file (one run or a comparison) not kept yet; returns those. Throws on a bad file. */
  async import(text: string): Promise<KeptRun[]> {
    return (await this.importSorted(text)).added;
  }

  /**
   * Like import, also saying which runs of the file were kept already (the same id): those are
   * left as they are, so a renamed run keeps its new name.
   */
  async importSorted(text: string): Promise<{ added: KeptRun[]; alreadyKept: KeptRun[] }> {
    const runs = importRuns(text, this.now());
    const kept = new Set((await this.db.heads()).map((head) => head.id));
    const added = runs.filter((run) => !kept.has(run.id));
    for (const run of added) await this.db.put(run);
    return { added, alreadyKept: runs.filter((run) => kept.has(run.id)) };
  }
}
