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
 * second is decoded once and kept while it is in the window, and the merge reuses one histogram.
 * The live page asks once per closed second; decoding the whole window each time was most of it.
 */
export class RecentLatency {
  readonly #decoded = new Map<EncodedSecond, Histogram>();
  readonly #merged = createLatencyHistogram();

  constructor(readonly windowSec = RECENT_LATENCY_WINDOW_SEC) {}

  of(seconds: readonly EncodedSecond[]): LatencySummary | null {
    if (seconds.length === 0) return null;
    let lastSecond = -Infinity;
    for (const s of seconds) lastSecond = Math.max(lastSecond, s.second);
    this.#merged.reset();
    const kept = new Set<EncodedSecond>();
    for (const s of seconds) {
      if (s.second <= lastSecond - this.windowSec) continue;
      let histogram = this.#decoded.get(s);
      if (!histogram) {
        histogram = decodeHistogram(s.latency);
        this.#decoded.set(s, histogram);
      }
      kept.add(s);
      this.#merged.add(histogram);
    }
    for (const s of [...this.#decoded.keys()]) if (!kept.has(s)) this.#decoded.delete(s);
    const summary = summarizeLatency(this.#merged);
    return summary.count === 0 ? null : summary;
  }
}
