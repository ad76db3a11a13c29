/**
 * Latency before, during and after a drop, from a run's per-second histograms: before is every
 * second before the first connection was lost, during runs from then to the last second a
 * connection came back, after is the rest. Seconds are those the workers reported in (receive
 * time), as on the latency chart. Pure.
 */
import type { EncodedSecond } from './histogram-log.ts';
import { createLatencyHistogram, decodeHistogram, summarizeLatency, type LatencySummary } from './latency.ts';
import type { SecondPoint } from './run-aggregator.ts';

export interface DropPhases {
  /** Seconds [from, to] of the drop and recovery. */
  fromSecond: number;
  toSecond: number;
  before: LatencySummary;
  during: LatencySummary;
  after: LatencySummary;
}

/** Null when no connection was lost in the per-second points (or they predate drop counting). */
export function dropPhases(points: readonly Pick<SecondPoint, 'second' | 'dropped' | 'reconnects'>[], histograms: readonly EncodedSecond[]): DropPhases | null {
  const fromSecond = points.find((p) => (p.dropped ?? 0) > 0)?.second;
  if (fromSecond === undefined) return null;
  const lastBack = points.filter((p) => (p.reconnects ?? 0) > 0).at(-1)?.second ?? Infinity;
  const toSecond = Math.max(fromSecond, lastBack === Infinity ? (points.at(-1)?.second ?? fromSecond) : lastBack);
  const phases = { before: createLatencyHistogram(), during: createLatencyHistogram(), after: createLatencyHistogram() };
  for (const { second, latency } of histograms) {
    const phase = second < fromSecond ? phases.before : second <= toSecond ? phases.during : phases.after;
    phase.add(decodeHistogram(latency));
  }
  return {
    fromSecond,
    toSecond,
    before: summarizeLatency(phases.before),
    during: summarizeLatency(phases.during),
    after: summarizeLatency(phases.after),
  };
}
