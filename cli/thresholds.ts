/** Smoke-test thresholds against a finished run: every broken one, worded. */
import { formatShare } from '../core/format.ts';
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
  const delivery = result.verdict.delivery ?? 0;
  if (thresholds.minDeliveryRatio !== null && delivery < thresholds.minDeliveryRatio) {
    broken.push(`Delivery was ${formatShare(delivery)} of ${result.fates.planned.toLocaleString('en-US')} planned receptions, below the minimum of ${formatShare(thresholds.minDeliveryRatio)}.`);
  }
  return broken;
}
