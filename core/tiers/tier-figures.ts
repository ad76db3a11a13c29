// The guide's view of a run as pure functions: expected traffic, the fitting tier, and the run's
// measured rates next to a tier's published ones, in words. Shared by the dashboard and the
// headless runner; no Svelte, no DOM.
import { planScenario, type ScenarioPlan } from '../plan/index.ts';
import { type RunConfig } from '../run-config/index.ts';
import { profileOfRun, runReceivers } from '../profiles/index.ts';
import { TIERS_WORDS } from './words.ts';
import {
  demandFromTraffic,
  edition,
  expectedTraffic,
  fitEdition,
  formatBytesPerSecond,
  scenarioTable,
  tiers,
  trimNumber,
  type CellFlag,
  type EditionFit,
  type EditionId,
  type ExpectedTraffic,
  type GuideRunConfig,
  type GuideScenario,
} from '../guide/index.ts';

export const SCENARIO_WORDS: Record<GuideScenario, string> = {
  echo: 'echo',
  broadcast: 'broadcast',
  smallGroup: 'send-to-small-group',
  bigGroup: 'send-to-big-group',
  sendToConnection: 'send-to-connection',
  restBroadcast: 'broadcast through REST API',
  restSendToUser: 'send to user through REST API',
};

export type GuideConfigResult = { ok: true; guide: GuideRunConfig; traffic: ExpectedTraffic } | { ok: false; error: string };

/**
 * The run as the guide's math sees it. Senders and groups come from the run's own plan (so a
 * broadcast without senders has 2, as the run does), and the recipients per message are what the
 * run's delivery plans (core/profiles/receivers.ts: others leave the sender out, a list reaches
 * its listed receivers), averaged over the senders. For groups the group size is the exact
 * average over the plan's groups, which may differ by one member. `tokenUsers`: the user each
 * access token names (deliveries to users); without them every connection counts as one user.
 */
export function guideRunConfig(config: RunConfig, tokenUsers: readonly (string | null)[] = []): GuideConfigResult {
  const planned = planScenario(config);
  if (!planned.ok) return { ok: false, error: planned.errors.join(' ') };
  const { plan } = planned;
  const guide: GuideRunConfig = {
    scenario: config.scenario,
    connections: config.connections,
    senders: plan.senderCount,
    messageBytes: config.messageBytes,
    sendIntervalMs: config.sendIntervalMs,
    recipientsPerMessage: recipientsPerSend(config, plan, tokenUsers),
  };
  if (plan.groupCount > 0) {
    guide.groupCount = plan.groupCount;
    guide.groupSize = membersPerSend(plan, config.connections);
  }
  try {
    return { ok: true, guide, traffic: expectedTraffic(guide) };
  } catch (error) {
    return { ok: false, error: messageOf(error) };
  }
}

/** Receptions per send by the run's delivery, averaged over the senders that send. */
function recipientsPerSend(config: RunConfig, plan: ScenarioPlan, tokenUsers: readonly (string | null)[]): number {
  const receivers = runReceivers({ deliver: profileOfRun(config).deliver, connections: config.connections, plan, tokenUsers });
  let receptions = 0;
  let senders = 0;
  for (let index = 0; index < config.connections; index++) {
    if (!plan.isSender(index)) continue;
    senders++;
    receptions += receivers.perSlot(index);
  }
  return senders > 0 ? receptions / senders : 0;
}

/** Members of the sender's group, averaged over senders: sum over groups of senders x members / senders. */
function membersPerSend(plan: ScenarioPlan, connections: number): number {
  const members = new Array<number>(plan.groupCount).fill(0);
  const senders = new Array<number>(plan.groupCount).fill(0);
  for (let index = 0; index < connections; index++) {
    const group = plan.groupOf(index);
    if (group < 0) continue;
    members[group] = (members[group] ?? 0) + 1;
    if (plan.isSender(index)) senders[group] = (senders[group] ?? 0) + 1;
  }
  const deliveries = members.reduce((sum, count, group) => sum + count * (senders[group] ?? 0), 0);
  return plan.senderCount > 0 ? deliveries / plan.senderCount : 0;
}

/** Per-second rates a run should produce (payload bytes, not counted up to 1,024 B). */
export interface ExpectedRates {
  inboundPerSec: number;
  outboundPerSec: number;
  inboundBytesPerSec: number;
  outboundBytesPerSec: number;
}

/** The expected lines of the message-rate and bandwidth charts; null when the guide cannot express the config. */
export function expectedRates(config: RunConfig, tokenUsers: readonly (string | null)[] = []): ExpectedRates | null {
  const result = guideRunConfig(config, tokenUsers);
  if (!result.ok) return null;
  const t = result.traffic;
  return {
    inboundPerSec: t.inboundMessagesPerSecond,
    outboundPerSec: t.outboundMessagesPerSecond,
    inboundBytesPerSec: t.inboundBytesPerSecond,
    outboundBytesPerSec: t.outboundBytesPerSecond,
  };
}

/** "This configuration should produce 1,000 msg/s in, 1,000 out (2 MBps in, 2 MBps out)." */
export function expectedLine(traffic: ExpectedTraffic): string {
  const t = traffic;
  return TIERS_WORDS.expected({
    inRate: rate(t.inboundMessagesPerSecond), outRate: rate(t.outboundMessagesPerSecond),
    inBytes: formatBytesPerSecond(t.inboundBytesPerSecond), outBytes: formatBytesPerSecond(t.outboundBytesPerSecond),
    ...(t.effectiveMessageBytes !== t.messageBytes ? {
      effective: {
        bytes: trimNumber(t.messageBytes), countsAs: trimNumber(t.effectiveMessageBytes),
        inBytes: formatBytesPerSecond(t.effectiveInboundBytesPerSecond), outBytes: formatBytesPerSecond(t.effectiveOutboundBytesPerSecond),
      },
    } : {}),
  });
}

export interface TierOption {
  tier: string;
  units: number;
  requiresPremiumP2: boolean;
  /** null when the guide cannot express the configuration. */
  fits: boolean | null;
  /** Why the tier does not fit, one sentence per exceeded limit. */
  reasons: string[];
  notes: string[];
}

export interface EditionTiers {
  edition: EditionId;
  options: TierOption[];
  /** The smallest tier that fits, or null (none fits, or the config cannot be expressed). */
  fittingTier: string | null;
  /** The tier to show first: the fitting one, else the largest (none fits) or the smallest (error). */
  defaultTier: string;
  /** Why the guide's math cannot express the configuration, or null. */
  error: string | null;
  traffic: ExpectedTraffic | null;
}

/** Every tier of an edition with its verdict for a run, and the tier to select by default. */
export function editionTiers(config: RunConfig, id: EditionId): EditionTiers {
  const all = tiers(id);
  const result = guideRunConfig(config);
  const fit = result.ok ? fitEdition(id, demandFromTraffic([result.traffic])) : null;
  const options = all.map((t): TierOption => {
    const check = fit?.checks.find((c) => c.tier === t.name);
    return {
      tier: t.name,
      units: t.units,
      requiresPremiumP2: t.requiresPremiumP2,
      fits: check ? check.fits : null,
      reasons: check?.reasons ?? [],
      notes: check?.notes ?? [],
    };
  });
  const fittingTier = fit?.tier ?? null;
  const fallback = result.ok ? all.at(-1) : all[0];
  return {
    edition: id,
    options,
    fittingTier,
    defaultTier: fittingTier ?? fallback?.name ?? '',
    error: result.ok ? null : result.error,
    traffic: result.ok ? result.traffic : null,
  };
}

/** One sentence on the edition's fit: the tier and why the one below it does not fit. */
export function fitSummary(fit: Pick<EditionFit, 'tier'> & { checks: ReadonlyArray<{ tier: string; reasons: string[] }> }, id: EditionId): string {
  if (fit.tier === null) {
    const largest = fit.checks.at(-1);
    return TIERS_WORDS.noTierFits({ edition: id, largest: largest && { tier: largest.tier, reasons: largest.reasons.join(' ') } });
  }
  const index = fit.checks.findIndex((c) => c.tier === fit.tier);
  const below = index > 0 ? fit.checks[index - 1] : undefined;
  if (!below) return TIERS_WORDS.smallestCoversAll({ tier: fit.tier, edition: id });
  return TIERS_WORDS.smallestWithin({ tier: fit.tier, edition: id, below: below.tier, reasons: below.reasons.join(' ') });
}

/** The published columns compared with the run, keyed like the guide's table columns. */
export const TIER_COLUMNS = [
  'connections',
  'inboundMessagesPerSecond',
  'outboundMessagesPerSecond',
  'inboundBytesPerSecond',
  'outboundBytesPerSecond',
] as const;
export type TierColumn = (typeof TIER_COLUMNS)[number];

/** Measured values: connections open, messages per second, bytes per second the transport carried. */
export type MeasuredRates = Record<TierColumn, number>;

const COLUMN_LABELS: Record<TierColumn, string> = {
  connections: 'Connections',
  inboundMessagesPerSecond: 'Inbound messages',
  outboundMessagesPerSecond: 'Outbound messages',
  inboundBytesPerSecond: 'Inbound bandwidth',
  outboundBytesPerSecond: 'Outbound bandwidth',
};

export interface TierRow {
  column: TierColumn;
  label: string;
  measured: number;
  /** The tier's published value for the scenario; null when the table has no row for the tier. */
  published: number | null;
  /** measured / published, or null. */
  ratio: number | null;
  /** e.g. "1,000 msg/s out of Unit1's 1,000 (100%)". */
  text: string;
  /** Set when the published cell contradicts the guide's own formula, definition or limits. */
  flag: CellFlag | null;
}

/** The run's measured numbers next to the tier's published ones for the run's scenario. */
export function tierRows(id: EditionId, tierName: string, scenario: GuideScenario, measured: MeasuredRates): TierRow[] {
  const source = scenarioTable(id, scenario);
  const row = source.rows[tierName];
  return TIER_COLUMNS.map((column): TierRow => {
    const value = measured[column];
    const shown = Number.isFinite(value) ? value : 0;
    const published = row?.[column] ?? null;
    const ratio = published === null || published === 0 ? null : shown / published;
    const flag = source.flags?.[tierName]?.[column] ?? null;
    const text =
      published === null
        ? `${amount(column, shown)}; the ${id} guide publishes no ${SCENARIO_WORDS[scenario]} ${columnWords(column)} for ${tierName}`
        : `${amount(column, shown)} out of ${tierName}'s ${publishedAmount(column, published)} (${formatPercent(ratio ?? 0)})`;
    return { column, label: COLUMN_LABELS[column], measured: shown, published, ratio, text, flag };
  });
}

function amount(column: TierColumn, value: number): string {
  if (column === 'connections') return `${trimNumber(value, 0)} connections`;
  if (column === 'inboundBytesPerSecond' || column === 'outboundBytesPerSecond') return formatBytesPerSecond(value);
  return `${rate(value)} msg/s`;
}

function publishedAmount(column: TierColumn, value: number): string {
  return column === 'inboundBytesPerSecond' || column === 'outboundBytesPerSecond' ? formatBytesPerSecond(value) : trimNumber(value);
}

function columnWords(column: TierColumn): string {
  return COLUMN_LABELS[column].toLowerCase();
}

/** "100%", "2%", "0.5%": one decimal below 10%, whole percents above. */
export function formatPercent(ratio: number): string {
  const percent = ratio * 100;
  return percent < 10 ? `${trimNumber(percent, 1)}%` : `${trimNumber(Math.round(percent), 0)}%`;
}

export function rate(value: number): string {
  return trimNumber(value, 1);
}

/** A note when the run differs from the guide's test conditions (2,048 B every 1,000 ms). */
export function conditionsNote(config: Pick<RunConfig, 'messageBytes' | 'sendIntervalMs'>, id: EditionId): string | null {
  const { messageBytes, sendIntervalMs } = edition(id).defaults;
  if (config.messageBytes === messageBytes && config.sendIntervalMs === sendIntervalMs) return null;
  return TIERS_WORDS.otherConditions({
    guideBytes: trimNumber(messageBytes), guideIntervalMs: trimNumber(sendIntervalMs),
    runBytes: trimNumber(config.messageBytes), runIntervalMs: trimNumber(config.sendIntervalMs),
  });
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The load a tier is judged against: connections open and message rates (measured, or the
 * configuration's expected rates before any were measured), with bandwidth as *payload* bytes,
 * as the guide counts it (payload size x rate). Encoded bytes, envelope included, are the wire
 * cost and are shown apart, never compared with the guide's bandwidth.
 */
export function tierLoad(config: Pick<RunConfig, 'messageBytes'>, connections: number, inboundPerSec: number, outboundPerSec: number): MeasuredRates {
  return {
    connections,
    inboundMessagesPerSecond: inboundPerSec,
    outboundMessagesPerSecond: outboundPerSec,
    inboundBytesPerSecond: inboundPerSec * config.messageBytes,
    outboundBytesPerSecond: outboundPerSec * config.messageBytes,
  };
}

/** A tier judged by the one rule: its limits against the configuration, its published numbers against the load. */
export interface TierJudgement {
  tier: string;
  /** The tier's limits hold the configuration (connections, units); null when the guide cannot express it. */
  withinLimits: boolean | null;
  /** The load against what the guide measured for the scenario on this tier. */
  rows: TierRow[];
  /** The rows over 100%. */
  over: TierRow[];
  /** Within its limits and within every published number: the tier holds this run. */
  fits: boolean;
}

export interface TierVerdict {
  edition: EditionId;
  judgements: TierJudgement[];
  /** The smallest tier that fits by the one rule, or null. */
  fittingTier: string | null;
  /** The tier to show first: the fitting one, else the smallest within its limits, else the largest. */
  defaultTier: string;
  /** One sentence; never says a tier fits while one of its rows is over 100%. */
  headline: string;
  error: string | null;
}

/**
 * One rule for "fits" and every row's percentage: a tier fits when its limits hold the
 * configuration and the load is within every number the guide published for the scenario on it.
 */
export function judgeTiers(config: RunConfig, id: EditionId, load: MeasuredRates): TierVerdict {
  const limits = editionTiers(config, id);
  const judgements = limits.options.map((option): TierJudgement => {
    const rows = tierRows(id, option.tier, config.scenario, load);
    const over = rows.filter((row) => row.ratio !== null && row.ratio > 1);
    return { tier: option.tier, withinLimits: option.fits, rows, over, fits: option.fits === true && over.length === 0 };
  });
  const fitting = judgements.find((j) => j.fits) ?? null;
  const defaultTier = fitting?.tier ?? judgements.find((j) => j.withinLimits === true)?.tier ?? judgements.at(-1)?.tier ?? '';
  return { edition: id, judgements, fittingTier: fitting?.tier ?? null, defaultTier, headline: tierHeadline(config, limits, judgements, fitting), error: limits.error };
}

function tierHeadline(config: RunConfig, limits: EditionTiers, judgements: readonly TierJudgement[], fitting: TierJudgement | null): string {
  if (limits.error !== null) return TIERS_WORDS.mathCannotExpress({ error: limits.error });
  const scenario = SCENARIO_WORDS[config.scenario];
  const byLimits = judgements.find((j) => j.withinLimits === true);
  if (!byLimits) return fitSummary({ tier: null, checks: limits.options }, limits.edition);
  if (byLimits.over.length > 0) {
    const overText = byLimits.over.map((row) => `${row.label.toLowerCase()} ${row.text}`).join('; ');
    return TIERS_WORDS.aboveMeasured({ tier: byLimits.tier, scenario, over: overText, fitting: fitting?.tier ?? null });
  }
  return TIERS_WORDS.alsoMeasured({ fit: fitSummary({ tier: byLimits.tier, checks: limits.options }, limits.edition), scenario, tier: byLimits.tier });
}
