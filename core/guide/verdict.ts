// The guide's pass/fail rule: a tier's "maximum allowed throughput" is the highest throughput at
// which 99 percent of messages have a latency under 1 second. A run passes when at least 99% of
// its messages arrived in under 1 s; the p99 is reported alongside to explain the result.

/** The guide's share of messages that must arrive in under 1 s (both editions). */
export const REQUIRED_SHARE_UNDER_ONE_SECOND = 0.99;
const ONE_SECOND_US = 1_000_000;
// Histogram buckets round; a p99 this close to 1 s is not treated as contradicting the share.
const P99_SLACK_US = 1_000;

export interface LatencyVerdictInput {
  /** Fraction (0..1, not a percentage) of measured messages whose latency was under 1 s. */
  shareUnderOneSecond: number;
  /** 99th-percentile latency in microseconds (>= 0). */
  p99Microseconds: number;
}

export interface LatencyVerdict {
  pass: boolean;
  /** One plain-English sentence for the UI or a report. */
  sentence: string;
  /** false when the p99 and the share disagree about the 1-s line (check the histogram). */
  consistent: boolean;
}

/** Applies the guide's rule (99% of messages under 1 s). Throws on out-of-range input. */
export function latencyVerdict(input: LatencyVerdictInput): LatencyVerdict {
  const { shareUnderOneSecond: share, p99Microseconds: p99 } = input;
  if (typeof share !== 'number' || !Number.isFinite(share) || share < 0 || share > 1) {
    throw new Error(`shareUnderOneSecond must be a fraction from 0 to 1 (got ${String(share)}); pass 0.995, not 99.5.`);
  }
  if (typeof p99 !== 'number' || !Number.isFinite(p99) || p99 < 0) {
    throw new Error(`p99Microseconds must be a non-negative number of microseconds (got ${String(p99)}).`);
  }
  const pass = share >= REQUIRED_SHARE_UNDER_ONE_SECOND;
  const consistent = pass ? p99 <= ONE_SECOND_US + P99_SLACK_US : p99 >= ONE_SECOND_US - P99_SLACK_US;
  const measured = `${formatShare(share)} of messages arrived in under 1 s (p99 ${formatMicroseconds(p99)})`;
  let sentence = pass
    ? `Pass: ${measured}, meeting the guide's rule that at least 99% arrive in under 1 s.`
    : `Fail: only ${measured}; the guide's rule needs at least 99% under 1 s, so this load is above the tier's allowed throughput.`;
  if (!consistent) sentence += ' The p99 and the share disagree; the verdict follows the share, which is the rule itself.';
  return { pass, sentence, consistent };
}

/** "99.50%": floored to two decimals so a failing 98.999% never displays as 99.00%. */
function formatShare(share: number): string {
  const hundredths = Math.floor(share * 10_000 + 1e-6);
  return `${(hundredths / 100).toFixed(2)}%`;
}

/** "850 µs", "412 ms", "12.5 ms", "1.8 s". */
export function formatMicroseconds(microseconds: number): string {
  if (microseconds < 1_000) return `${Math.round(microseconds)} µs`;
  if (microseconds < ONE_SECOND_US) return `${round(microseconds / 1_000)} ms`;
  return `${round(microseconds / ONE_SECOND_US)} s`;
}

function round(value: number): string {
  // Three significant digits are plenty for a latency in a sentence.
  return String(Number(value.toPrecision(3)));
}
