import { describe, expect, it } from 'vitest';
import { HistogramLogReader } from 'hdr-histogram-js';
import { histogramLog } from '../../core/histogram-log.ts';
import { createLatencyHistogram, encodeHistogram, recordLatencyUs } from '../../core/latency.ts';

describe('histogramLog', () => {
  it('writes HdrHistogram\'s interval log, which its own reader reads back second by second', () => {
    const seconds = [1, 2, 3].map((second) => {
      const histogram = createLatencyHistogram();
      for (let i = 1; i <= second * 100; i++) recordLatencyUs(histogram, i * 10 * second);
      return { second, latency: encodeHistogram(histogram) };
    });
    const text = histogramLog(seconds, Date.UTC(2026, 10, 22, 12, 0, 0), 'test run');
    expect(text).toMatch(/^#test run\n#\[Histogram log format version 1\.3\]\n#\[StartTime: 1795348800\.000/);
    const reader = new HistogramLogReader(text);
    const counts: number[] = [];
    const maxima: number[] = [];
    for (let h = reader.nextIntervalHistogram(); h !== null; h = reader.nextIntervalHistogram()) {
      counts.push(h.totalCount);
      maxima.push(h.maxValue);
    }
    expect(counts).toEqual([100, 200, 300]);
    // The largest value of second 3 is 300 x 10 x 3 us = 9 ms, within 3 significant digits.
    expect(Math.abs(maxima[2]! - 9_000)).toBeLessThanOrEqual(9);
  });
});
