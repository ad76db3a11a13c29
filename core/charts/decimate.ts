/**
 * What a time chart draws of a long run: the seconds older than the last minute merged into
 * buckets at most two pixels wide, each bucket drawn as two points, its lowest and its highest
 * value of each line, in the order they came: about one point per pixel, however long the run. No peak or dip is hidden, the last minute is drawn
 * second by second, and a bucket is built once: each update adds the buckets that filled since,
 * so drawing costs the same at the first minute and the sixtieth. For drawing only: the run's
 * record, its exports and the legend read the full columns. Pure.
 */
import type { ChartValue, Columns } from './columns.ts';

/** The last seconds of a chart, always drawn one by one. */
export const EXACT_TAIL_SECONDS = 60;

/**
 * Seconds per bucket for `count` seconds on a chart `widthPx` wide: 1 (every second drawn) while
 * there is at most one second per pixel; otherwise the smallest power of two that makes every
 * bucket at most two pixels wide (its two points: one per pixel). Drawing cost is in the points
 * drawn (the canvas strokes every segment), so it stops growing once the run is a chart wide.
 * Powers of two change seldom as a run grows, and a bucket once built stays valid until they do.
 */
export function bucketSeconds(count: number, widthPx: number, exactTail = EXACT_TAIL_SECONDS): number {
  const width = Math.max(2, Math.floor(widthPx));
  if (count <= width) return 1;
  let bucket = 2;
  while ((count - exactTail) / bucket > width / 2) bucket *= 2;
  return bucket;
}

/**
 * Keeps one chart's drawn columns. `update` takes the full columns (core/charts/columns.ts) and
 * gives what to draw; while the same column arrays only grew and the bucket size held, it adds
 * only what is new.
 */
export class ChartDecimator {
  #source: readonly unknown[] = [];
  #sourceLength = 0;
  #bucket = 1;
  /** Whole buckets already in `#drawn`, two points each. */
  #buckets = 0;
  #drawn: Columns | null = null;

  constructor(private readonly exactTail = EXACT_TAIL_SECONDS) {}

  /**
   * The rows of the full columns behind a drawn point: one row for a second drawn as it is, the
   * whole bucket for a decimated point (its value is only that bucket's lowest or highest).
   */
  rowsAt(drawnIndex: number, seconds: readonly number[]): { fromRow: number; toRow: number } | null {
    if (this.#bucket > 1 && drawnIndex < 2 * this.#buckets) {
      const fromRow = Math.floor(drawnIndex / 2) * this.#bucket;
      return { fromRow, toRow: fromRow + this.#bucket - 1 };
    }
    const drawnSecond = this.#bucket > 1 ? this.#drawn?.[0][drawnIndex] : seconds[drawnIndex];
    const row = drawnSecond === undefined ? -1 : indexOfSecond(seconds, drawnSecond);
    return row < 0 ? null : { fromRow: row, toRow: row };
  }

  update(columns: Columns, widthPx: number): Columns {
    const count = columns[0].length;
    const bucket = bucketSeconds(count, widthPx, this.exactTail);
    const grown = this.#drawn !== null && bucket === this.#bucket && count >= this.#sourceLength && sameArrays(columns, this.#source);
    this.#source = [...columns];
    this.#sourceLength = count;
    this.#bucket = bucket;
    if (bucket === 1) {
      this.#drawn = null;
      return [...columns] as Columns;
    }
    if (!grown) {
      this.#drawn = columns.map(() => []) as unknown as Columns;
      this.#buckets = 0;
    }
    const drawn = this.#drawn!;
    const buckets = Math.floor(Math.max(0, count - this.exactTail) / bucket);
    // Drop the seconds drawn one by one last time, then add the buckets that filled since.
    for (const column of drawn) column.length = 2 * this.#buckets;
    for (let b = this.#buckets; b < buckets; b++) addBucket(columns, drawn, b * bucket, bucket);
    this.#buckets = buckets;
    for (let i = buckets * bucket; i < count; i++) for (let c = 0; c < columns.length; c++) drawn[c]!.push(columns[c]![i]!);
    return [...drawn] as Columns;
  }
}

/** Two points for the seconds [from, from + size): first and last second; each line's extremes in their order. */
function addBucket(columns: Columns, drawn: Columns, from: number, size: number): void {
  const to = from + size - 1;
  drawn[0].push(columns[0][from]!, columns[0][to]!);
  for (let c = 1; c < columns.length; c++) {
    const values = columns[c] as ChartValue[];
    let low = -1;
    let high = -1;
    for (let i = from; i <= to; i++) {
      const v = values[i];
      if (v === null || v === undefined) continue;
      if (low < 0 || v < values[low]!) low = i;
      if (high < 0 || v > values[high]!) high = i;
    }
    const out = drawn[c] as ChartValue[];
    if (low < 0) out.push(null, null);
    else if (low <= high) out.push(values[low]!, values[high]!);
    else out.push(values[high]!, values[low]!);
  }
}

function sameArrays(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((column, i) => column === b[i]);
}

/** The index of `second` in ascending `seconds`, or -1: the full columns' row of a drawn point. */
export function indexOfSecond(seconds: readonly number[], second: number): number {
  let lo = 0;
  let hi = seconds.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const s = seconds[mid]!;
    if (s === second) return mid;
    if (s < second) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}
