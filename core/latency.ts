/**
 * Latency histograms: HdrHistogram (hdr-histogram-js), in microseconds, with 3 significant
 * digits from 1 us to 10 min. Workers record into their own histograms and post them encoded
 * (HdrHistogram's compressed base64 form, the same as its standard log format); the page merges.
 */
import { build, decodeFromCompressedBase64, encodeIntoCompressedBase64, type Histogram } from 'hdr-histogram-js';

/** Highest latency kept apart, in us (10 min). Larger values are recorded as this value. */
export const HIGHEST_LATENCY_US = 600_000_000;
/** The guide's rule: 99% of messages must arrive in under 1 s. */
export const GUIDE_LATENCY_LIMIT_US = 1_000_000;

export type { Histogram };

export function createLatencyHistogram(): Histogram {
  return build({
    bitBucketSize: 32,
    lowestDiscernibleValue: 1,
    highestTrackableValue: HIGHEST_LATENCY_US,
    numberOfSignificantValueDigits: 3,
    // The JS build works everywhere (workers, Node, tests) without loading WebAssembly.
    useWebAssembly: false,
  });
}

/** Records one latency; values below 1 us (clock granularity) count as 1 us. */
export function recordLatencyUs(histogram: Histogram, latencyUs: number): void {
  histogram.recordValue(Math.min(HIGHEST_LATENCY_US, Math.max(1, Math.round(latencyUs))));
}

export function encodeHistogram(histogram: Histogram): string {
  return encodeIntoCompressedBase64(histogram);
}

export function decodeHistogram(encoded: string): Histogram {
  return decodeFromCompressedBase64(encoded, 32, false);
}

export interface LatencySummary {
  count: number;
  p50Us: number;
  p90Us: number;
  p99Us: number;
  p999Us: number;
  maxUs: number;
  meanUs: number;
}

export function summarizeLatency(histogram: Histogram): LatencySummary {
  const count = histogram.totalCount;
  if (count === 0) return { count, p50Us: 0, p90Us: 0, p99Us: 0, p999Us: 0, maxUs: 0, meanUs: 0 };
  return {
    count,
    p50Us: histogram.getValueAtPercentile(50),
    p90Us: histogram.getValueAtPercentile(90),
    p99Us: histogram.getValueAtPercentile(99),
    p999Us: histogram.getValueAtPercentile(99.9),
    maxUs: histogram.maxValue,
    meanUs: histogram.mean,
  };
}
