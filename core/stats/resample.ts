/**
 * How far a run's percentile moves when its seconds are drawn again: a percentile bootstrap over
 * seconds, the way the benchmarks read a p99 over their rounds (bench/tool/lib/rounds.mjs). The
 * second, not the message, is what is drawn: the messages of one second rise and fall together
 * (a pause in the hub or the client delays every message of its second), so drawing messages one
 * by one would make the interval far narrower than a second run would show. The generator is
 * seeded, so the page, its HTML report and a second look give the same interval. Pure.
 */

/** One second's latencies: values in rising order with how many messages took each. */
export interface CountedValues {
  valuesUs: readonly number[];
  counts: readonly number[];
}

export interface PercentileInterval {
  /** The lowest and highest of the middle `confidence` of the resampled percentiles, µs. */
  lowUs: number;
  highUs: number;
  confidence: number;
  resamples: number;
}

/** How many times a run's seconds are drawn again: enough for a 95% interval's ends to settle
 *  within a bucket or two, few enough to take milliseconds for an hour's run. */
export const RESAMPLES = 1_000;
export const CONFIDENCE = 0.95;

/** A small seeded generator (mulberry32, as bench/tool/lib/rounds.mjs): uniform in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** The count a percentile reaches, HdrHistogram's rule: rounded up, at least the first message. */
export function rankOf(percentile: number, total: number): number {
  const exact = (Math.min(percentile, 100) / 100) * total;
  return Math.max(1, Math.ceil(exact - exact * Number.EPSILON));
}

/** Messages above a percentile: those past its rank (with 20 messages, p99 has none above it). */
export function countAbove(percentile: number, total: number): number {
  return total === 0 ? 0 : total - rankOf(percentile, total);
}

/** The percentile of every second's values taken together; null when there are none. */
export function percentileOf(seconds: readonly CountedValues[], percentile: number): number | null {
  const merged = new Map<number, number>();
  for (const second of seconds) second.valuesUs.forEach((v, i) => merged.set(v, (merged.get(v) ?? 0) + second.counts[i]!));
  const values = [...merged.keys()].sort((a, b) => a - b);
  const total = [...merged.values()].reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  const rank = rankOf(percentile, total);
  let seen = 0;
  for (const value of values) {
    seen += merged.get(value)!;
    if (seen >= rank) return value;
  }
  return values[values.length - 1]!;
}

/**
 * The interval holding the middle `confidence` of `percentile` over `resamples` draws of the
 * seconds with replacement (as many seconds as the run had, each drawn anew). Null when no
 * second holds a message. One second gives an interval of one value: nothing to draw from.
 */
export function resampledInterval(
  seconds: readonly CountedValues[],
  percentile: number,
  { resamples = RESAMPLES, confidence = CONFIDENCE, seed = 1 }: { resamples?: number; confidence?: number; seed?: number } = {},
): PercentileInterval | null {
  const filled = seconds.filter((s) => s.counts.some((c) => c > 0));
  if (filled.length === 0) return null;
  // Every value any second holds, once, in rising order; each second as positions in it.
  const values = [...new Set(filled.flatMap((s) => s.valuesUs))].sort((a, b) => a - b);
  const position = new Map(values.map((v, i) => [v, i]));
  const blocks = filled.map((s) => ({ at: Int32Array.from(s.valuesUs, (v) => position.get(v)!), counts: Float64Array.from(s.counts) }));
  const random = seededRandom(seed);
  const counts = new Float64Array(values.length);
  const found: number[] = [];
  for (let r = 0; r < resamples; r++) {
    counts.fill(0);
    let total = 0;
    for (let d = 0; d < blocks.length; d++) {
      const block = blocks[Math.floor(random() * blocks.length)]!;
      for (let i = 0; i < block.at.length; i++) {
        counts[block.at[i]!]! += block.counts[i]!;
        total += block.counts[i]!;
      }
    }
    const rank = rankOf(percentile, total);
    let seen = 0;
    let i = 0;
    for (; i < values.length; i++) {
      seen += counts[i]!;
      if (seen >= rank) break;
    }
    found.push(values[Math.min(i, values.length - 1)]!);
  }
  found.sort((a, b) => a - b);
  const tail = (1 - confidence) / 2;
  return {
    lowUs: found[Math.floor(tail * found.length)]!,
    highUs: found[Math.min(found.length - 1, Math.ceil((1 - tail) * found.length) - 1)]!,
    confidence,
    resamples,
  };
}
