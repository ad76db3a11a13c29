import { describe, expect, it } from 'vitest';
import { createLatencyHistogram, encodeHistogram, recordLatencyUs } from '../../core/latency/latency.ts';
import { RecentLatency, recentLatency } from '../../core/latency/recent-latency.ts';

function second(second: number, latencyUs: number, count: number) {
  const h = createLatencyHistogram();
  for (let i = 0; i < count; i++) recordLatencyUs(h, latencyUs);
  return { second, latency: encodeHistogram(h) };
}

describe('recentLatency', () => {
  it('merges the last 10 seconds\' histograms: an old slow second no longer counts', () => {
    const seconds = [second(1, 900_000, 100), ...Array.from({ length: 10 }, (_, i) => second(i + 2, 5_000, 100))];
    const recent = recentLatency(seconds)!;
    expect(recent.count).toBe(1_000);
    expect(recent.p99Us).toBeGreaterThanOrEqual(4_990);
    expect(recent.p99Us).toBeLessThanOrEqual(5_010);
  });

  it('is a p99 over the messages, not a mean of per-second p99s', () => {
    // 9 quiet seconds and one with 2% of the messages at 800 ms: the merged p99 is 800 ms.
    const seconds = [...Array.from({ length: 9 }, (_, i) => second(i + 1, 2_000, 100)), second(10, 800_000, 20)];
    expect(recentLatency(seconds)!.p99Us).toBeGreaterThan(790_000);
  });

  it('is unknown (null), never 0, without messages', () => {
    expect(recentLatency([])).toBeNull();
    expect(recentLatency([second(1, 1, 0)])).toBeNull();
  });

  it('kept from second to second, gives what merging the window afresh gives', () => {
    const window = new RecentLatency();
    const seconds: ReturnType<typeof second>[] = [];
    expect(window.of(seconds)).toBeNull();
    for (let s = 1; s <= 25; s++) {
      seconds.push(second(s, s === 7 ? 900_000 : 1_000 + 37 * s, s % 5 === 0 ? 0 : 50 + s));
      expect(window.of(seconds)).toEqual(recentLatency(seconds));
    }
    expect(window.of(seconds)!.maxUs).toBeLessThan(900_000);
  });
});
