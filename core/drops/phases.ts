/**
 * Latency before, during and after a drop, from a run's per-second histograms: before is every
 * second before the first connection was lost, during runs from then to the last second a
 * connection came back, after is the rest. Seconds are those the workers reported in (receive
 * time), as on the latency chart. Pure.
 */
import { createLatencyHistogram, decodeHistogram, summarizeLatency, type EncodedSecond, type LatencySummary } from '../latency/index.ts';

/** What the phases read of a run's per-second point (core/execution/aggregator.ts SecondPoint). */
export interface DropSecond {
  second: number;
  /** Connections lost and back in this second. */
  dropped: number;
  reconnects: number;
}

export interface DropPhases {
  /** Seconds [from, to] of the drop and recovery. */
  fromSecond: number;
  toSecond: number;
  before: LatencySummary;
  during: LatencySummary;
  after: LatencySummary;
}

/** Null when no connection was lost in the per-second points. */
export function dropPhases(points: readonly DropSecond[], histograms: readonly EncodedSecond[]): DropPhases | null {
  const fromSecond = points.find((p) => p.dropped > 0)?.second;
  if (fromSecond === undefined) return null;
  const lastBack = points.filter((p) => p.reconnects > 0).at(-1)?.second ?? Infinity;
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
