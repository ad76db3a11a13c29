/**
 * Merging workers' interval histograms gives the percentiles of all the latencies together,
 * within HdrHistogram's 3 significant digits, checked against exact quantiles of random data.
 */
import { describe, expect, it } from 'vitest';
import { shareUnderOneSecond, unaccountedOf } from '../../core/accounting/fates.ts';
import { RunAggregator } from '../../core/execution/aggregator.ts';
import { WorkerStats } from '../../workers/engine/worker-stats.ts';
import type { WorkerSnapshot } from '../../core/execution/worker-messages.ts';
import { seeded } from '../support/seeded-random.ts';

function exactQuantile(sorted: number[], percentile: number): number {
  // HdrHistogram's definition: the smallest value with at least `percentile`% of values at or below it.
  const rank = Math.max(1, Math.ceil((percentile / 100) * sorted.length));
  return sorted[rank - 1]!;
}

function snapshot(stats: WorkerStats, workerIndex: number, second: number, final = false): WorkerSnapshot {
  return {
    type: 'snapshot',
    workerIndex,
    phase: final ? 'done' : 'running',
    second,
    final,
    ...stats.takeInterval(),
    totals: { ...stats.totals },
    connectionsOpen: 5,
    connectionsConnecting: 0,
    eventLoopLagMs: workerIndex,
    errorCounts: { ...stats.errorCounts },
    errorSamples: stats.errorSamples(),
  };
}

const RUN_START_US = 1_700_000_000_000_000;

describe('RunAggregator', () => {
  it('attributes receptions to the second they were planned in, so each second\'s buckets sum to its planned count', () => {
    const sender = new WorkerStats();
    const receiver = new WorkerStats();
    sender.startRun(RUN_START_US);
    receiver.startRun(RUN_START_US);
    const aggregator = new RunAggregator(2);
    const at = (seconds: number) => RUN_START_US + seconds * 1_000_000;
    // Second 1: 4 planned; 2 arrive within it, 1 arrives 1.5 s late in second 3, 1 never arrives.
    sender.recordSlot(at(0.1), 4);
    receiver.recordReceive(at(0.1), at(0.2), 0);
    receiver.recordReceive(at(0.1), at(0.3), 0);
    aggregator.add(snapshot(sender, 0, 1));
    aggregator.add(snapshot(receiver, 1, 1));
    // Second 2: 2 planned, both backed up.
    sender.recordSlot(at(1.5), 2);
    sender.recordNotSent(at(1.5), 'backedUp', 2);
    aggregator.add(snapshot(sender, 0, 2));
    aggregator.add(snapshot(receiver, 1, 2));
    expect(aggregator.judgedShare()).toBe(0.5);
    receiver.recordReceive(at(0.1), at(2.6), 0);
    aggregator.add(snapshot(sender, 0, 3, true));
    aggregator.add(snapshot(receiver, 1, 3, true));
    const [first, second, third] = aggregator.points();
    expect(first!.fates).toMatchObject({ planned: 4, underOneSecond: 2, late: 1 });
    expect(unaccountedOf(first!.fates)).toBe(1);
    expect(second!.fates).toMatchObject({ planned: 2, notSent: { backedUp: 2 } });
    expect(unaccountedOf(second!.fates)).toBe(0);
    expect(third!.fates.planned).toBe(0);
    // Received per second counts arrivals when they happened: one in the third second.
    expect(aggregator.points().map((p) => p.received)).toEqual([2, 0, 1]);
    expect(aggregator.fates()).toMatchObject({ planned: 6, underOneSecond: 2, late: 1, notSent: { backedUp: 2 } });
  });

  for (const seed of [1, 2, 3, 4, 5]) {
    it(`merged percentiles match exact quantiles (seed ${seed})`, () => {
      const next = seeded(seed);
      const workers = [new WorkerStats(), new WorkerStats(), new WorkerStats()];
      for (const stats of workers) stats.startRun(RUN_START_US);
      const aggregator = new RunAggregator(workers.length);
      const all: number[] = [];
      for (let second = 1; second <= 4; second++) {
        workers.forEach((stats, w) => {
          const count = 50 + Math.floor(next() * 500);
          for (let i = 0; i < count; i++) {
            // Log-uniform from 100 us to 2 s, with each worker on its own scale.
            const latencyUs = Math.round(100 * Math.pow(20_000, next()) * (w + 1));
            all.push(latencyUs);
            const plannedUs = RUN_START_US + (second - 1) * 1_000_000;
            stats.recordSlot(plannedUs, 1);
            stats.recordSend(0, 1_000_000);
            stats.recordReceive(plannedUs, plannedUs + latencyUs, 0);
          }
          aggregator.add(snapshot(stats, w, second, second === 4));
        });
      }
      all.sort((a, b) => a - b);
      const merged = aggregator.latency();
      expect(merged.count).toBe(all.length);
      for (const [percentile, value] of [[50, merged.p50Us], [90, merged.p90Us], [99, merged.p99Us], [99.9, merged.p999Us]] as const) {
        const exact = exactQuantile(all, percentile);
        expect(Math.abs(value! - exact) / exact, `p${percentile}: ${value} vs exact ${exact}`).toBeLessThanOrEqual(0.001);
      }
      expect(Math.abs(merged.maxUs! - all.at(-1)!) / all.at(-1)!).toBeLessThanOrEqual(0.001);
      const underOneSecond = all.filter((us) => us < 1_000_000).length;
      const fates = aggregator.fates();
      expect(fates.planned).toBe(all.length);
      expect(fates.underOneSecond + fates.late).toBe(all.length);
      expect(shareUnderOneSecond(fates)).toBeCloseTo(underOneSecond / all.length, 12);
    });
  }

  it('shows a second only when every worker has reported it, and sums it across workers', () => {
    const a = new WorkerStats();
    const b = new WorkerStats();
    const aggregator = new RunAggregator(2);
    a.recordSend(0, 1e6);
    aggregator.add(snapshot(a, 0, 1));
    expect(aggregator.points()).toEqual([]);
    b.recordSend(0, 1e6);
    b.recordSend(0, 1e6);
    aggregator.add(snapshot(b, 1, 1));
    expect(aggregator.points().map((p) => [p.second, p.sent, p.connectionsOpen, p.eventLoopLagMs])).toEqual([[1, 3, 10, 1]]);
  });

  it("counts the connects in flight from each worker's latest snapshot (the runner's stall notice waits for them)", () => {
    const aggregator = new RunAggregator(2);
    expect(aggregator.connectionsConnecting()).toBe(0);
    aggregator.add({ ...snapshot(new WorkerStats(), 0, 1), phase: 'connecting', connectionsOpen: 0, connectionsConnecting: 64 });
    aggregator.add({ ...snapshot(new WorkerStats(), 1, 1), phase: 'connecting', connectionsOpen: 0, connectionsConnecting: 0 });
    expect(aggregator.connectionsConnecting()).toBe(64);
    aggregator.add({ ...snapshot(new WorkerStats(), 0, 2), phase: 'connecting', connectionsOpen: 10, connectionsConnecting: 54 });
    expect(aggregator.connectionsConnecting()).toBe(54);
  });

  it('a lost worker no longer holds back the seconds, and what it reported is kept', () => {
    const a = new WorkerStats();
    const b = new WorkerStats();
    const aggregator = new RunAggregator(2);
    b.recordSend(0, 1e6);
    aggregator.add(snapshot(b, 1, 1));
    a.recordSend(0, 1e6);
    aggregator.add(snapshot(a, 0, 1));
    aggregator.add(snapshot(a, 0, 2));
    expect(aggregator.points().map((p) => p.second)).toEqual([1]);
    aggregator.markWorkerLost(1);
    expect(aggregator.points().map((p) => p.second)).toEqual([1, 2]);
    expect(aggregator.totals().sent).toBe(2);
    aggregator.add(snapshot(a, 0, 3, true));
    expect(aggregator.finished).toBe(true);
  });

  it('merges failure messages across workers, most frequent first', () => {
    const a = new WorkerStats();
    const b = new WorkerStats();
    a.recordError('negotiate', 'refused');
    b.recordError('negotiate', 'refused');
    b.recordError('closed', 'gone');
    b.recordError('negotiate', 'refused');
    const aggregator = new RunAggregator(2);
    aggregator.add(snapshot(a, 0, 1));
    aggregator.add(snapshot(b, 1, 1));
    expect(aggregator.errorSamples()).toEqual([
      { kind: 'negotiate', message: 'refused', count: 3 },
      { kind: 'closed', message: 'gone', count: 1 },
    ]);
    expect(aggregator.errorCounts()).toMatchObject({ negotiate: 3, closed: 1, send: 0 });
  });
  it('whole-run summaries follow every snapshot, though read many times between them', () => {
    const stats = new WorkerStats();
    stats.startRun(RUN_START_US);
    const aggregator = new RunAggregator(1);
    const at = (seconds: number) => RUN_START_US + seconds * 1_000_000;
    stats.recordSlot(at(0.1), 1);
    stats.recordReceive(at(0.1), at(0.1) + 2_000, 0);
    aggregator.add(snapshot(stats, 0, 1));
    const first = aggregator.latency();
    expect(aggregator.latency()).toEqual(first);
    expect(first.count).toBe(1);
    stats.recordSlot(at(1.1), 1);
    stats.recordReceive(at(1.1), at(1.1) + 50_000, 0);
    aggregator.add(snapshot(stats, 0, 2));
    const second = aggregator.latency();
    expect(second.count).toBe(2);
    expect(second.maxUs).toBeGreaterThan(first.maxUs!);
    expect(second.meanUs).toBeGreaterThan(first.meanUs!);
    expect(aggregator.uncorrectedLatency().count).toBe(2);
  });
});
