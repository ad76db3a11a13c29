/**
 * The server's side of a run in words: what the runner prints and the report shows. Peaks, not
 * means: the guide's advice (stay under 70%) is about the busiest moments.
 */
import { formatBytes, formatCount } from '../format.ts';
import { diagnosisOf, limitOfResult, whileSending, type EvidenceFigures, type LimitFigures, type RunResult } from '../result/index.ts';
import { limitSentenceApplies } from '../diagnosis/index.ts';
import { instanceLabel, peakOf, type ServerMetricsRecord } from '../server-metrics/index.ts';
import { REPORT_WORDS as W } from './words.ts';

type RunFigures = LimitFigures & EvidenceFigures & Pick<RunResult, 'diagnosis'>;

/** [label, text] rows: the server's figures (when they were read) and which side set the limit,
 *  unless that is "cannot be told" beside a specific cause (core/diagnosis limitSentenceApplies). */
export function serverFacts(result: RunFigures): [label: string, text: string][] {
  const limit = limitOfResult(result);
  const server: [string, string][] = result.server ? [['Server', serverText(result.server, result.points)]] : [];
  return limitSentenceApplies(diagnosisOf(result), limit.side) ? [...server, ['Limit', limit.sentence]] : server;
}

/** "Server: peak CPU 43% of all cores, … (read from url)." and "Limit: …", as the runner prints them. */
export function serverLines(result: RunFigures): string[] {
  return serverFacts(result).map(([label, text]) => `${label}: ${text}`);
}

function serverText(server: ServerMetricsRecord, clientPoints: RunFigures['points']): string {
  const read = server.points.length;
  if (read === 0) return `not read from ${server.url}. ${server.problem ?? 'No scrape answered.'}`;
  const cpu = peakOf(whileSending(server.points, clientPoints), 'cpuPercent');
  const parts = [
    `peak CPU ${cpu === null ? 'unknown' : `${Math.round(cpu)}%`} of all cores while sending`,
    known(peakOf(server.points, 'connections'), (n) => `peak ${formatCount(n)} hub connections`),
    known(server.deliveries, (n) => server.instances
      // hub-sample/RedisBackplane.cs: each instance counts its own calls' deliveries to its own connections.
      ? W.deliveriesByHubs({ count: formatCount(n) })
      : `${formatCount(n)} deliveries counted by the hub`),
    known(peakOf(server.points, 'gcPauseMsPerSec'), (n) => `GC pauses up to ${n.toFixed(1)} ms/s`),
    known(peakOf(server.points, 'threadPoolQueue'), (n) => `thread-pool queue up to ${formatCount(n)}`),
    known(peakOf(server.points, 'workingSetBytes'), (n) => `working set up to ${formatBytes(n)}`),
  ].filter((part): part is string => part !== null);
  const failed = server.failedScrapes > 0 ? ` ${formatCount(server.failedScrapes)} reading(s) got no answer.` : '';
  // Over several hub instances: CPU is the busiest one's, the counts their sum (core/server-metrics/instances.ts).
  const instances = (server.instances ?? []).map((instance, k) => {
    const peak = peakOf(whileSending(instance.points, clientPoints), 'cpuPercent');
    return `${instanceLabel(server, k)} peak CPU ${peak === null ? 'unknown' : `${Math.round(peak)}%`}, ${instance.deliveries === null ? 'deliveries unknown' : `${formatCount(instance.deliveries)} deliveries`}`;
  });
  const each = instances.length > 0 ? ` ${W.perInstance({ instances })}` : '';
  // One process read under two addresses is counted once, and said (instances.ts).
  const note = server.note ? ` ${server.note}` : '';
  return `${parts.join(', ')} (read from ${server.url}).${failed}${each}${note}`;
}

function known(value: number | null, text: (n: number) => string): string | null {
  return value === null ? null : text(value);
}
