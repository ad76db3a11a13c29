/**
 * The server's side of a run over several hub instances (core/run-config/hub-instances.ts): one scraper per
 * instance's /metrics, and their records combined into the one record a run keeps, with each
 * instance's own record inside it (`instances`) for the charts that show them apart.
 *
 * Combined per second: connections, deliveries, GC pauses, thread-pool queues, working sets and
 * Kestrel's connections are summed over the instances read in that second; CPU is the busiest
 * instance's, not the sum: each instance reports its share of its own machine's cores, and the
 * limit (attribution.ts) is set by the instance that runs out first, on one machine or several.
 *
 * Two records from one process (two addresses of one app: a proxy in front, two names the page
 * could not resolve) would count it twice. A record that carries the process's identity,
 * OpenTelemetry's service.instance.id (`target_info`'s `service_instance_id`; the hub-sample's
 * --InstanceName), is summed once per identity: the one with the most readings counts, the others
 * stay in `instances` and the combination says so (`note`). Records without it are each counted.
 * Pure, but for the scrapers it drives.
 */
import type { ServerMetricsRecord, ServerSecond } from './series.ts';
import type { ServerScraper } from './scraper.ts';
import { SERVER_METRICS_WORDS as W } from './words.ts';

type Figure = keyof Omit<ServerSecond, 'second' | 'restarted' | 'backplaneUp'>;
const SUMMED: Figure[] = ['connections', 'deliveriesPerSec', 'gcPauseMsPerSec', 'threadPoolQueue', 'workingSetBytes', 'kestrelConnections', 'kestrelQueued'];

/** A record that may say which process it was read from (series.ts serviceInstanceId). */
export type IdentifiedServerRecord = ServerMetricsRecord;

/** The combination of several instances' records, and what it says of those read twice (`note`). */
export type CombinedServerRecord = ServerMetricsRecord;

/** Every instance's record as one (see the module comment); one record is returned as it is. */
export function combineServerRecords(records: readonly IdentifiedServerRecord[]): CombinedServerRecord {
  if (records.length === 1) return records[0]!;
  const { counted, merged } = countedOnce(records);
  const bySecond = new Map<number, ServerSecond[]>();
  for (const record of counted) {
    for (const point of record.points) {
      const list = bySecond.get(point.second);
      if (list) list.push(point);
      else bySecond.set(point.second, [point]);
    }
  }
  const points = [...bySecond.entries()].sort(([a], [b]) => a - b).map(([second, read]) => combinedSecond(second, read));
  return {
    url: records.map((record) => record.url).join(', '),
    problem: records.find((record) => record.problem !== null)?.problem ?? null,
    failedScrapes: records.reduce((sum, record) => sum + record.failedScrapes, 0),
    points,
    deliveries: counted.every((record) => record.deliveries !== null) ? counted.reduce((sum, record) => sum + record.deliveries!, 0) : null,
    instances: records.map((record) => ({ ...record, points: [...record.points] })),
    ...(merged.length > 0 ? { note: merged.map(sameProcessText).join(' ') } : {}),
  };
}

/** Records from one process (one service.instance.id), and the one of them that counts. */
interface MergedRecords {
  id: string;
  urls: string[];
  countedUrl: string;
}

/** The records whose figures are summed: one per identity (the most readings, else the first),
 *  every record without one. */
function countedOnce(records: readonly IdentifiedServerRecord[]): { counted: IdentifiedServerRecord[]; merged: MergedRecords[] } {
  const byId = new Map<string, IdentifiedServerRecord[]>();
  for (const record of records) {
    const id = record.serviceInstanceId;
    if (id) byId.set(id, [...(byId.get(id) ?? []), record]);
  }
  const chosen = new Map([...byId].map(([id, group]) => [id, group.reduce((best, record) => (record.points.length > best.points.length ? record : best))]));
  const counted = records.filter((record) => !record.serviceInstanceId || chosen.get(record.serviceInstanceId) === record);
  const merged = [...byId].filter(([, group]) => group.length > 1).map(([id, group]) => ({ id, urls: group.map((record) => record.url), countedUrl: chosen.get(id)!.url }));
  return { counted, merged };
}

function sameProcessText(merged: MergedRecords): string {
  return W.sameProcess(merged);
}

function combinedSecond(second: number, read: readonly ServerSecond[]): ServerSecond {
  const point: ServerSecond = { second, cpuPercent: busiest(read.map((p) => p.cpuPercent)), connections: null, deliveriesPerSec: null, gcPauseMsPerSec: null, threadPoolQueue: null, workingSetBytes: null, kestrelConnections: null, kestrelQueued: null };
  for (const figure of SUMMED) point[figure] = sumOf(read.map((p) => p[figure]));
  if (read.some((p) => p.restarted)) point.restarted = true;
  // One instance's backplane down is the run's: its messages to the others are lost.
  const backplanes = read.map((p) => p.backplaneUp).filter((up): up is number => up !== null && up !== undefined);
  if (backplanes.length > 0) point.backplaneUp = Math.min(...backplanes);
  return point;
}

/** The sum of the known values; null when none is known (unknown, never 0). */
function sumOf(values: readonly (number | null)[]): number | null {
  let sum: number | null = null;
  for (const value of values) if (value !== null) sum = (sum ?? 0) + value;
  return sum;
}

function busiest(values: readonly (number | null)[]): number | null {
  let max: number | null = null;
  for (const value of values) if (value !== null && (max === null || value > max)) max = value;
  return max;
}

/** One scraper per hub instance, driven and read as one (the runner's and the page's). */
export class ServerScrapers {
  #last: { parts: ServerMetricsRecord[]; combined: ServerMetricsRecord } | null = null;

  constructor(readonly scrapers: readonly ServerScraper[]) {}

  start(): void {
    for (const scraper of this.scrapers) scraper.start();
  }

  async stop(finalReading = true): Promise<void> {
    await Promise.all(this.scrapers.map((scraper) => scraper.stop(finalReading)));
  }

  /** The combined record so far; the same object until one of the instances' records changes. */
  record(): ServerMetricsRecord {
    const parts = this.scrapers.map((scraper) => scraper.record());
    if (this.#last && parts.every((part, k) => part === this.#last!.parts[k])) return this.#last.combined;
    this.#last = { parts, combined: combineServerRecords(parts) };
    return this.#last.combined;
  }
}

/** Each instance's values of a figure on the combined record's seconds (null where it was not
 *  read), for charts that draw each instance beside the combination; empty for one instance. */
export function instanceSeries(server: ServerMetricsRecord, figure: Figure): (number | null)[][] {
  return (server.instances ?? []).map((instance) => {
    const bySecond = new Map(instance.points.map((p) => [p.second, p[figure]]));
    return server.points.map((p) => bySecond.get(p.second) ?? null);
  });
}

/** A short name for instance `k` in a legend: its address's host and port, e.g. "127.0.0.1:5181". */
export function instanceLabel(server: ServerMetricsRecord, k: number): string {
  const url = server.instances?.[k]?.url ?? '';
  try {
    return new URL(url).host;
  } catch {
    return `instance ${k + 1}`;
  }
}

/** Line colours of the instances, in turn, apart from the combined figures' own. */
export const INSTANCE_COLORS = ['#e8590c', '#0c8599', '#9c36b5', '#5c940d', '#d6336c', '#1864ab'] as const;
