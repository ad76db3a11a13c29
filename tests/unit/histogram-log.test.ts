import { describe, expect, it } from 'vitest';
import { HistogramLogReader } from 'hdr-histogram-js';
import { histogramLog, logTag, taggedHistogramLog } from '../../core/latency/histogram-log.ts';
import { createLatencyHistogram, encodeHistogram, recordLatencyUs } from '../../core/latency/latency.ts';

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

describe('taggedHistogramLog', () => {
  it('puts several runs in one log, each interval tagged with its run, on the earliest run\'s time base', () => {
    const second = (n: number, us: number) => {
      const histogram = createLatencyHistogram();
      for (let i = 0; i < n; i++) recordLatencyUs(histogram, us);
      return histogram;
    };
    const start = Date.UTC(2026, 10, 22, 12, 0, 0);
    const text = taggedHistogramLog(
      [
        { tag: 'WebSockets + JSON', runStartMs: start, seconds: [{ second: 1, latency: encodeHistogram(second(10, 1_000)) }, { second: 2, latency: encodeHistogram(second(20, 1_000)) }] },
        { tag: 'Long Polling, MessagePack', runStartMs: start + 30_000, seconds: [{ second: 1, latency: encodeHistogram(second(5, 40_000)) }] },
      ],
      'comparison',
    );
    expect(text).toMatch(/^Tag=WebSockets_\+_JSON,0\.000,1\.000,/m);
    expect(text).toMatch(/^Tag=Long_Polling_MessagePack,30\.000,1\.000,/m);
    const reader = new HistogramLogReader(text);
    const seen: [string | undefined, number][] = [];
    for (let h = reader.nextIntervalHistogram(); h !== null; h = reader.nextIntervalHistogram()) seen.push([h.tag, h.totalCount]);
    expect(seen).toEqual([['WebSockets_+_JSON', 10], ['WebSockets_+_JSON', 20], ['Long_Polling_MessagePack', 5]]);
    expect(logTag('  ')).toBe('run');
  });
});
