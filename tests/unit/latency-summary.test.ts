import { describe, expect, it } from 'vitest';
import { countBetweenUs, createLatencyHistogram, decodeHistogram, encodeHistogram, recordLatencyUs, summarizeLatency, HIGHEST_LATENCY_US } from '../../core/latency/latency.ts';

/** A small deterministic generator, so every run records the same values. */
function values(seed: number, n: number, spreadUs: number): number[] {
  let x = seed;
  return Array.from({ length: n }, () => {
    x = (x * 1_103_515_245 + 12_345) % 2 ** 31;
    return 1 + (x / 2 ** 31) ** 3 * spreadUs;
  });
}

describe('summarizeLatency', () => {
  it('gives the same mean and percentiles as hdr-histogram-js itself', () => {
    const cases = [[7], values(1, 10_000, 5_000), values(2, 50_000, 2_000_000), values(3, 3, HIGHEST_LATENCY_US * 2), [1, 1, 1, 900_000, 600_000_000]];
    for (const recorded of cases) {
      const h = createLatencyHistogram();
      for (const v of recorded) recordLatencyUs(h, v);
      const s = summarizeLatency(h);
      expect(s.meanUs).toBe(h.mean);
      expect(s).toEqual({ count: h.totalCount, p50Us: h.getValueAtPercentile(50), p90Us: h.getValueAtPercentile(90), p99Us: h.getValueAtPercentile(99), p999Us: h.getValueAtPercentile(99.9), maxUs: h.maxValue, meanUs: h.mean });
    }
  });

  it('gives the same mean for a merged histogram decoded from the workers\' form', () => {
    const into = createLatencyHistogram();
    for (const seed of [4, 5, 6]) {
      const worker = createLatencyHistogram();
      for (const v of values(seed, 5_000, 80_000)) recordLatencyUs(worker, v);
      into.add(decodeHistogram(encodeHistogram(worker)));
    }
    expect(summarizeLatency(into).meanUs).toBe(into.mean);
    expect(summarizeLatency(into).meanUs).toBeGreaterThan(0);
  });

  it('reads an empty histogram as no messages: every figure unknown (null), never 0', () => {
    expect(summarizeLatency(createLatencyHistogram())).toEqual({ count: 0, p50Us: null, p90Us: null, p99Us: null, p999Us: null, maxUs: null, meanUs: null });
  });
});

describe('countBetweenUs', () => {
  it('counts the values in a range, at most one bucket\'s width (0.1%) beyond its edges', () => {
    const h = createLatencyHistogram();
    for (const us of [5_000, 990_000, 999_000, 1_000_000, 1_001_000, 1_010_000, 2_000_000]) recordLatencyUs(h, us);
    expect(countBetweenUs(h, 995_000, 1_005_000)).toBe(3);
    expect(countBetweenUs(h, 1_000_000, 1_000_000)).toBe(1);
    expect(countBetweenUs(h, 0, 10_000_000)).toBe(7);
    expect(countBetweenUs(h, 3_000_000, 4_000_000)).toBe(0);
    expect(countBetweenUs(createLatencyHistogram(), 0, 10)).toBe(0);
  });
});
