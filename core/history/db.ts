/**
 * Where kept runs live: a small store interface (IndexedDB in the page, memory in tests), and a
 * run split into its head (everything but the per-second series) and one row per second, so a
 * write adds only the seconds that changed.
 */
import { headOf, type KeptRun, type KeptRunHead } from './kept-run.ts';
import type { SecondPoint } from '../execution/index.ts';
import type { ServerSecond } from '../server-metrics/index.ts';

/** One second of a kept run. */
export interface KeptSecond {
  runId: string;
  second: number;
  point: SecondPoint | null;
  /** The second's merged latency histogram (compressed base64); null when nothing arrived. */
  histogram: string | null;
  /** The server's figures of that second (absent without server metrics, and in rows kept
   *  before them): kept per second like the client's, so a write does not grow with the run. */
  server?: ServerSecond;
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
  for (const server of run.result.server?.points ?? []) {
    if (server.second < firstSecond) continue;
    const row = rows.get(server.second) ?? { runId: run.id, second: server.second, point: null, histogram: null };
    rows.set(server.second, { ...row, server });
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
      ...(result.server ? { server: { ...result.server, points: sorted.flatMap((s) => (s.server ? [s.server] : [])) } } : {}),
    },
  };
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
