/** The history's operations on the kept runs: list (settling runs cut off), rename, delete, import. */
import { importRuns, settleCutOff, type KeptRun, type KeptRunHead, type KeptRunMeta } from './kept-run.ts';
import type { RunDb } from './db.ts';
import { upgradeRunResult } from '../result/index.ts';
import { upgradeCapacityResult } from '../capacity/index.ts';
import { BenchError } from '../errors/index.ts';
import { HISTORY_WORDS } from './words.ts';

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
    return settled.map(upgradeKept).sort((a, b) => b.result.startedAt.localeCompare(a.result.startedAt) || b.id.localeCompare(a.id));
  }

  /** A kept run, read as this version reads runs (upgradeKept). */
  async get(id: string): Promise<KeptRun | undefined> {
    const run = await this.db.get(id);
    return run && upgradeKept(run);
  }

  async rename(id: string, name: string): Promise<void> {
    const trimmed = name.trim();
    if (trimmed === '') throw new BenchError('badInput', HISTORY_WORDS.emptyName());
    const head = (await this.db.heads()).find((h) => h.id === id);
    if (!head) throw new BenchError('notFound', HISTORY_WORDS.notFound({ id }));
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

/** A kept run (or its head) as this version reads runs: kept records are never rewritten, so an
 *  older one is brought to the current document versions each time it is read, like a file. */
function upgradeKept<T extends KeptRunMeta & { result: Parameters<typeof upgradeRunResult>[0] }>(run: T): T {
  return { ...run, result: upgradeRunResult(run.result), ...(run.capacity ? { capacity: upgradeCapacityResult(run.capacity) } : {}) };
}
