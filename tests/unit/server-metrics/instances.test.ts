/** The server's side over several hub instances: each one's record kept, and combined into one. */
import { describe, expect, it } from 'vitest';
import { combineServerRecords, instanceLabel, instanceSeries } from '../../../core/server-metrics/instances.ts';
import { emptyServerRecord, type ServerMetricsRecord, type ServerSecond } from '../../../core/server-metrics/series.ts';
import { serverCharts } from '../../../core/report/server-charts.ts';

function second(second: number, figures: Partial<ServerSecond>): ServerSecond {
  return { second, cpuPercent: null, connections: null, deliveriesPerSec: null, gcPauseMsPerSec: null, threadPoolQueue: null, workingSetBytes: null, kestrelConnections: null, kestrelQueued: null, ...figures };
}

function record(url: string, points: ServerSecond[], deliveries: number | null, problem: string | null = null): ServerMetricsRecord {
  return { ...emptyServerRecord(url), points, deliveries, problem, failedScrapes: problem ? 1 : 0 };
}

const a = record('http://127.0.0.1:5181/metrics', [second(1, { cpuPercent: 30, connections: 10, deliveriesPerSec: 100 }), second(2, { cpuPercent: 50, connections: 10, deliveriesPerSec: 120 })], 220);
const b = record('http://127.0.0.1:5182/metrics', [second(1, { cpuPercent: 40, connections: 10, deliveriesPerSec: 80 }), second(3, { cpuPercent: 10, connections: 0, restarted: true })], 80, 'Server metrics at http://127.0.0.1:5182/metrics could not be read: refused.');

describe('combined server records', () => {
  it('sum the counts of the instances read each second, take the busiest CPU, and keep each record inside', () => {
    const combined = combineServerRecords([a, b]);
    expect(combined.points).toEqual([
      second(1, { cpuPercent: 40, connections: 20, deliveriesPerSec: 180 }),
      second(2, { cpuPercent: 50, connections: 10, deliveriesPerSec: 120 }),
      second(3, { cpuPercent: 10, connections: 0, restarted: true }),
    ]);
    expect(combined.deliveries).toBe(300);
    expect(combined.url).toBe('http://127.0.0.1:5181/metrics, http://127.0.0.1:5182/metrics');
    expect(combined.problem).toBe(b.problem);
    expect(combined.failedScrapes).toBe(1);
    expect(combined.instances!.map((i) => i.url)).toEqual([a.url, b.url]);
  });

  it('keep unknown as unknown: a figure no instance read, deliveries one instance could not count', () => {
    const combined = combineServerRecords([a, { ...b, deliveries: null }]);
    expect(combined.deliveries).toBeNull();
    expect(combined.points[0]!.gcPauseMsPerSec).toBeNull();
    expect(combineServerRecords([a])).toBe(a);
  });

  it('give each instance its series on the combined seconds, for the charts beside the combination', () => {
    const combined = combineServerRecords([a, b]);
    expect(instanceSeries(combined, 'cpuPercent')).toEqual([[30, 50, null], [40, null, 10]]);
    expect(instanceLabel(combined, 1)).toBe('127.0.0.1:5182');
    const [cpu, deliveries] = serverCharts({ points: [], server: combined });
    expect(cpu).toContain('server CPU, busiest instance');
    expect(cpu).toContain('127.0.0.1:5182: CPU');
    expect(deliveries).toContain('127.0.0.1:5181: delivered');
    expect(instanceSeries(a, 'cpuPercent')).toEqual([]);
  });
});
