/** A whole run's latency distribution, from its per-second histograms merged, for a "nines" axis. */
import { createLatencyHistogram, decodeHistogram } from '../latency/index.ts';
import type { RunResult } from '../result/index.ts';

/** Percentiles on the curve: spaced for a log "nines" axis, so the tail gets the room. */
export const CURVE_PERCENTILES = [0, 25, 50, 75, 90, 95, 99, 99.5, 99.9, 99.95, 99.99, 100] as const;

/** Where a percentile sits on the "nines" axis: 0 -> 0, 90 -> 1, 99 -> 2, 99.9 -> 3; 100 is drawn at 5 (99.999). */
export function ninesPosition(percentile: number): number {
  return percentile >= 100 ? 5 : Math.min(5, -Math.log10(1 - percentile / 100));
}

export interface PercentileCurve {
  /** The run's messages in the curve (0: no curve). */
  count: number;
  /** Latency at each of CURVE_PERCENTILES, in ms; null when the run has no message. */
  latencyMs: (number | null)[];
}

/** The latency distribution of a whole run from its per-second histograms, merged. */
export function percentileCurve(result: RunResult): PercentileCurve {
  const merged = createLatencyHistogram();
  for (const second of result.histograms ?? []) merged.add(decodeHistogram(second.latency));
  const count = merged.totalCount;
  return {
    count,
    latencyMs: CURVE_PERCENTILES.map((p) => (count === 0 ? null : (p >= 100 ? merged.maxValue : merged.getValueAtPercentile(p)) / 1_000)),
  };
}
