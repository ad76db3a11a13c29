/**
 * Per-second figures of several runs on one time axis, for one chart: each run on its own send
 * clock (0 is its first planned send, core/charts/time-axis.ts), the clock every other chart runs
 * on, so a comparison's 5 s is each run's fifth second of sending whatever its connecting took.
 */
import type { SecondPoint } from '../execution/index.ts';
import type { RunResult } from '../result/index.ts';
import { lastWholeRateIndex } from './scale.ts';
import { sendOffsetSec } from './time-axis.ts';

/** Per-second figures of several runs on one axis: seconds from each run's first planned send. */
export interface Overlay {
  seconds: number[];
  /** One array per run, aligned with `seconds`; null where the run has no such second or figure. */
  values: (number | null)[][];
}

/**
 * Lines up a per-second figure of several runs (e.g. p99, messages received) for one chart. A
 * point's second is moved onto its run's send clock and rounded to the whole second (at most half
 * a second off), so the runs' lines share their seconds instead of breaking at each other's. A run
 * kept without its send window stays on seconds since its start.
 */
export function overlay(runs: readonly RunResult[], pick: (point: SecondPoint) => number | null): Overlay {
  const clocked = runs.map((r) => {
    const offset = sendOffsetSec(r.sendWindow);
    return new Map(r.points.map((p) => [offset === null ? p.second : Math.round(p.second - offset), pick(p)]));
  });
  const seconds = [...new Set(clocked.flatMap((bySecond) => [...bySecond.keys()]))].sort((a, b) => a - b);
  const values = clocked.map((bySecond) => seconds.map((s) => bySecond.get(s) ?? null));
  return { seconds, values };
}

/** A second's p99 in ms; null when nothing arrived in it. */
export const p99Ms = (p: SecondPoint): number | null => (p.latency.count === 0 || p.latency.p99Us === null ? null : p.latency.p99Us / 1_000);

/** A run's points over its whole seconds of sending, as a run's rate charts draw them: the partial
 *  first and last seconds and the drain left out, so no line plunges to 0 at either end. */
export function wholeSecondsOfSending(result: RunResult): RunResult {
  const sent = result.points.map((p) => p.sent);
  const first = sent.findIndex((n) => n > 0);
  const last = lastWholeRateIndex(sent, true);
  const from = first >= 0 && last > first ? first + 1 : Math.max(0, first);
  return { ...result, points: first < 0 ? [] : result.points.slice(from, last + 1) };
}

/** Several overlays on the same seconds (all of theirs), so their charts share one x range and a
 *  synced cursor lands on the same second in each. */
export function onSameSeconds(overlays: readonly Overlay[]): Overlay[] {
  const seconds = [...new Set(overlays.flatMap((o) => o.seconds))].sort((a, b) => a - b);
  return overlays.map((o) => {
    const at = new Map(o.seconds.map((s, i) => [s, i]));
    return { seconds, values: o.values.map((run) => seconds.map((s) => (at.has(s) ? run[at.get(s)!]! : null))) };
  });
}
