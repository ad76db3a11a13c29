/**
 * The server's figures per second of a run, from consecutive scrapes (reading.ts): rates and CPU
 * share from the difference of two readings over the time between them, gauges as read. The
 * record is what a run keeps (core/result/result.ts `server`), what the charts draw and what the
 * attribution rule (attribution.ts) reads.
 */
import type { ServerReading } from './reading.ts';

/** One second of the run as the server saw it; null where the app does not export the figure or
 *  where no earlier reading gives a rate. */
export interface ServerSecond {
  /** The run's second this reading closes, as the client's points count them (core/execution/aggregator.ts). */
  second: number;
  /** The app's process CPU since the previous reading, in % of all the machine's cores (100: every core busy). */
  cpuPercent: number | null;
  /** Connections to the benchmark hub: the hub-sample's own count, or else ASP.NET Core's active
   *  SignalR connections (every hub of the app). */
  connections: number | null;
  /** Messages the hub handed to connections per second (the hub-sample's counter). */
  deliveriesPerSec: number | null;
  /** Time the GC paused the app, in ms per second. */
  gcPauseMsPerSec: number | null;
  /** Work items waiting for a thread-pool thread. */
  threadPoolQueue: number | null;
  workingSetBytes: number | null;
  /** Kestrel's open and queued TCP connections. */
  kestrelConnections: number | null;
  kestrelQueued: number | null;
  /** True when the app restarted since the previous reading (its CPU time or deliveries went
   *  down); absent otherwise, and in runs kept before restarts were marked. */
  restarted?: boolean;
  /** 1 while the hub's backplane answered, 0 while it did not (the hub-sample with --Redis);
   *  absent when the hub has no backplane gauge, and in runs kept before it was read. */
  backplaneUp?: number | null;
}

/** The server's side of a run, as kept with it. */
export interface ServerMetricsRecord {
  /** Where they were read, e.g. http://127.0.0.1:5180/metrics. */
  url: string;
  /** Why they could not be read (the first failure, worded for people); null when every scrape answered. */
  problem: string | null;
  /** Scrapes that failed. */
  failedScrapes: number;
  points: ServerSecond[];
  /** Deliveries the hub counted between the first and the last reading; null when unknown (no
   *  such counter, or the hub restarted in between). */
  deliveries: number | null;
  /** With several hub instances: each one's own record, in the endpoints' order, the record
   *  above being their combination (instances.ts). Absent for one instance, and in runs kept before. */
  instances?: ServerMetricsRecord[];
  /** The process it was read from (reading.ts instanceId); absent or null when the app does not say. */
  serviceInstanceId?: string | null;
  /** A combination's word on records read twice from one process (instances.ts); absent when none. */
  note?: string;
}

export function emptyServerRecord(url: string): ServerMetricsRecord {
  return { url, problem: null, failedScrapes: 0, points: [], deliveries: null };
}

/** The second a reading taken at `atUs` closes, never the same as or before the previous one's. */
export function secondOf(atUs: number, runStartUs: number, previousSecond: number | null): number {
  const second = Math.max(0, Math.round((atUs - runStartUs) / 1_000_000));
  return previousSecond !== null && second <= previousSecond ? previousSecond + 1 : second;
}

/** The point for `current`, with rates taken against `previous` (the reading before it, if any). */
export function serverSecond(second: number, current: ServerReading, previous: ServerReading | null): ServerSecond {
  const elapsedSec = previous ? (current.atUs - previous.atUs) / 1_000_000 : 0;
  const rate = (field: 'cpuSeconds' | 'hubDeliveries' | 'gcPauseSeconds'): number | null => {
    const now = current[field];
    const before = previous?.[field];
    // A counter that went down was reset (the app restarted): no rate across it.
    if (elapsedSec <= 0 || now === null || before === null || before === undefined || now < before) return null;
    return (now - before) / elapsedSec;
  };
  const cpuPerSec = rate('cpuSeconds');
  const gcPerSec = rate('gcPauseSeconds');
  const wentDown = (field: 'cpuSeconds' | 'hubDeliveries') => current[field] !== null && previous !== null && previous[field] !== null && current[field]! < previous[field]!;
  return {
    ...(wentDown('cpuSeconds') || wentDown('hubDeliveries') ? { restarted: true } : {}),
    second,
    cpuPercent: cpuPerSec === null || !current.cpuCount ? null : (cpuPerSec / current.cpuCount) * 100,
    connections: current.hubConnections ?? current.signalrConnections,
    deliveriesPerSec: rate('hubDeliveries'),
    gcPauseMsPerSec: gcPerSec === null ? null : gcPerSec * 1_000,
    threadPoolQueue: current.threadPoolQueue,
    workingSetBytes: current.workingSetBytes,
    kestrelConnections: current.kestrelConnections,
    kestrelQueued: current.kestrelQueued,
    ...(current.backplaneUp !== null && current.backplaneUp !== undefined ? { backplaneUp: current.backplaneUp } : {}),
  };
}

/** The deliveries counted so far after `next`: the total before it plus what the hub counted since
 *  `previous`. Unknown (null) from the first reading without the counter or the first reset (the
 *  hub restarted: what it delivered while it was gone is unknown) on, never a wrong number. */
export function addDeliveries(total: number | null, previous: ServerReading | null, next: ServerReading): number | null {
  if (next.hubDeliveries === null) return null;
  if (previous === null) return 0;
  if (total === null || previous.hubDeliveries === null || next.hubDeliveries < previous.hubDeliveries) return null;
  // A new process can have counted past the old one's figure already; its CPU time gives it away.
  if (next.cpuSeconds !== null && previous.cpuSeconds !== null && next.cpuSeconds < previous.cpuSeconds) return null;
  return total + next.hubDeliveries - previous.hubDeliveries;
}

/** The highest value of a figure over the run; null when it was never known. */
export function peakOf(points: readonly ServerSecond[], field: keyof Omit<ServerSecond, 'second' | 'restarted' | 'backplaneUp'>): number | null {
  let peak: number | null = null;
  for (const point of points) {
    const value = point[field];
    if (value !== null && (peak === null || value > peak)) peak = value;
  }
  return peak;
}
