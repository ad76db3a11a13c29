// Choosing a tier the way the guide does: a tier fits when the workload stays within its connection
// limit, its maximum inbound bandwidth (the highlighted echo cell), its maximum outbound bandwidth
// (the highlighted broadcast cell) and, for small groups and send to connection, the published
// message rates, which the guide says are capped by routing cost rather than bandwidth.
import type { EditionId, ExpectedTraffic, RoutingScenario } from './types.ts';
import { cell, rowKeys, table, tier as tierOf, tiers } from './tables.ts';
import { formatBytesPerSecond, trimNumber } from './units.ts';
import { GUIDE_WORDS } from './words.ts';

/** What a workload asks of the service, per second. */
export interface Demand {
  connections: number;
  /** Inbound bytes per second, small messages counted as 1,024 B. */
  inboundBytesPerSecond: number;
  /** Outbound bytes per second, small messages counted as 1,024 B. */
  outboundBytesPerSecond: number;
  /** Messages per second sent through routing-limited scenarios. */
  routing: Array<{ scenario: RoutingScenario; inboundMessagesPerSecond: number }>;
}

export interface TierCheck {
  tier: string;
  units: number;
  fits: boolean;
  /** Why it does not fit, one sentence per exceeded limit (empty when it fits). */
  reasons: string[];
  /** Assumptions made for this tier, e.g. a limit borrowed from a smaller published tier. */
  notes: string[];
}

export interface EditionFit {
  edition: EditionId;
  /** The smallest fitting tier, or null when none of the edition's tiers fits. */
  tier: string | null;
  /** Every tier of the edition, in order, with its verdict. */
  checks: TierCheck[];
}

// Float sums of fractions (0.3 + 0.7) must not turn "exactly at the limit" into "over it".
const TOLERANCE = 1e-9;
const SCENARIO_WORDS: Record<RoutingScenario, string> = {
  smallGroup: 'send-to-small-group',
  sendToConnection: 'send-to-connection',
};

/** Sums the traffic of one or more runs into a demand (connections assumed distinct per run). */
export function demandFromTraffic(traffic: readonly ExpectedTraffic[]): Demand {
  const demand: Demand = { connections: 0, inboundBytesPerSecond: 0, outboundBytesPerSecond: 0, routing: [] };
  for (const part of traffic) {
    demand.connections += part.connections;
    demand.inboundBytesPerSecond += part.effectiveInboundBytesPerSecond;
    demand.outboundBytesPerSecond += part.effectiveOutboundBytesPerSecond;
    if (part.scenario === 'smallGroup' || part.scenario === 'sendToConnection') {
      demand.routing.push({ scenario: part.scenario, inboundMessagesPerSecond: part.inboundMessagesPerSecond });
    }
  }
  return demand;
}

/** A tier's connection and bandwidth limits, from the quick-evaluation tables. */
export function tierLimits(id: EditionId, tierName: string) {
  tierOf(id, tierName);
  return {
    connections: cell(table(id, 'quickEvaluationEcho'), tierName, 'connections').value,
    inboundBytesPerSecond: cell(table(id, 'quickEvaluationEcho'), tierName, 'inboundBytesPerSecond').value,
    outboundBytesPerSecond: cell(table(id, 'quickEvaluationBroadcast'), tierName, 'outboundBytesPerSecond').value,
  };
}

/**
 * The published routing-limited message rate of a scenario at a tier. When the table has no row for
 * the tier (the current send-to-connection table skips Unit10), the largest smaller published tier
 * is used: rates never fall with more units, so that is a safe lower bound. Null if none is smaller.
 */
export function routingLimit(id: EditionId, scenario: RoutingScenario, tierName: string) {
  const units = tierOf(id, tierName).units;
  const source = table(id, scenario);
  const candidates = rowKeys(source).filter((key) => Number(key.slice(4)) <= units);
  const basisTier = candidates.at(-1);
  if (basisTier === undefined) return null;
  return { inboundMessagesPerSecond: cell(source, basisTier, 'inboundMessagesPerSecond').value, basisTier };
}

/** Checks one tier against a demand. */
export function checkTier(id: EditionId, tierName: string, demand: Demand): TierCheck {
  const limits = tierLimits(id, tierName);
  const reasons: string[] = [];
  const notes: string[] = [];
  if (demand.connections > limits.connections) {
    reasons.push(`${count(demand.connections)} connections exceed ${tierName}'s ${count(limits.connections)}.`);
  }
  if (over(demand.inboundBytesPerSecond, limits.inboundBytesPerSecond)) {
    reasons.push(bandwidthReason('inbound', demand.inboundBytesPerSecond, limits.inboundBytesPerSecond, tierName, 'echo'));
  }
  if (over(demand.outboundBytesPerSecond, limits.outboundBytesPerSecond)) {
    reasons.push(bandwidthReason('outbound', demand.outboundBytesPerSecond, limits.outboundBytesPerSecond, tierName, 'broadcast'));
  }
  const routing = routingReason(id, tierName, demand, notes);
  if (routing) reasons.push(routing);
  return { tier: tierName, units: tierOf(id, tierName).units, fits: reasons.length === 0, reasons, notes };
}

/** Checks every tier of an edition; the answer is the first (smallest) that fits. */
export function fitEdition(id: EditionId, demand: Demand): EditionFit {
  const checks = tiers(id).map((t) => checkTier(id, t.name, demand));
  return { edition: id, tier: checks.find((c) => c.fits)?.tier ?? null, checks };
}

// Routing capacity is shared: small-group and send-to-connection traffic each use a share of their
// published rate, and the shares must add up to at most 100%.
function routingReason(id: EditionId, tierName: string, demand: Demand, notes: string[]): string | null {
  if (demand.routing.length === 0) return null;
  let share = 0;
  const parts: string[] = [];
  for (const scenario of ['smallGroup', 'sendToConnection'] as const) {
    const rate = demand.routing.filter((r) => r.scenario === scenario).reduce((sum, r) => sum + r.inboundMessagesPerSecond, 0);
    if (!demand.routing.some((r) => r.scenario === scenario)) continue;
    const limit = routingLimit(id, scenario, tierName);
    if (!limit) return GUIDE_WORDS.noRoutingRate({ scenario: SCENARIO_WORDS[scenario], tier: tierName });
    if (limit.basisTier !== tierName) {
      notes.push(GUIDE_WORDS.routingLowerBound({ scenario: SCENARIO_WORDS[scenario], tier: tierName, basisTier: limit.basisTier, messagesPerSecond: count(limit.inboundMessagesPerSecond) }));
    }
    share += rate / limit.inboundMessagesPerSecond;
    parts.push(`${count(rate)} ${SCENARIO_WORDS[scenario]} messages/s (${tierName} allows ${count(limit.inboundMessagesPerSecond)}/s)`);
  }
  if (share <= 1 + TOLERANCE) return null;
  return GUIDE_WORDS.routingShare({ parts, percent: trimNumber(share * 100), tier: tierName });
}

function bandwidthReason(direction: string, demand: number, limit: number, tierName: string, table: string): string {
  return (
    `${direction} ${count(demand)} B/s (${formatBytesPerSecond(demand)}) exceeds ${tierName}'s maximum ` +
    `${direction} bandwidth ${count(limit)} B/s (${formatBytesPerSecond(limit)}, ${table} table).`
  );
}

function over(demand: number, limit: number): boolean {
  return demand > limit * (1 + TOLERANCE);
}

function count(value: number): string {
  return trimNumber(value);
}
