/** Per-second figures of several runs lined up on one time axis, for one chart. */
import type { SecondPoint, RunResult } from '../run/index.ts';

/** Per-second figures of several runs on one axis: seconds since each run's start. */
export interface Overlay {
  seconds: number[];
  /** One array per run, aligned with `seconds`; null where the run has no such second or figure. */
  values: (number | null)[][];
}

/** Lines up a per-second figure of several runs (e.g. p99, messages received) for one chart. */
export function overlay(runs: readonly RunResult[], pick: (point: SecondPoint) => number | null): Overlay {
  const seconds = [...new Set(runs.flatMap((r) => r.points.map((p) => p.second)))].sort((a, b) => a - b);
  const values = runs.map((r) => {
    const bySecond = new Map(r.points.map((p) => [p.second, pick(p)]));
    return seconds.map((s) => bySecond.get(s) ?? null);
  });
  return { seconds, values };
}

/** A second's p99 in ms; null when nothing arrived in it. */
export const p99Ms = (p: SecondPoint): number | null => (p.latency.count === 0 || p.latency.p99Us === null ? null : p.latency.p99Us / 1_000);
