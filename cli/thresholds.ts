/** Smoke-test thresholds against a finished run: every broken one, worded. */
import { formatCount, formatShare } from '../core/format.ts';
import { notSentOf } from '../core/accounting/index.ts';
import { type RunResult } from '../core/result/index.ts';
import type { Thresholds } from './args.ts';

export function brokenThresholds(result: RunResult, thresholds: Omit<Thresholds, 'allowLossRatio'>): string[] {
  const broken: string[] = [];
  const { p99Us } = result.latency;
  if (thresholds.maxP99Ms !== null && (p99Us === null || p99Us / 1_000 > thresholds.maxP99Ms)) {
    broken.push(p99Us === null
      ? `p99 limit ${thresholds.maxP99Ms} ms: no message was received, so there is no p99.`
      : `p99 was ${(p99Us / 1_000).toFixed(1)} ms, above the limit of ${thresholds.maxP99Ms} ms.`);
  }
  const delivery = result.verdict.delivery ?? 0;
  if (thresholds.minDeliveryRatio !== null && delivery < thresholds.minDeliveryRatio) {
    broken.push(`Delivery was ${formatShare(delivery)} of ${result.fates.planned.toLocaleString('en-US')} planned receptions, below the minimum of ${formatShare(thresholds.minDeliveryRatio)}.`);
  }
  return broken;
}

/**
 * Every planned message counts, whatever --no-guide-rule says: receptions lost, never sent or
 * delivered twice fail the run unless their share of the planned ones is within --allow-loss
 * (0 by default). Worded, or null when within the allowance. A run that never drained (stopped
 * early) has no known loss: that run fails for being incomplete, not here.
 */
export function lossBeyondAllowance(result: RunResult, allowLossRatio: number): string | null {
  const { fates, totals } = result;
  const lost = fates.lost ?? 0;
  const notSent = notSentOf(fates);
  const duplicated = totals.duplicated;
  const missing = lost + notSent + duplicated;
  if (missing === 0) return null;
  const share = fates.planned === 0 ? 1 : missing / fates.planned;
  if (share <= allowLossRatio) return null;
  const parts = [
    ...(lost > 0 ? [`${formatCount(lost)} lost`] : []),
    ...(notSent > 0 ? [`${formatCount(notSent)} never sent`] : []),
    ...(duplicated > 0 ? [`${formatCount(duplicated)} duplicated`] : []),
  ].join(', ');
  const allowed = allowLossRatio > 0 ? `more than --allow-loss ${allowLossRatio} (${formatShare(allowLossRatio)})` : 'and no loss was allowed';
  return `${parts}: ${formatShare(share)} of ${formatCount(fates.planned)} planned receptions did not arrive exactly once, ${allowed}. ` +
    'A run that loses messages is not a pass, with or without --no-guide-rule; give --allow-loss <ratio of planned> to accept a known share.';
}
