// Reading a tail goal from rounds: one round's p99 of a client against another's swings by 0.6-1.6x
// on this machine with nothing changed (the library page against itself, bench/TOOL-RESULTS.md),
// so a ratio of two p99s is read on the medians of several rounds, with how far resampling the
// rounds moves it (a percentile bootstrap, its generator seeded so a report reads the same twice).

/** The median of the numbers (the mean of the middle two for an even count); null for none. */
export function median(values) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** A small seeded generator (mulberry32): uniform in [0, 1). */
export function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * median(a) ÷ median(b), and the interval holding the middle `confidence` of that ratio when each
 * side's rounds are resampled with replacement `resamples` times. Null when either side has no
 * rounds or b's median is 0.
 */
export function medianRatio(a, b, { resamples = 5_000, confidence = 0.95, seed = 1 } = {}) {
  const ma = median(a);
  const mb = median(b);
  if (ma == null || mb == null || mb === 0) return null;
  const random = seededRandom(seed);
  const pick = (values) => values.map(() => values[Math.floor(random() * values.length)]);
  const ratios = [];
  for (let i = 0; i < resamples; i++) {
    const rb = median(pick(b));
    const ra = median(pick(a));
    if (rb > 0) ratios.push(ra / rb);
  }
  ratios.sort((x, y) => x - y);
  const tail = (1 - confidence) / 2;
  return { ratio: ma / mb, low: ratios[Math.floor(tail * ratios.length)], high: ratios[Math.min(ratios.length - 1, Math.ceil((1 - tail) * ratios.length) - 1)] };
}

/**
 * The rounds of a fixed step summarised per client: each round's p99 in order, their median, and
 * the median's ratio to `baseline`'s with its interval. `steps` are the throughput benchmark's
 * step records (client, p99Ms, holds, missedSlots, …); a step that errored has no p99 and is left
 * out, counted in `errors`.
 */
export function summariseRounds(steps, baseline) {
  const clients = [...new Set(steps.map((s) => s.client))];
  const p99sOf = (client) => steps.filter((s) => s.client === client && typeof s.p99Ms === 'number').map((s) => s.p99Ms);
  const base = p99sOf(baseline);
  return clients.map((client) => {
    const p99s = p99sOf(client);
    const own = steps.filter((s) => s.client === client);
    return {
      client,
      p99sMs: p99s,
      medianP99Ms: median(p99s),
      failedRounds: own.filter((s) => !s.holds).length,
      errors: own.filter((s) => s.error).length,
      againstBaseline: client === baseline ? null : medianRatio(p99s, base),
    };
  });
}
