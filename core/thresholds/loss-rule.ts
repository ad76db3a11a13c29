/**
 * Every planned message counts, whatever --no-guide-rule says: receptions lost, never sent or
 * delivered twice fail the run unless a threshold bounds that loss from above ('loss<=0.1%', or
 * --allow-loss 0.001, its alias): then that threshold is the rule, and a broken one fails the run
 * as any threshold does. A run that never drained (stopped early) has no known loss: it fails for
 * being incomplete, not here. Pure.
 */
import { notSentOf } from '../accounting/index.ts';
import type { RunResult } from '../result/index.ts';
import type { Threshold } from './grammar.ts';
import { THRESHOLD_WORDS } from './words.ts';

/** True when a threshold on `loss` caps it (<, <= or ==): the loss rule then is that threshold. */
export function lossIsBounded(thresholds: readonly Threshold[]): boolean {
  return thresholds.some((t) => t.metric === 'loss' && (t.operator === '<' || t.operator === '<=' || t.operator === '=='));
}

/** The loss rule with its allowance (a share of the planned receptions), worded; null when within it. */
export function lossBeyondAllowance(result: RunResult, allowLossRatio: number): string | null {
  const { fates, totals } = result;
  const lost = fates.lost ?? 0;
  const notSent = notSentOf(fates);
  const duplicated = totals.duplicated;
  const missing = lost + notSent + duplicated;
  if (missing === 0) return null;
  const share = fates.planned === 0 ? 1 : missing / fates.planned;
  if (share <= allowLossRatio) return null;
  return THRESHOLD_WORDS.lossBeyondAllowance({ parts: THRESHOLD_WORDS.lossParts({ lost, notSent, duplicated }), share, planned: fates.planned, allowLossRatio });
}

/** The standing loss rule's reason to fail the run, unless a loss threshold stands in for it. */
export function lossRuleReason(result: RunResult, thresholds: readonly Threshold[]): string | null {
  return lossIsBounded(thresholds) ? null : lossBeyondAllowance(result, 0);
}
