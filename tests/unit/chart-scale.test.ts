import { describe, expect, it } from 'vitest';
import { cutAfter, formatChartValue, lastWholeRateIndex, latestValue, needsOwnAxis, niceStep, roundTicks, secondTicks } from '../../core/charts/scale.ts';
import { lineChartSvg } from '../../core/charts/svg-chart.ts';

describe('chart scales', () => {
  it('ticks y axes on round steps that end just above the data (224 ends at 250, not 500)', () => {
    expect(roundTicks(224)).toEqual([0, 50, 100, 150, 200, 250]);
    expect(roundTicks(0.7)).toEqual([0, 0.2, 0.4, 0.6, 0.8]);
    expect(roundTicks(0)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect([0.3, 3, 7, 40, 130].map(niceStep)).toEqual([0.5, 5, 10, 50, 200]);
  });

  it('ticks time on whole seconds, never 1.5 or 3.25 s', () => {
    expect(secondTicks(0, 13)).toEqual([0, 5, 10]);
    expect(secondTicks(1, 4)).toEqual([1, 2, 3, 4]);
    expect(secondTicks(0, 600)).toEqual([0, 120, 240, 360, 480, 600]);
    for (const t of secondTicks(0, 37)) expect(Number.isInteger(t)).toBe(true);
  });

  it('leaves out the partial last second of sending and the drain after it, once sending has ended', () => {
    const sent = [0, 50, 100, 100, 100, 40, 0, 0];
    expect(lastWholeRateIndex(sent, false)).toBe(7);
    expect(lastWholeRateIndex(sent, true)).toBe(4);
    expect(cutAfter(sent, 4)).toEqual([0, 50, 100, 100, 100, null, null, null]);
    // One second of sends only: keep it, there is nothing else to show.
    expect(lastWholeRateIndex([0, 30, 0], true)).toBe(1);
    expect(lastWholeRateIndex([], true)).toBe(-1);
  });

  it('gives a series its own axis when its peak is under a tenth of the others (broadcast: 4 sent, 400 received)', () => {
    expect(needsOwnAxis([4, 4, null], [[400, 400]])).toBe(true);
    expect(needsOwnAxis([400, 400], [[4, 4]])).toBe(false);
    expect(needsOwnAxis([100], [[160]])).toBe(false);
    expect(needsOwnAxis([null, null], [[160]])).toBe(false);
  });

  it('formats legend values with their unit, and unknown as a dash, never 0', () => {
    expect(formatChartValue(411.914, 'KBps')).toBe('412 KBps');
    expect(formatChartValue(24.44, 'ms')).toBe('24.4 ms');
    expect(formatChartValue(2.333, 'ms')).toBe('2.33 ms');
    expect(formatChartValue(1_500)).toBe('1,500');
    expect(formatChartValue(null, 'ms')).toBe('–');
    expect(latestValue([1, 2, null])).toBe(2);
    expect(latestValue([null])).toBeNull();
  });
});

describe('the report\'s SVG charts', () => {
  it('tick whole seconds and round values, and flow legends so long labels never overprint', () => {
    const xs = Array.from({ length: 14 }, (_, i) => i);
    const labels = ['Echo · WebSockets + JSON · 200 connections', 'Echo · Long Polling + MessagePack · 200 connections', 'Echo · Server-Sent Events + JSON · 200 connections'];
    const svg = lineChartSvg({ title: 't', xLabel: 's', yLabel: 'msg/s', xs, series: labels.map((label, i) => ({ label, color: '#000', values: xs.map(() => 100 + i * 62) })) });
    // Axis text at the page's 12 px, never smaller.
    expect(svg).not.toMatch(/font-size="(\d|1[01])"/);
    const tickLabels = [...svg.matchAll(/<text [^>]*font-size="12">([^<]*)<\/text>/g)].map((m) => m[1]);
    expect(tickLabels).toContain('250');
    expect(tickLabels).not.toContain('3.25');
    expect(tickLabels).toEqual(expect.arrayContaining(['0', '5', '10']));
    // Each legend entry sits on its own stretch of a row: no two on one row closer than their text.
    const entries = [...svg.matchAll(/<rect x="([\d.]+)" y="([\d.]+)"/g)].map((m) => ({ x: Number(m[1]), y: Number(m[2]) }));
    expect(entries).toHaveLength(3);
    for (let i = 1; i < entries.length; i++) {
      const previous = entries[i - 1]!;
      if (entries[i]!.y === previous.y) expect(entries[i]!.x - previous.x).toBeGreaterThanOrEqual(labels[i - 1]!.length * 6);
    }
    expect(new Set(entries.map((e) => e.y)).size).toBeGreaterThan(1);
  });

  it('tick seconds on the send clock (between whole ones) on round steps, never 1.8 s', () => {
    // A run whose first planned send came 0.4 s into its first second: -0.4, 0.6, … 8.6 s.
    const xs = Array.from({ length: 10 }, (_, i) => i - 0.4);
    const svg = lineChartSvg({ title: 't', xLabel: 's from the first planned send', yLabel: 'ms', xs, series: [{ label: 'p99', color: '#000', values: xs.map(() => 5) }] });
    const xTickLabels = [...svg.matchAll(/<text [^>]*y="(\d+)" text-anchor="middle" font-size="12">([^<]*)<\/text>/g)].map((m) => m[2]);
    expect(xTickLabels).toEqual(['0', '2', '4', '6', '8']);
  });
});
