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

/** The encoding of an empty histogram, made once per thread: most intervals of the connect and
 *  reconnect histograms are empty, and each encoding runs a deflate that allocates its buffers. */
let emptyEncoded: string | null = null;

export function encodeHistogram(histogram: Histogram): string {
  if (histogram.totalCount === 0) return (emptyEncoded ??= encodeIntoCompressedBase64(createLatencyHistogram()));
  return encodeIntoCompressedBase64(histogram);
}

export function decodeHistogram(encoded: string): Histogram {
  return decodeFromCompressedBase64(encoded, 32, false);
}

/** Adds an encoded histogram to `into`; an empty one (as encodeHistogram writes it) is skipped
 *  without being decoded. Returns what was added, or null when it was empty. */
export function addEncoded(into: Histogram, encoded: string): Histogram | null {
  if (encoded === (emptyEncoded ??= encodeIntoCompressedBase64(createLatencyHistogram()))) return null;
  const decoded = decodeHistogram(encoded);
  into.add(decoded);
  return decoded;
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
    meanUs: meanOf(histogram),
  };
}

/** The bucket-level calls of hdr-histogram-js's JS histograms (every histogram here is one). */
interface BucketAccess {
  countsArrayLength: number;
  getCountAtIndex(index: number): number;
  valueFromIndex(index: number): number;
  medianEquivalentValue(value: number): number;
}

function hasBucketAccess(histogram: Histogram): histogram is Histogram & BucketAccess {
  const h = histogram as Partial<BucketAccess>;
  return typeof h.getCountAtIndex === 'function' && typeof h.valueFromIndex === 'function' && typeof h.medianEquivalentValue === 'function' && typeof h.countsArrayLength === 'number';
}

/**
 * The histogram's mean, the same number as hdr-histogram-js's `mean` (each bucket's median value
 * times its count, summed in bucket order, over the total count), in one loop over the buckets
 * that stops at the last recorded one. The library's getter steps a recorded-values iterator that
 * assigns an object per bucket: on the page it was the costliest part of every refresh.
 */
function meanOf(histogram: Histogram): number {
  if (!hasBucketAccess(histogram)) return histogram.mean;
  const total = histogram.totalCount;
  let seen = 0;
  let sum = 0;
  for (let index = 0; index < histogram.countsArrayLength && seen < total; index++) {
    const count = histogram.getCountAtIndex(index);
    if (count === 0) continue;
    sum += histogram.medianEquivalentValue(histogram.valueFromIndex(index)) * count;
    seen += count;
  }
  return sum / total;
}
