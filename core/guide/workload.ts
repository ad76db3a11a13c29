// Mixed workloads, evaluated the way the guide's "Mixed use cases" section says: split the workload
// into the basic use cases, compute each one's inbound and outbound bandwidth with the formulas,
// add them up, and pick the tier from the maximum inbound/outbound bandwidth tables. On top of that
// we apply the routing limits, the app-server tables and the guide's caveats.
import { expectedTraffic, type GuideRunConfig } from './capacity-formulas.ts';
import type { ExpectedTraffic, TrafficRates } from './types.ts';
import { demandFromTraffic, fitEdition, type EditionFit } from './tier-fit.ts';
import { appServerAdvice, type AppServerAdvice } from './appServers.ts';
import { applicableCaveats } from './caveats.ts';
import { EDITIONS } from './tables.ts';
import type { Caveat, EditionId } from './types.ts';
import { BenchError } from '../errors/index.ts';
import { GUIDE_WORDS } from './words.ts';

/** One basic use case of a mixed workload: a GuideRunConfig with an optional label. */
export interface WorkloadPart extends GuideRunConfig {
  /** Name shown in reasons and advice. Default: "<scenario> #<position>". */
  label?: string;
}

export interface WorkloadOptions {
  /** Editions to evaluate against. Default: both ('2019' and 'current'). */
  editions?: readonly EditionId[];
}

export interface WorkloadTotals extends TrafficRates {
  /** Sum of the parts' connections (parts are assumed to use distinct connections). */
  connections: number;
}

export interface EditionAdvice {
  fit: EditionFit;
  appServers: AppServerAdvice;
  caveats: Caveat[];
}

export interface WorkloadEstimate {
  parts: Array<ExpectedTraffic & { label: string }>;
  totals: WorkloadTotals;
  byEdition: Partial<Record<EditionId, EditionAdvice>>;
}

/** Sums a mixed workload and, per edition, picks the tier, the app servers and the caveats. */
export function estimateWorkload(parts: readonly WorkloadPart[], options: WorkloadOptions = {}): WorkloadEstimate {
  if (parts.length === 0) throw new BenchError('badInput', GUIDE_WORDS.emptyWorkload());
  const traffic = parts.map((part, index) => ({ ...expectedTraffic(part), label: part.label ?? `${part.scenario} #${index + 1}` }));
  const demand = demandFromTraffic(traffic);
  const byEdition: Partial<Record<EditionId, EditionAdvice>> = {};
  for (const id of options.editions ?? EDITIONS) {
    const fit = fitEdition(id, demand);
    byEdition[id] = {
      fit,
      appServers: appServerAdvice(id, traffic),
      caveats: applicableCaveats(id, { parts: traffic, tier: fit.tier }),
    };
  }
  return { parts: traffic, totals: sumTraffic(traffic), byEdition };
}

function sumTraffic(traffic: readonly ExpectedTraffic[]): WorkloadTotals {
  const totals: WorkloadTotals = {
    connections: 0,
    inboundMessagesPerSecond: 0,
    outboundMessagesPerSecond: 0,
    inboundBytesPerSecond: 0,
    outboundBytesPerSecond: 0,
    effectiveInboundBytesPerSecond: 0,
    effectiveOutboundBytesPerSecond: 0,
  };
  for (const part of traffic) {
    for (const key of Object.keys(totals) as Array<keyof WorkloadTotals>) totals[key] += part[key];
  }
  return totals;
}
