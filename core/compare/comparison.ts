/**
 * Runs side by side: one row per run, one column per figure, and the winner of each column.
 * Pure: the dashboard, the report and the tests use it (with core/charts/percentile-curve.ts and
 * core/charts/series-overlay.ts for the charts).
 */
import { formatBytes, formatCount, formatMs, formatShare } from '../format.ts';
import { notSentOf } from '../accounting/index.ts';
import { runRates, recentRates } from '../execution/index.ts';
import { diagnosisOf, type RunResult } from '../result/index.ts';
import { scenarioLabel } from '../run-config/index.ts';
import type { Diagnosis } from '../diagnosis/index.ts';
import { MIN_RECEPTIONS_TO_RANK } from './p99-evidence.ts';

export interface ComparedRun {
  /** What the run is called in the table and the chart legend. */
  label: string;
  result: RunResult;
}

type Better = 'lower' | 'higher';

/**
 * Values within this fraction of the column's best count as equally good: latencies a
 * histogram bucket or a scheduling hiccup apart are noise, not a win. 1%.
 */
export const WIN_TOLERANCE = 0.01;
/**
 * The same for rates, which are means over a run's whole seconds: with a few seconds, one
 * message more or less in one of them moves the mean by a few percent. 5%. Losses and errors
 * are compared exactly: one lost message is a difference.
 */
export const RATE_TOLERANCE = 0.05;

interface ColumnSpec {
  key: string;
  label: string;
  better: Better;
  /** null when the run has no such figure (e.g. no message arrived). */
  value: (result: RunResult) => number | null;
  format: (value: number) => string;
  /** Fraction of the best value within which runs count as equally good (see WIN_TOLERANCE). */
  tolerance: number;
  /** Receptions each run needs before the column names a best: a percentile read from fewer is one
   *  or a few slow messages (core/compare/p99-evidence.ts). Absent: any count. */
  minReceptions?: number;
}

/** Receptions for MIN_SLOWER_THAN_P99 messages to lie above a percentile (500 for p99, 5,000 for p99.9). */
const receptionsFor = (percentile: number) => Math.round(MIN_RECEPTIONS_TO_RANK / (100 - percentile));

const latencyOrNull = (result: RunResult, pick: (r: RunResult) => number | null) => (result.latency.count === 0 ? null : pick(result));
const errorTotal = (result: RunResult) => Object.values(result.errorCounts).reduce((a, b) => a + b, 0);
/** Bytes the transport carried per message sent or received, over the seconds of sending (the
 *  warm-up's and the connects' bytes are outside them, as their messages are outside the counts). */
function bytesPerMessage(result: RunResult): number | null {
  const rates = wholeRunRates(result);
  const messages = rates.inboundPerSec + rates.outboundPerSec;
  return messages === 0 ? null : (rates.inboundBytesPerSec + rates.outboundBytesPerSec) / messages;
}
/** Mean over the whole seconds of sending, silent ones included (core/execution/recent-rates.ts). */
const wholeRunRates = (result: RunResult) => runRates(result);

export const COMPARISON_COLUMNS: readonly ColumnSpec[] = [
  { key: 'p50', label: 'p50', better: 'lower', value: (r) => latencyOrNull(r, (x) => x.latency.p50Us), format: formatMs, tolerance: WIN_TOLERANCE },
  { key: 'p99', label: 'p99', better: 'lower', value: (r) => latencyOrNull(r, (x) => x.latency.p99Us), format: formatMs, tolerance: WIN_TOLERANCE, minReceptions: receptionsFor(99) },
  { key: 'p999', label: 'p99.9', better: 'lower', value: (r) => latencyOrNull(r, (x) => x.latency.p999Us), format: formatMs, tolerance: WIN_TOLERANCE, minReceptions: receptionsFor(99.9) },
  { key: 'max', label: 'max', better: 'lower', value: (r) => latencyOrNull(r, (x) => x.latency.maxUs), format: formatMs, tolerance: WIN_TOLERANCE },
  { key: 'underOneSecond', label: 'under 1 s', better: 'higher', value: (r) => r.verdict.share, format: formatShare, tolerance: 0 },
  { key: 'receivedPerSec', label: 'received msg/s', better: 'higher', value: (r) => wholeRunRates(r).outboundPerSec, format: (v) => formatCount(v), tolerance: RATE_TOLERANCE },
  { key: 'delivered', label: 'delivered', better: 'higher', value: (r) => r.verdict.delivery, format: formatShare, tolerance: 0 },
  // The same messages in fewer bytes: the protocol's and transport's overhead, so lower wins.
  { key: 'bandwidth', label: 'bandwidth in + out', better: 'lower', value: (r) => { const x = wholeRunRates(r); return x.inboundBytesPerSec + x.outboundBytesPerSec; }, format: (v) => `${formatBytes(v)}/s`, tolerance: RATE_TOLERANCE },
  // Size per message, the protocol's envelope and its share of pings and acks included.
  { key: 'bytesPerMessage', label: 'bytes / message', better: 'lower', value: bytesPerMessage, format: (v) => `${formatCount(v)} B`, tolerance: WIN_TOLERANCE },
  { key: 'connectP50', label: 'connect p50', better: 'lower', value: (r) => (r.connectTimes.count === 0 ? null : r.connectTimes.p50Us), format: formatMs, tolerance: WIN_TOLERANCE },
  { key: 'connectP99', label: 'connect p99', better: 'lower', value: (r) => (r.connectTimes.count === 0 ? null : r.connectTimes.p99Us), format: formatMs, tolerance: WIN_TOLERANCE },
  { key: 'errors', label: 'errors', better: 'lower', value: errorTotal, format: formatCount, tolerance: 0 },
  // Null (not counted) for a run that never drained: it cannot win on losses it never counted.
  { key: 'lost', label: 'lost', better: 'lower', value: (r) => r.fates.lost, format: formatCount, tolerance: 0 },
  { key: 'eventLoopLag', label: 'worst event-loop lag', better: 'lower', value: (r) => Math.max(0, ...r.workers.map((w) => w.maxEventLoopLagMs)), format: (v) => `${v.toFixed(1)} ms`, tolerance: WIN_TOLERANCE },
  { key: 'missedSlots', label: 'missed slots', better: 'lower', value: (r) => r.totals.missedSlots, format: formatCount, tolerance: 0 },
];

/** A drop comparison's own columns: how fast connections came back, how many were resumed by
 *  stateful reconnect (nothing to rejoin, nothing lost), and what was never sent meanwhile. */
export const DROP_COLUMNS: readonly ColumnSpec[] = [
  { key: 'reconnectP50', label: 'time to reconnect p50', better: 'lower', value: (r) => (r.drops && r.drops.reconnectTimes.count > 0 ? r.drops.reconnectTimes.p50Us : null), format: formatMs, tolerance: WIN_TOLERANCE },
  { key: 'reconnectP99', label: 'time to reconnect p99', better: 'lower', value: (r) => (r.drops && r.drops.reconnectTimes.count > 0 ? r.drops.reconnectTimes.p99Us : null), format: formatMs, tolerance: WIN_TOLERANCE },
  { key: 'resumed', label: 'resumed', better: 'higher', value: (r) => r.drops?.totals.resumed ?? null, format: formatCount, tolerance: 0 },
  { key: 'neverSent', label: 'never sent', better: 'lower', value: (r) => notSentOf(r.fates), format: formatCount, tolerance: 0 },
];

/** The columns for these runs: a drop's own when any of them planned a drop. */
function columnsFor(runs: readonly ComparedRun[]): readonly ColumnSpec[] {
  return runs.some((run) => run.result.drops && run.result.drops.settings.dropAtSec !== null) ? [...COMPARISON_COLUMNS, ...DROP_COLUMNS] : COMPARISON_COLUMNS;
}

export interface ComparisonCell {
  value: number | null;
  /** "12.3 ms", or "–" when the run has no such figure. */
  text: string;
  winner: boolean;
}

export interface ComparisonRow {
  label: string;
  cells: ComparisonCell[];
}

export interface ColumnWinner {
  key: string;
  label: string;
  better: Better;
  /** Labels of the runs with the best value (within WIN_TOLERANCE); empty when no run has one, all runs tie, or there is one run. */
  winners: string[];
  /** Their positions in the runs given (labels need not be unique). */
  winnerIndexes: number[];
  /** True when every run with a value is as good as the best (within WIN_TOLERANCE): nobody wins. */
  tie: boolean;
  /** Set when a run has too few receptions for this percentile to name a best: how many each needs. */
  tooFew: number | null;
}

export interface ComparisonTable {
  columns: { key: string; label: string; better: Better }[];
  rows: ComparisonRow[];
  winners: ColumnWinner[];
}


export function comparisonTable(runs: readonly ComparedRun[]): ComparisonTable {
  const columns = columnsFor(runs);
  const values = runs.map((run) => columns.map((column) => finiteOrNull(column.value(run.result))));
  const winners = columns.map((column, c): ColumnWinner => {
    const present = values.map((row) => row[c]!).filter((v): v is number => v !== null);
    const best = present.length === 0 ? null : column.better === 'lower' ? Math.min(...present) : Math.max(...present);
    const slack = best === null ? 0 : Math.abs(best) * column.tolerance;
    const asGood = (v: number | null) => v !== null && best !== null && (column.better === 'lower' ? v <= best + slack : v >= best - slack);
    const tie = present.length > 1 && present.every(asGood);
    const tooFew = column.minReceptions !== undefined && runs.some((run, r) => values[r]![c]! !== null && run.result.latency.count < column.minReceptions!) ? column.minReceptions : null;
    const winning = best === null || tie || tooFew !== null || runs.length < 2 ? [] : runs.flatMap((_, r) => (asGood(values[r]![c]!) ? [r] : []));
    return { key: column.key, label: column.label, better: column.better, winners: winning.map((r) => runs[r]!.label), winnerIndexes: winning, tie, tooFew };
  });
  const rows = runs.map((run, r): ComparisonRow => ({
    label: run.label,
    cells: columns.map((column, c) => {
      const value = values[r]![c]!;
      return { value, text: value === null ? '–' : column.format(value), winner: winners[c]!.winnerIndexes.includes(r) };
    }),
  }));
  return { columns: columns.map(({ key, label, better }) => ({ key, label, better })), rows, winners };
}

/**
 * Why a compared run failed, as its document says (core/result diagnosisOf), for its row: set when
 * something failed (a side other than none) or its verdict is a fail; null for a run that held or
 * was stopped with nothing wrong. Rendered by the page and the report, never judged again.
 */
export function failureOf(result: RunResult): Diagnosis | null {
  const diagnosis = diagnosisOf(result);
  return diagnosis.side !== 'none' || result.verdict.status === 'fail' ? diagnosis : null;
}

function finiteOrNull(value: number | null): number | null {
  return value === null || !Number.isFinite(value) ? null : value;
}

/**
 * "Echo · 10 connections · 2,048 B every 250 ms · 3 s" when every run had the same scenario
 * (and hub profile) and load (a comparison of transports and protocols); null when they differ.
 */
export function sharedLoad(runs: readonly RunResult[]): string | null {
  const first = runs[0]?.config;
  if (!first) return null;
  const key = (c: RunResult['config']) => [c.scenario, JSON.stringify(c.hubProfile ?? null), c.connections, c.messageBytes, c.sendIntervalMs, c.durationSec, c.senders, c.groupSize, c.groupCount].join('|');
  if (runs.some((r) => key(r.config) !== key(first))) return null;
  return `${scenarioLabel(first)} · ${formatCount(first.connections)} connections · ${formatCount(first.messageBytes)} B every ${formatCount(first.sendIntervalMs)} ms · ${formatCount(first.durationSec)} s`;
}
