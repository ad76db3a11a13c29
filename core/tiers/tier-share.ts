/**
 * A run's share of its tier in one sentence, for the answer on top of the Live page: the busiest
 * of the rows the tier is judged by (connections, messages and bandwidth each way), on the tier
 * the one rule shows first (core/tiers/tier-figures.ts judgeTiers). Pure.
 */
import type { TierRow, TierVerdict } from './tier-figures.ts';

/** The tier's row the run came closest to (or furthest past); null when nothing is published. */
export function busiestRow(verdict: TierVerdict): { tier: string; row: TierRow } | null {
  if (verdict.error !== null) return null;
  const judgement = verdict.judgements.find((j) => j.tier === verdict.defaultTier);
  const rows = (judgement?.rows ?? []).filter((row) => row.ratio !== null);
  if (!judgement || rows.length === 0) return null;
  const row = rows.reduce((busiest, next) => (next.ratio! > busiest.ratio! ? next : busiest));
  return { tier: judgement.tier, row };
}

/** e.g. "Its largest share of Unit1: outbound messages, 40 msg/s out of Unit1's 1,000 (4%)." */
export function tierShareLine(verdict: TierVerdict): string | null {
  const busiest = busiestRow(verdict);
  if (!busiest) return null;
  return `Its largest share of ${busiest.tier}: ${busiest.row.label.toLowerCase()}, ${busiest.row.text}.`;
}
