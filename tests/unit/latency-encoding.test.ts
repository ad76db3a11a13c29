/**
 * Histograms as workers post them (by bucket, or compressed base64 from agents of earlier
 * versions) and as seconds are kept (compressed base64): an empty one is skipped when merged, a
 * non-empty one adds the same counts, total and maximum as decoding its HdrHistogram encoding.
 */
import { describe, expect, it } from 'vitest';
import { addPosted, createLatencyHistogram, decodeHistogram, encodeHistogram, postHistogram, recordLatencyUs, summarizeLatency, type Histogram } from '../../core/latency/latency.ts';

/** A seeded spread of latencies from 1 us to past the histogram's top (clamped), with repeats. */
function recorded(seed: number, values: number): Histogram {
  const histogram = createLatencyHistogram();
  let x = seed;
  for (let i = 0; i < values; i++) {
    x = (x * 1_103_515_245 + 12_345) % 2 ** 31;
    const us = (x % 7 === 0) ? x % 1_000 : Math.exp((x / 2 ** 31) * Math.log(2e9));
    recordLatencyUs(histogram, us);
  }
  return histogram;
}

describe('encoded latency histograms', () => {
  it('encodes every empty histogram (fresh or reset) the same way, and it decodes to an empty one', () => {
    const used = createLatencyHistogram();
    recordLatencyUs(used, 1_234);
    used.reset();
    const empty = encodeHistogram(createLatencyHistogram());
    expect(encodeHistogram(used)).toBe(empty);
    expect(decodeHistogram(empty).totalCount).toBe(0);
  });
});

describe('posted latency histograms', () => {
  it('posts an empty histogram (fresh or reset) as no buckets, and merging it changes nothing', () => {
    const used = createLatencyHistogram();
    recordLatencyUs(used, 1_234);
    used.reset();
    expect(postHistogram(used)).toEqual([]);
    const run = createLatencyHistogram();
    expect(addPosted(postHistogram(used), run)).toBe(false);
    expect(addPosted(encodeHistogram(createLatencyHistogram()), run)).toBe(false);
    expect(run.totalCount).toBe(0);
  });

  it('posts only the buckets that hold values, with their counts', () => {
    const worker = createLatencyHistogram();
    for (const us of [1_000, 1_000, 2_000, 3_000]) recordLatencyUs(worker, us);
    const posted = postHistogram(worker);
    expect(posted).toHaveLength(6);
    expect([posted[1], posted[3], posted[5]]).toEqual([2, 1, 1]);
  });

  it('adds to every target the same histogram as decoding its compressed encoding would', () => {
    for (const [seed, values] of [[1, 1], [7, 50], [42, 5_000], [99, 20_000]] as const) {
      const worker = recorded(seed, values);
      const byDecoding = [createLatencyHistogram(), createLatencyHistogram()];
      const byBuckets = [createLatencyHistogram(), createLatencyHistogram()];
      // Targets that already hold values, as a run's histogram does after its first second.
      for (const h of [...byDecoding, ...byBuckets]) recordLatencyUs(h, 750);
      expect(addPosted(encodeHistogram(worker), ...byDecoding)).toBe(true);
      expect(addPosted(postHistogram(worker), ...byBuckets)).toBe(true);
      for (let i = 0; i < 2; i++) {
        expect(summarizeLatency(byBuckets[i]!)).toEqual(summarizeLatency(byDecoding[i]!));
        expect(byBuckets[i]!.minNonZeroValue).toBe(byDecoding[i]!.minNonZeroValue);
        expect(encodeHistogram(byBuckets[i]!)).toBe(encodeHistogram(byDecoding[i]!));
      }
    }
  });

  it('survives the structured copy and the JSON that carry snapshots from workers and agents', () => {
    const worker = recorded(5, 1_000);
    const carried = createLatencyHistogram();
    const decoded = createLatencyHistogram();
    addPosted(JSON.parse(JSON.stringify(structuredClone(postHistogram(worker)))), carried);
    addPosted(encodeHistogram(worker), decoded);
    expect(summarizeLatency(carried)).toEqual(summarizeLatency(decoded));
    expect(carried.totalCount).toBe(1_000);
  });
});
