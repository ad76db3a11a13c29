/**
 * Encoded interval histograms: an empty one is encoded once per thread and skipped when merged,
 * a non-empty one round-trips with its counts.
 */
import { describe, expect, it } from 'vitest';
import { addEncoded, createLatencyHistogram, decodeHistogram, encodeHistogram, recordLatencyUs, summarizeLatency } from '../../core/latency.ts';

describe('encoded latency histograms', () => {
  it('encodes every empty histogram (fresh or reset) the same way, and it decodes to an empty one', () => {
    const used = createLatencyHistogram();
    recordLatencyUs(used, 1_234);
    used.reset();
    const empty = encodeHistogram(createLatencyHistogram());
    expect(encodeHistogram(used)).toBe(empty);
    expect(decodeHistogram(empty).totalCount).toBe(0);
  });

  it('merges a non-empty encoding and skips an empty one without changing the total', () => {
    const worker = createLatencyHistogram();
    for (const us of [1_000, 2_000, 3_000]) recordLatencyUs(worker, us);
    const run = createLatencyHistogram();
    const added = addEncoded(run, encodeHistogram(worker));
    expect(added?.totalCount).toBe(3);
    expect(addEncoded(run, encodeHistogram(createLatencyHistogram()))).toBeNull();
    expect(summarizeLatency(run)).toMatchObject({ count: 3, maxUs: 3_001 });
  });
});
