/**
 * Latency histograms: HdrHistogram (hdr-histogram-js), in microseconds, with 3 significant
 * digits from 1 us to 10 min. Workers record into their own histograms and post their buckets
 * once a second (PostedHistogram); the page merges them, and keeps each second in HdrHistogram's
 * compressed base64 form, the same as its standard log format.
 */
import { build, decodeFromCompressedBase64, encodeIntoCompressedBase64, type Histogram } from 'hdr-histogram-js';
import { LATENCY_WORDS } from './words.ts';

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

/** Deflate's fastest level: a second's histogram is encoded on the page's main thread once a
 *  second while the run sends, where pako's default level took 2.4 times as long (0.26 against
 *  0.62 ms in Node, 2 KB of buckets) for 2% fewer bytes. Any inflate reads either. */
const DEFLATE_LEVEL = 1;

export function encodeHistogram(histogram: Histogram): string {
  if (histogram.totalCount === 0) return (emptyEncoded ??= encodeIntoCompressedBase64(createLatencyHistogram(), DEFLATE_LEVEL));
  return encodeIntoCompressedBase64(histogram, DEFLATE_LEVEL);
}

export function decodeHistogram(encoded: string): Histogram {
  return decodeFromCompressedBase64(encoded, 32, false);
}

/**
 * A histogram as a worker posts it every second: its non-empty buckets as
 * [index, count, index, count, ...], the same buckets as its HdrHistogram encoding without the
 * deflate that encoding runs. That deflate (pako's, its buffers allocated on every call) and
 * the inflate at the other end were part of a block once a second in the runner's one thread,
 * which made it miss slots (bench/TOOL-RESULTS.md, "The runner's per-second block"). A string
 * is the compressed base64 form that agents of earlier versions post.
 */
export type PostedHistogram = number[] | string;

/** The non-empty buckets of `histogram` ({@link PostedHistogram}). */
export function postHistogram(histogram: Histogram): number[] {
  const buckets: number[] = [];
  if (histogram.totalCount === 0) return buckets;
  if (!hasBucketAccess(histogram)) throw new Error(LATENCY_WORDS.notBucketed({ use: 'be posted by bucket' }));
  forEachBucket(histogram, (index, count) => buckets.push(index, count));
  return buckets;
}

/**
 * Adds a posted histogram to each of `into` (each one as `add` of the decoded histogram would:
 * the same counts, total and maximum, the highest value of the top bucket). Returns false when
 * it was empty.
 */
export function addPosted(posted: PostedHistogram, ...into: Histogram[]): boolean {
  if (typeof posted === 'string') {
    if (posted === (emptyEncoded ??= encodeIntoCompressedBase64(createLatencyHistogram()))) return false;
    const decoded = decodeHistogram(posted);
    for (const histogram of into) histogram.add(decoded);
    return true;
  }
  if (posted.length === 0) return false;
  for (const histogram of into) {
    if (!hasBucketAccess(histogram)) throw new Error(LATENCY_WORDS.notBucketed({ use: 'take posted buckets' }));
    for (let i = 0; i < posted.length; i += 2) histogram.recordValueWithCount(histogram.valueFromIndex(posted[i]!), posted[i + 1]!);
    // A decoded histogram's maximum is the highest value of its top bucket: record that (with no
    // count) so that the maximum is the same as before.
    histogram.recordValueWithCount(histogram.highestEquivalentValue(histogram.valueFromIndex(posted[posted.length - 2]!)), 0);
  }
  return true;
}

/** A histogram's figures, µs. With nothing recorded (count 0) every figure is null: unknown, never 0. */
export interface LatencySummary {
  count: number;
  p50Us: number | null;
  p90Us: number | null;
  p99Us: number | null;
  p999Us: number | null;
  maxUs: number | null;
  meanUs: number | null;
}

const FIGURES = ['p50Us', 'p90Us', 'p99Us', 'p999Us', 'maxUs', 'meanUs'] as const;

/** The summary of an empty histogram: nothing known. */
export function emptyLatencySummary(): LatencySummary {
  return { count: 0, p50Us: null, p90Us: null, p99Us: null, p999Us: null, maxUs: null, meanUs: null };
}

/**
 * A summary as read from a stored document: documents written before unknown figures were null
 * hold 0 for an empty histogram's figures; those (and any missing figure) read as null.
 */
export function knownLatency(summary: LatencySummary): LatencySummary {
  if (summary.count > 0 && FIGURES.every((key) => typeof summary[key] === 'number')) return summary;
  if (summary.count === 0) return emptyLatencySummary();
  const copy = { ...summary };
  for (const key of FIGURES) if (typeof copy[key] !== 'number') copy[key] = null;
  return copy;
}

export function summarizeLatency(histogram: Histogram): LatencySummary {
  const count = histogram.totalCount;
  if (count === 0) return emptyLatencySummary();
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

/**
 * Values recorded in [lowUs, highUs], counting every bucket that overlaps the range whole (so at
 * most one bucket's width, 0.1% of the value, more than the range itself): an upper bound.
 */
export function countBetweenUs(histogram: Histogram, lowUs: number, highUs: number): number {
  if (histogram.totalCount === 0 || highUs < lowUs) return 0;
  if (!hasBucketAccess(histogram)) throw new Error(LATENCY_WORDS.notBucketed({ use: 'be counted by bucket' }));
  let count = 0;
  forEachBucket(histogram, (index, n) => {
    const low = histogram.valueFromIndex(index);
    if (histogram.highestEquivalentValue(low) >= lowUs && low <= highUs) count += n;
  });
  return count;
}

/**
 * A histogram's recorded values as [value, count] pairs in rising order, each value its bucket's
 * highest (the value getValueAtPercentile answers with): what a percentile of several seconds
 * taken together, or of seconds drawn again, is read from (core/stats/resample.ts).
 */
export function bucketValues(histogram: Histogram): { valuesUs: number[]; counts: number[] } {
  const valuesUs: number[] = [];
  const counts: number[] = [];
  if (histogram.totalCount === 0) return { valuesUs, counts };
  if (!hasBucketAccess(histogram)) throw new Error(LATENCY_WORDS.notBucketed({ use: 'be read by bucket' }));
  forEachBucket(histogram, (index, count) => {
    valuesUs.push(histogram.highestEquivalentValue(histogram.valueFromIndex(index)));
    counts.push(count);
  });
  return { valuesUs, counts };
}

/** The bucket-level calls of hdr-histogram-js's JS histograms (every histogram here is one). */
interface BucketAccess {
  countsArrayLength: number;
  getCountAtIndex(index: number): number;
  valueFromIndex(index: number): number;
  medianEquivalentValue(value: number): number;
  highestEquivalentValue(value: number): number;
}

function hasBucketAccess(histogram: Histogram): histogram is Histogram & BucketAccess {
  const h = histogram as Partial<BucketAccess>;
  return typeof h.getCountAtIndex === 'function' && typeof h.valueFromIndex === 'function' && typeof h.medianEquivalentValue === 'function' && typeof h.highestEquivalentValue === 'function' && typeof h.countsArrayLength === 'number';
}

/**
 * The histogram's mean, the same number as hdr-histogram-js's `mean` (each bucket's median value
 * times its count, summed in bucket order, over the total count), in one loop over the buckets
 * that stops at the last recorded one. The library's getter steps a recorded-values iterator that
 * assigns an object per bucket: on the page it was the costliest part of every refresh.
 */
function meanOf(histogram: Histogram): number {
  if (!hasBucketAccess(histogram)) return histogram.mean;
  let sum = 0;
  forEachBucket(histogram, (index, count) => (sum += histogram.medianEquivalentValue(histogram.valueFromIndex(index)) * count));
  return sum / histogram.totalCount;
}

/** Calls `visit` for each bucket that holds values, in order, and stops after the last one. */
function forEachBucket(histogram: Histogram & BucketAccess, visit: (index: number, count: number) => void): void {
  const total = histogram.totalCount;
  let seen = 0;
  for (let index = 0; index < histogram.countsArrayLength && seen < total; index++) {
    const count = histogram.getCountAtIndex(index);
    if (count === 0) continue;
    visit(index, count);
    seen += count;
  }
}
