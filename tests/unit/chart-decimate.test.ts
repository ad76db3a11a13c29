import { describe, expect, it } from 'vitest';
import { ChartColumns, type Columns } from '../../core/charts/columns.ts';
import { bucketSeconds, ChartDecimator, EXACT_TAIL_SECONDS, indexOfSecond } from '../../core/charts/decimate.ts';

interface Point {
  second: number;
  value: number | null;
  other: number;
}

/** A run's seconds with a saw-tooth, a few gaps and rare spikes: what a decimation could hide. */
function run(count: number): Point[] {
  return Array.from({ length: count }, (_, i) => ({
    second: i + 1,
    value: i % 97 === 13 ? null : i % 211 === 5 ? 5_000 + i : (i * 37) % 101,
    other: i % 389 === 7 ? -50 : 1_000 + (i % 7),
  }));
}

const picks = [(p: Point) => p.value, (p: Point) => p.other, (_p: Point, i: number) => (i > 10_000 ? null : 3)];
const rebuilt = (points: readonly Point[], key = '') => new ChartColumns(picks).update(points, key);

describe('chart columns', () => {
  it('appending one second at a time gives the same columns as building them from the whole run', () => {
    const points = run(1_500);
    const columns = new ChartColumns(picks);
    let last: Columns | null = null;
    for (let n = 0; n <= points.length; n += 1 + (n % 3)) last = columns.update(points.slice(0, n));
    last = columns.update(points);
    expect(last).toEqual(rebuilt(points));
  });

  it('extends the same arrays while the run only grows, and builds fresh ones when a second changes or the key does', () => {
    const points = run(100);
    const columns = new ChartColumns(picks);
    const first = columns.update(points.slice(0, 50));
    const grown = columns.update(points.slice(0, 60));
    expect(grown[0]).toBe(first[0]);
    expect(grown).not.toBe(first);
    const replaced = [...points.slice(0, 59), { ...points[59]!, value: 999 }];
    const changed = columns.update(replaced);
    expect(changed[0]).not.toBe(first[0]);
    expect(changed).toEqual(rebuilt(replaced));
    const rekeyed = columns.update(replaced, 'cut at 40');
    expect(rekeyed[1]).not.toBe(changed[1]);
  });
});

describe('chart decimation', () => {
  it('draws every second while there is at most one a pixel, then buckets at most two pixels wide', () => {
    expect(bucketSeconds(400, 400)).toBe(1);
    expect(bucketSeconds(401, 400)).toBe(2);
    expect(bucketSeconds(3_600, 400)).toBe(32);
    for (const [count, width] of [[801, 400], [3_600, 400], [36_000, 1_000], [5_000, 333]] as const) {
      const bucket = bucketSeconds(count, width);
      expect((count - EXACT_TAIL_SECONDS) / bucket).toBeLessThanOrEqual(width / 2);
      if (bucket > 2) expect((count - EXACT_TAIL_SECONDS) / (bucket / 2)).toBeGreaterThan(width / 2);
    }
  });

  it('keeps every bucket\'s lowest and highest value, in their order, and the last minute exact', () => {
    const columns = rebuilt(run(3_600));
    const drawn = new ChartDecimator().update(columns, 400);
    const bucket = bucketSeconds(3_600, 400);
    expect(drawn[0].length).toBeLessThanOrEqual(400 + EXACT_TAIL_SECONDS + bucket);
    for (let c = 1; c < columns.length; c++) {
      const all = (columns[c] as (number | null)[]).filter((v): v is number => v !== null);
      const shown = (drawn[c] as (number | null)[]).filter((v): v is number => v !== null);
      // No peak or dip hidden: the spikes to 5,000+ and the dips to -50 are all there.
      expect(Math.max(...shown)).toBe(Math.max(...all));
      expect(Math.min(...shown)).toBe(Math.min(...all));
      expect(shown.filter((v) => v >= 5_000)).toEqual(all.filter((v) => v >= 5_000));
    }
    // Each drawn point is a real second's value, on that bucket's first or last second.
    for (let i = 0; i + 1 < drawn[0].length && drawn[0][i + 1]! - drawn[0][i]! === bucket - 1; i += 2) {
      const from = indexOfSecond(columns[0], drawn[0][i]!);
      const values = columns[1]!.slice(from, from + bucket).filter((v) => v !== null);
      expect(values).toContain(drawn[1]![i]);
      expect(values).toContain(drawn[1]![i + 1]);
    }
    // The last minute, second by second.
    for (let c = 0; c < columns.length; c++) expect(drawn[c]!.slice(-EXACT_TAIL_SECONDS)).toEqual(columns[c]!.slice(-EXACT_TAIL_SECONDS));
    expect(drawn[0]).toEqual([...drawn[0]].sort((a, b) => a - b));
  });

  it('a bucket with no value at all stays a gap, never a 0', () => {
    // Values from 1 up, so a 0 could only come from a gap filled in.
    const points = run(2_000).map((p, i) => ({ ...p, value: i >= 100 && i < 300 ? null : p.value === null ? null : p.value + 1 }));
    const columns = rebuilt(points);
    const drawn = new ChartDecimator().update(columns, 300);
    const inGap = drawn[0].flatMap((second, i) => (second > 120 && second < 280 ? [drawn[1]![i]] : []));
    expect(inGap.length).toBeGreaterThan(0);
    expect(inGap.every((v) => v === null)).toBe(true);
    expect(drawn[1]).not.toContain(0);
  });

  it('growing a second at a time draws the same as decimating the whole run at once', () => {
    const points = run(2_500);
    const columns = new ChartColumns(picks);
    const decimator = new ChartDecimator();
    let drawn: Columns | null = null;
    for (let n = 1; n <= points.length; n += 1 + (n % 5)) drawn = decimator.update(columns.update(points.slice(0, n)), 350);
    drawn = decimator.update(columns.update(points), 350);
    expect(drawn).toEqual(new ChartDecimator().update(rebuilt(points), 350));
    // A narrower chart (resize) rebuilds at the new bucket size.
    expect(decimator.update(columns.update(points), 200)).toEqual(new ChartDecimator().update(rebuilt(points), 200));
  });

  it('says which seconds a drawn point stands for: a bucket\'s, or one second in the exact tail', () => {
    const columns = rebuilt(run(3_600));
    const decimator = new ChartDecimator();
    const drawn = decimator.update(columns, 400);
    const bucket = bucketSeconds(3_600, 400);
    expect(decimator.rowsAt(0, columns[0])).toEqual({ fromRow: 0, toRow: bucket - 1 });
    expect(decimator.rowsAt(3, columns[0])).toEqual({ fromRow: bucket, toRow: 2 * bucket - 1 });
    const last = drawn[0].length - 1;
    expect(decimator.rowsAt(last, columns[0])).toEqual({ fromRow: 3_599, toRow: 3_599 });
    // Every bucket point's value lies in its rows.
    for (let i = 0; i < drawn[0].length; i++) {
      const { fromRow, toRow } = decimator.rowsAt(i, columns[0])!;
      if (drawn[1]![i] !== null) expect(columns[1]!.slice(fromRow, toRow + 1)).toContain(drawn[1]![i]);
    }
    const short = new ChartDecimator();
    short.update(rebuilt(run(50)), 400);
    expect(short.rowsAt(7, rebuilt(run(50))[0])).toEqual({ fromRow: 7, toRow: 7 });
  });

  it('finds a drawn second in the full columns, for the legend', () => {
    expect(indexOfSecond([3, 4, 5, 9], 9)).toBe(3);
    expect(indexOfSecond([3, 4, 5, 9], 3)).toBe(0);
    expect(indexOfSecond([3, 4, 5, 9], 6)).toBe(-1);
    expect(indexOfSecond([], 1)).toBe(-1);
  });
});
