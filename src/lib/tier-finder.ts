// The tier finder as pure functions: rows of text as typed in, a mixed workload
// (core/guide/workload.ts) out, checked and summed. No Svelte, no DOM.
import {
  estimateWorkload,
  formatBytesPerSecond,
  GUIDE_WORDS,
  isServerlessScenario,
  tiers,
  trimNumber,
  type EditionId,
  type Scenario,
  type WorkloadEstimate,
  type WorkloadPart,
} from '../../core/guide/index.ts';
import { SCENARIO_WORDS, fitSummary, messageOf, rate } from '../../core/tiers/index.ts';
import { PAGE_WORDS } from './words.ts';

/** The finder's scenarios: the guide's default-mode ones, whose mixes its formulas sum (a
 *  serverless run is read on the run page's tier panel, against its own tables). */
const FINDER_SCENARIOS = (Object.keys(SCENARIO_WORDS) as Array<keyof typeof SCENARIO_WORDS>).filter((scenario) => !isServerlessScenario(scenario));

/** One finder row as typed. Empty senders or group size mean the guide's default for the scenario. */
export interface FinderRowInput {
  scenario: string;
  connections: string;
  messageBytes: string;
  sendIntervalMs: string;
  senders: string;
  groupSize: string;
}

/** A row with the guide's test conditions: 1,000 connections, 2,048 B every 1,000 ms. */
export function newFinderRow(scenario: Scenario = 'echo'): FinderRowInput {
  return { scenario, connections: '1000', messageBytes: '2048', sendIntervalMs: '1000', senders: '', groupSize: '' };
}

export function hasGroups(scenario: string): boolean {
  return scenario === 'smallGroup' || scenario === 'bigGroup';
}

export type RowParse = { ok: true; part: WorkloadPart } | { ok: false; errors: string[] };

/** Checks one row and lists every problem at once; never throws. */
export function parseFinderRow(row: FinderRowInput, index: number): RowParse {
  const name = `Row ${index + 1}`;
  const errors: string[] = [];
  const scenario = String(row.scenario) as Scenario;
  if (!(FINDER_SCENARIOS as string[]).includes(scenario)) {
    errors.push(PAGE_WORDS.unknownScenario({ row: name, scenarios: FINDER_SCENARIOS.join(', '), scenario }));
  }
  const connections = readWhole(row.connections, `${name}: connections`, PAGE_WORDS.finderHints.connections, errors);
  const messageBytes = readWhole(row.messageBytes, `${name}: message size`, PAGE_WORDS.finderHints.messageBytes, errors);
  const sendIntervalMs = readWhole(row.sendIntervalMs, `${name}: send interval`, PAGE_WORDS.finderHints.sendIntervalMs, errors);
  const senders = readWhole(row.senders, `${name}: senders`, PAGE_WORDS.finderHints.senders, errors, true);
  const groupSize = hasGroups(scenario)
    ? readWhole(row.groupSize, `${name}: group size`, PAGE_WORDS.finderHints.groupSize, errors, true)
    : undefined;
  for (const [label, value] of [['senders', senders], ['group size', groupSize]] as const) {
    if (connections !== undefined && value !== undefined && value > connections) {
      errors.push(GUIDE_WORDS.aboveConnections({ what: `${name}: ${label}`, value: trimNumber(value), connections: trimNumber(connections) }));
    }
  }
  if (errors.length > 0 || connections === undefined || messageBytes === undefined || sendIntervalMs === undefined) {
    return { ok: false, errors };
  }
  const part: WorkloadPart = { scenario, connections, messageBytes, sendIntervalMs, label: `${name} (${SCENARIO_WORDS[scenario]})` };
  if (senders !== undefined) part.senders = senders;
  if (groupSize !== undefined) part.groupSize = groupSize;
  return { ok: true, part };
}

/** A whole number >= 1, or undefined (after pushing why) when empty or invalid. "1,000" is read as 1000. */
function readWhole(raw: unknown, what: string, hint: string, errors: string[], optional = false): number | undefined {
  const typed = String(raw ?? '').trim();
  const text = /^\d{1,3}(,\d{3})+$/.test(typed) ? typed.replaceAll(',', '') : typed;
  if (text === '') {
    if (!optional) errors.push(PAGE_WORDS.emptyField({ what, hint }));
    return undefined;
  }
  const value = Number(text);
  if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text) || !Number.isFinite(value)) {
    errors.push(PAGE_WORDS.notNumber({ what, hint, typed }));
  } else if (value < 1) {
    errors.push(PAGE_WORDS.belowOne({ what, value: trimNumber(value, 6) }));
  } else if (!Number.isInteger(value)) {
    errors.push(PAGE_WORDS.notWhole({ what, value: trimNumber(value, 6) }));
  } else {
    return value;
  }
  return undefined;
}

export interface FinderResult {
  /** Per row, in order: its problems (empty when the row is fine). */
  rowErrors: string[][];
  /** The summed workload with a tier per edition; null while any row is invalid. */
  estimate: WorkloadEstimate | null;
  /** Why there is no estimate, or null. */
  error: string | null;
}

/** Checks every row and, when all are valid, sums them and fits a tier per edition. Never throws. */
export function evaluateFinder(rows: readonly FinderRowInput[]): FinderResult {
  if (rows.length === 0) {
    return { rowErrors: [], estimate: null, error: PAGE_WORDS.noFinderRows() };
  }
  const parsed = rows.map((row, index) => parseFinderRow(row, index));
  const rowErrors = parsed.map((p) => (p.ok ? [] : p.errors));
  const bad = rowErrors.flatMap((errors, index) => (errors.length > 0 ? [index + 1] : []));
  if (bad.length > 0) {
    return { rowErrors, estimate: null, error: PAGE_WORDS.fixRows({ rows: bad }) };
  }
  try {
    const parts = parsed.flatMap((p) => (p.ok ? [p.part] : []));
    return { rowErrors, estimate: estimateWorkload(parts), error: null };
  } catch (error) {
    return { rowErrors, estimate: null, error: messageOf(error) };
  }
}

/** "10,000 connections · 4,002 msg/s in, 16,000 out · 7.8 MBps in, 9 MBps out", plus the 1,024-B floor when it applies. */
export function totalsLine(totals: WorkloadEstimate['totals']): string {
  const t = totals;
  let line =
    `${trimNumber(t.connections)} connections · ${rate(t.inboundMessagesPerSecond)} msg/s in, ${rate(t.outboundMessagesPerSecond)} out · ` +
    `${formatBytesPerSecond(t.inboundBytesPerSecond)} in, ${formatBytesPerSecond(t.outboundBytesPerSecond)} out`;
  if (t.effectiveInboundBytesPerSecond !== t.inboundBytesPerSecond || t.effectiveOutboundBytesPerSecond !== t.outboundBytesPerSecond) {
    line += PAGE_WORDS.effectiveTotals({ inBytes: formatBytesPerSecond(t.effectiveInboundBytesPerSecond), outBytes: formatBytesPerSecond(t.effectiveOutboundBytesPerSecond) });
  }
  return line;
}

export interface FinderEditionView {
  edition: EditionId;
  tier: string | null;
  requiresPremiumP2: boolean;
  reason: string;
  /** e.g. "3 app servers (at least 2)". */
  appServers: string;
  notes: string[];
  caveats: string[];
}

/** What the finder shows for one edition of an estimate; null when the edition was not evaluated. */
export function finderEditionView(estimate: WorkloadEstimate, id: EditionId): FinderEditionView | null {
  const advice = estimate.byEdition[id];
  if (!advice) return null;
  const { recommended, minimum, notes } = advice.appServers;
  const servers = (n: number) => `${trimNumber(n)} app server${n === 1 ? '' : 's'}`;
  const appServers =
    recommended === null
      ? PAGE_WORDS.beyondAppServerTables()
      : servers(recommended) + (minimum !== null && minimum < recommended ? ` (at least ${trimNumber(minimum)})` : '');
  const tier = advice.fit.tier;
  return {
    edition: id,
    tier,
    requiresPremiumP2: tier !== null && tiers(id).some((t) => t.name === tier && t.requiresPremiumP2),
    reason: fitSummary(advice.fit, id),
    appServers,
    notes: [...advice.fit.checks.filter((c) => c.tier === tier).flatMap((c) => c.notes), ...notes],
    caveats: advice.caveats.map((c) => c.text),
  };
}
