/**
 * Latency over the run's last few closed seconds, from their merged HdrHistograms: the "p99 of the
 * last 10 s" a person watching the run sees move, beside the whole run's p99 that the verdict
 * uses. Merged, not averaged: a mean of per-second p99s is not a p99. Pure.
 */
import type { EncodedSecond } from './histogram-log.ts';
import { createLatencyHistogram, decodeHistogram, summarizeLatency, type Histogram, type LatencySummary } from './latency.ts';

/** Seconds merged. Default 10. */
export const RECENT_LATENCY_WINDOW_SEC = 10;

/** The merged latency of the last `windowSec` closed seconds; null when none received a message. */
export function recentLatency(seconds: readonly EncodedSecond[], windowSec = RECENT_LATENCY_WINDOW_SEC): LatencySummary | null {
  if (seconds.length === 0) return null;
  const lastSecond = Math.max(...seconds.map((s) => s.second));
  const merged = createLatencyHistogram();
  for (const s of seconds) if (s.second > lastSecond - windowSec) merged.add(decodeHistogram(s.latency));
  const summary = summarizeLatency(merged);
  merged.destroy();
  return summary.count === 0 ? null : summary;
}

/**
 * recentLatency for a run that grows one closed second at a time: the same figures, but each
 * second is decoded once, added to the merged window when it enters it and subtracted when it
 * leaves (two walks over the counts a second, not a reset and ten adds). Counts are integers, so
 * the window is exactly what merging it afresh gives (a unit test checks). The live page asks
 * once per closed second, on its main thread, beside the run's workers.
 */
export class RecentLatency {
  /** The seconds in the merged window, decoded. */
  readonly #decoded = new Map<EncodedSecond, Histogram>();
  readonly #merged = createLatencyHistogram();

  constructor(readonly windowSec = RECENT_LATENCY_WINDOW_SEC) {}

  of(seconds: readonly EncodedSecond[]): LatencySummary | null {
    if (seconds.length === 0) return null;
    let lastSecond = -Infinity;
    for (const s of seconds) lastSecond = Math.max(lastSecond, s.second);
    const kept = new Set<EncodedSecond>();
    for (const s of seconds) {
      if (s.second <= lastSecond - this.windowSec) continue;
      kept.add(s);
      if (this.#decoded.has(s)) continue;
      const histogram = decodeHistogram(s.latency);
      this.#decoded.set(s, histogram);
      this.#merged.add(histogram);
    }
    for (const [s, histogram] of [...this.#decoded]) {
      if (kept.has(s)) continue;
      this.#merged.subtract(histogram);
      this.#decoded.delete(s);
    }
    const summary = summarizeLatency(this.#merged);
    return summary.count === 0 ? null : summary;
  }
}
