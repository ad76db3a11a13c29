/** Smoke-test thresholds against a finished run: every broken one, worded. */
import type { RunResult } from '../core/run-result.ts';
import type { Thresholds } from './args.ts';

export function brokenThresholds(result: RunResult, thresholds: Thresholds): string[] {
  const broken: string[] = [];
  const p99Ms = result.latency.p99Us / 1_000;
  if (thresholds.maxP99Ms !== null && (result.latency.count === 0 || p99Ms > thresholds.maxP99Ms)) {
    broken.push(result.latency.count === 0
      ? `p99 limit ${thresholds.maxP99Ms} ms: no message was received, so there is no p99.`
      : `p99 was ${p99Ms.toFixed(1)} ms, above the limit of ${thresholds.maxP99Ms} ms.`);
  }
  const expected = result.totals.expected;
  const ratio = expected === 0 ? 0 : result.totals.received / expected;
  if (thresholds.minDeliveryRatio !== null && ratio < thresholds.minDeliveryRatio) {
    broken.push(`Delivery was ${(ratio * 100).toFixed(2)}% (${result.totals.received} of ${expected} expected receptions), below the minimum of ${(thresholds.minDeliveryRatio * 100).toFixed(2)}%.`);
  }
  const share = result.underOneSecondShare ?? 0;
  if (thresholds.minUnderOneSecondShare !== null && share < thresholds.minUnderOneSecondShare) {
    broken.push(`${(share * 100).toFixed(2)}% of messages arrived in under 1 s; the guide's rule needs ${(thresholds.minUnderOneSecondShare * 100).toFixed(0)}%.`);
  }
  return broken;
}
