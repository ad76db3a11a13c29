// The guide's caveats are data (the "caveats" list of each edition's JSON); this decides which of
// them apply to a workload, so the UI can show the guide's own warnings next to a tier choice.
import type { Caveat, CaveatCondition, EditionId, GuideScenario } from './types.ts';
import { edition, tier } from './tables.ts';

/** The facts about a workload that caveat conditions test. */
export interface CaveatContext {
  parts: ReadonlyArray<{ scenario: GuideScenario; recipientsPerMessage: number; messageBytes: number }>;
  /** The fitting tier's name, or null when no tier fits. */
  tier: string | null;
}

/** The edition's caveats that apply to the context, in the order the data lists them. */
export function applicableCaveats(id: EditionId, context: CaveatContext): Caveat[] {
  // No fitting tier means the workload is beyond the largest tier: unit thresholds are passed.
  const units = context.tier === null ? Number.POSITIVE_INFINITY : tier(id, context.tier).units;
  return edition(id).caveats.filter((caveat) => applies(caveat.when, context, units));
}

function applies(when: CaveatCondition, context: CaveatContext, units: number): boolean {
  if (when.minTierUnits !== undefined && !(units >= when.minTierUnits)) return false;
  if (when.aboveTierUnits !== undefined && !(units > when.aboveTierUnits)) return false;
  if (when.noTierFits !== undefined && when.noTierFits !== (context.tier === null)) return false;
  const below = when.messageBytesBelow;
  if (below !== undefined && !context.parts.some((p) => p.messageBytes < below)) return false;
  if (when.scenarios !== undefined || when.recipientsPerMessageBelow !== undefined) {
    // Scenario and group-size conditions must hold for the same part of the workload.
    const matching = context.parts.some(
      (p) =>
        (when.scenarios === undefined || (when.scenarios as readonly GuideScenario[]).includes(p.scenario)) &&
        (when.recipientsPerMessageBelow === undefined || p.recipientsPerMessage < when.recipientsPerMessageBelow),
    );
    if (!matching) return false;
  }
  return true;
}
