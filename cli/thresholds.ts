/**
 * The runner's thresholds: each --threshold and each old flag's alias (--max-p99-ms, --min-delivery,
 * --allow-loss), read by the one grammar (core/thresholds); judged after the run, every broken
 * one worded for the exit reasons.
 */
import { aliasThreshold, thresholdProblemText, parseThreshold, THRESHOLD_WORDS, type AliasFlag, type Threshold, type ThresholdCheck } from '../core/thresholds/index.ts';

export { lossBeyondAllowance } from '../core/thresholds/index.ts';

/**
 * Every --threshold as given, then the old flags' thresholds (their values checked by their own
 * flags first: null when not given or refused); each bad expression is added to `errors`.
 */
export function thresholdsOf(given: readonly string[] | undefined, aliases: Record<AliasFlag, number | null>, errors: string[]): Threshold[] {
  const thresholds: Threshold[] = [];
  for (const text of given ?? []) {
    const parsed = parseThreshold(text);
    if (parsed.ok) thresholds.push(parsed.threshold);
    else errors.push(thresholdProblemText(text, parsed.problem));
  }
  for (const [flag, value] of Object.entries(aliases) as [AliasFlag, number | null][]) {
    if (value !== null) thresholds.push(aliasThreshold(flag, value));
  }
  return thresholds;
}

/** Every broken threshold, worded: "p99 was 300.0 ms, above the limit of 250 ms." */
export function brokenThresholds(checks: readonly ThresholdCheck[]): string[] {
  return checks.filter((check) => !check.passed).map(THRESHOLD_WORDS.broken);
}
