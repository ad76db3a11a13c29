/**
 * The p99 interval a comparison ranks by: its seconds drawn again (core/stats/resample.ts), read
 * from the per-second HDR histograms a run keeps (core/compare/p99-evidence.ts).
 */
import { describe, expect, it } from 'vitest';
import { countAbove, percentileOf, rankOf, resampledInterval, seededRandom, type CountedValues } from '../../core/stats/index.ts';
import { MIN_RECEPTIONS_TO_RANK, p99Evidence, evidenceLine, secondsToRank } from '../../core/compare/p99-evidence.ts';
import { bucketValues, createLatencyHistogram, recordLatencyUs } from '../../core/latency/latency.ts';
import { finishedRun } from '../support/finished-run.ts';

/** One second of latencies, as a run's histogram holds it. */
function second(latenciesUs: readonly number[]): CountedValues {
  const histogram = createLatencyHistogram();
  for (const us of latenciesUs) recordLatencyUs(histogram, us);
  return bucketValues(histogram);
}

describe('the resampled p99 interval', () => {
  it('counts what lies above a percentile as HdrHistogram ranks it: with 20 messages p99 is the slowest', () => {
    expect(rankOf(99, 20)).toBe(20);
    expect(countAbove(99, 20)).toBe(0);
    expect(countAbove(99, 100)).toBe(1);
    expect(countAbove(99, 500)).toBe(5);
    expect(MIN_RECEPTIONS_TO_RANK).toBe(500);
  });

  it('reads the same percentile as the histogram of every second merged', () => {
    const random = seededRandom(7);
    const seconds = Array.from({ length: 12 }, () => Array.from({ length: 50 }, () => 1_000 + Math.floor(random() * 50_000)));
    const merged = createLatencyHistogram();
    for (const us of seconds.flat()) recordLatencyUs(merged, us);
    expect(percentileOf(seconds.map(second), 99)).toBe(merged.getValueAtPercentile(99));
    expect(percentileOf(seconds.map(second), 50)).toBe(merged.getValueAtPercentile(50));
    expect(percentileOf([], 99)).toBeNull();
  });

  it('has no width when every second is alike or there is one second, and holds the p99 when they differ', () => {
    const alike = Array.from({ length: 10 }, () => second([2_000, 2_000, 3_000]));
    const flat = resampledInterval(alike, 99)!;
    expect(flat.lowUs).toBe(flat.highUs);
    const one = resampledInterval([second([1_000, 5_000, 90_000])], 99)!;
    expect(one.lowUs).toBe(one.highUs);
    // Nine calm seconds and one with a 200 ms pause: the interval spans both stories.
    const calm = Array.from({ length: 9 }, () => second(Array.from({ length: 100 }, (_, i) => 2_000 + i * 10)));
    const paused = second(Array.from({ length: 100 }, () => 200_000));
    const spread = resampledInterval([...calm, paused], 99)!;
    const p99 = percentileOf([...calm, paused], 99)!;
    expect(spread.lowUs).toBeLessThan(5_000);
    expect(spread.highUs).toBeGreaterThan(150_000);
    expect(spread.lowUs).toBeLessThanOrEqual(p99);
    expect(spread.highUs).toBeGreaterThanOrEqual(p99);
    expect(spread).toMatchObject({ confidence: 0.95, resamples: 1_000 });
    expect(resampledInterval([], 99)).toBeNull();
  });

  it('reads the same twice: the generator is seeded', () => {
    const random = seededRandom(3);
    const seconds = Array.from({ length: 20 }, () => second(Array.from({ length: 30 }, () => 1_000 + Math.floor(random() * 80_000))));
    expect(resampledInterval(seconds, 99)).toEqual(resampledInterval(seconds, 99));
    expect(resampledInterval(seconds, 99, { seed: 2 })).not.toEqual(resampledInterval(seconds, 99, { seed: 1, resamples: 10 }));
  });

  it("gives a run's evidence from its kept histograms: messages, those slower than p99, and the seconds it needs", async () => {
    // 4 connections, one message a second each, for 5 s: 20 messages.
    const few = await finishedRun({ sendIntervalMs: 1_000, durationSec: 5 }, { deliveryDelayMs: 20 });
    const evidence = p99Evidence(few);
    expect(evidence).toMatchObject({ receptions: 20, slowerThanP99: 0, enough: false, seconds: few.histograms.length });
    expect(evidence.interval!.lowUs).toBeLessThanOrEqual(evidence.p99Us!);
    expect(evidence.interval!.highUs).toBeGreaterThanOrEqual(evidence.p99Us!);
    // 500 messages at 4 a second: 125 s.
    expect(secondsToRank(few)).toBe(125);
    expect(evidenceLine('WebSockets + JSON', evidence)).toMatch(/^WebSockets \+ JSON: p99 20\.\d ms, 95%: 20\.\d ms–20\.\d ms from 1,000 draws of its \d seconds; 20 messages, none slower than p99: it is the slowest message \(too few to rank: 500 needed\)\.$/);
    const many = await finishedRun({ connections: 20, sendIntervalMs: 100, durationSec: 3 }, { deliveryDelayMs: 20 });
    expect(p99Evidence(many)).toMatchObject({ receptions: 600, slowerThanP99: 6, enough: true });
  });
});
