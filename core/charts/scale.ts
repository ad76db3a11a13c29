/**
 * Axis and legend arithmetic shared by the live charts (uPlot) and the report's SVG charts: round
 * ticks, whole-second time ticks, the seconds a rate chart leaves out, and when a small series
 * needs its own axis. Pure.
 */
import { formatCount } from '../format.ts';
import { trimNumber } from '../guide/index.ts';

/** Steps a time axis may take, in seconds: never 1.5 or 2.5 s. */
export const SECOND_STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1_800, 3_600] as const;

/** The 1, 2, 2.5 or 5 times a power of ten nearest above `rough`: a round tick step. */
export function niceStep(rough: number): number {
  if (!(rough > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(rough));
  for (const factor of [1, 2, 2.5, 5, 10]) if (factor * power >= rough * (1 - 1e-9)) return factor * power;
  return 10 * power;
}

/** Round ticks from 0 covering `max` in about `count` steps; the last tick is the axis end. */
export function roundTicks(max: number, count = 5): number[] {
  const step = niceStep((max > 0 ? max : 1) / count);
  const steps = Math.max(1, Math.ceil((max > 0 ? max : 1) / step - 1e-9));
  return Array.from({ length: steps + 1 }, (_, i) => roundTo(i * step, step));
}

/** Whole-second ticks from `min` to `max` in about `count` steps. */
export function secondTicks(min: number, max: number, count = 6): number[] {
  const span = Math.max(1, max - min);
  const step = SECOND_STEPS.find((s) => span / s <= count) ?? Math.ceil(span / count / 3_600) * 3_600;
  const first = Math.ceil(min / step) * step;
  const ticks: number[] = [];
  for (let t = first; t <= max + 1e-9; t += step) ticks.push(t);
  return ticks;
}

/** A value for a legend or an axis: few digits, thousands separated, "–" for no value. */
export function formatChartValue(value: number | null | undefined, unit = ''): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–';
  const abs = Math.abs(value);
  const text = abs >= 100 || value === Math.round(value) ? formatCount(value) : trimNumber(value, abs >= 10 ? 1 : 2);
  return unit ? `${text} ${unit}` : text;
}

/**
 * The index of the last second a rate chart shows. Once sending has ended (draining or done), the
 * last second with sends is partial and the drain seconds after it hold no sends at all: drawn,
 * every rate would plunge to 0 at the end. While sending, every closed second is whole.
 */
export function lastWholeRateIndex(sent: readonly number[], sendingEnded: boolean): number {
  if (!sendingEnded) return sent.length - 1;
  let last = sent.length - 1;
  while (last >= 0 && !(sent[last]! > 0)) last--;
  // The first second with sends is partial too; keep it when it is the only one.
  const first = sent.findIndex((n) => n > 0);
  return last > first ? last - 1 : last;
}

/** Values past `lastIndex` become gaps (null). */
export function cutAfter<T>(values: readonly (T | null)[], lastIndex: number): (T | null)[] {
  return values.map((v, i) => (i > lastIndex ? null : v));
}

/**
 * Whether a series is too small to read on the axis of the others: its peak under a tenth of
 * theirs (broadcast: 4 msg/s sent against 400 received would lie flat on 0).
 */
export function needsOwnAxis(series: readonly (number | null)[], others: readonly (readonly (number | null)[])[]): boolean {
  const peak = (values: readonly (number | null)[]) => values.reduce<number>((max, v) => (v !== null && Number.isFinite(v) && v > max ? v : max), 0);
  const own = peak(series);
  const rest = Math.max(0, ...others.map(peak));
  return own > 0 && rest > 0 && own * 10 < rest;
}

/** The last value that is a number, for a legend that shows the latest reading. */
export function latestValue(values: readonly (number | null | undefined)[]): number | null {
  for (let i = values.length - 1; i >= 0; i--) {
    const v = values[i];
    if (v !== null && v !== undefined && Number.isFinite(v)) return v;
  }
  return null;
}

function roundTo(value: number, step: number): number {
  const decimals = Math.max(0, -Math.floor(Math.log10(step)) + 1);
  return Number(value.toFixed(decimals));
}
