/** A run's per-second series as CSV, for spreadsheets: one row per second, units in the headers. */
import type { RunResult } from './run-result.ts';

const COLUMNS = [
  ['second', (p) => p.second],
  ['sent_per_s', (p) => p.sent],
  ['received_per_s', (p) => p.received],
  ['sent_bytes_per_s', (p) => p.sentBytes],
  ['received_bytes_per_s', (p) => p.receivedBytes],
  // What became of the receptions planned in this second (core/fates.ts); they sum to planned.
  ['planned', (p) => p.fates.planned],
  ['under_1s', (p) => p.fates.underOneSecond],
  ['later', (p) => p.fates.late],
  ['after_drain', (p) => p.fates.afterDrain],
  ['lost', (p) => p.fates.lost ?? ''],
  ['not_sent_backed_up', (p) => p.fates.notSent.backedUp],
  ['not_sent_reconnecting', (p) => p.fates.notSent.reconnecting],
  ['not_sent_write_failed', (p) => p.fates.notSent.writeFailed],
  ['not_sent_disconnected', (p) => p.fates.notSent.disconnected],
  ['p50_ms', (p) => ms(p.latency.count, p.latency.p50Us)],
  ['p90_ms', (p) => ms(p.latency.count, p.latency.p90Us)],
  ['p99_ms', (p) => ms(p.latency.count, p.latency.p99Us)],
  ['p999_ms', (p) => ms(p.latency.count, p.latency.p999Us)],
  ['max_ms', (p) => ms(p.latency.count, p.latency.maxUs)],
  ['connections_open', (p) => p.connectionsOpen],
  ['event_loop_lag_ms', (p) => p.eventLoopLagMs.toFixed(1)],
  ['max_send_lag_ms', (p) => p.maxSendLagMs.toFixed(1)],
  // Connections back and lost per second (drops); empty in runs kept before they were counted.
  ['reconnects_per_s', (p) => p.reconnects ?? ''],
  ['dropped_per_s', (p) => p.dropped ?? ''],
] as const satisfies readonly (readonly [string, (p: RunResult['points'][number]) => string | number])[];

/** An empty cell, not 0, for a second with no latency sample. */
function ms(count: number, us: number): string {
  return count === 0 ? '' : (us / 1_000).toFixed(3);
}

export function runCsv(result: RunResult): string {
  const lines = [COLUMNS.map(([name]) => name).join(',')];
  for (const point of result.points) lines.push(COLUMNS.map(([, value]) => value(point)).join(','));
  return lines.join('\n') + '\n';
}

/** Several runs' series in one CSV: the run's name first on every row. */
export function comparisonCsv(runs: readonly { label: string; result: RunResult }[]): string {
  const lines = [['run', ...COLUMNS.map(([name]) => name)].join(',')];
  for (const run of runs) {
    const label = csvCell(run.label);
    for (const point of run.result.points) lines.push([label, ...COLUMNS.map(([, value]) => value(point))].join(','));
  }
  return lines.join('\n') + '\n';
}

/** Quoted when it holds a comma, a quote or a line break (RFC 4180). */
function csvCell(text: string): string {
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
