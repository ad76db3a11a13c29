/** A run's per-second series as CSV, for spreadsheets: one row per second, units in the headers. */
import type { Versions } from '../history/index.ts';
import type { RunResult } from '../result/index.ts';
import type { ServerSecond } from '../server-metrics/index.ts';

const COLUMNS = [
  ['second', (p) => p.second],
  ['sent_per_s', (p) => p.sent],
  ['received_per_s', (p) => p.received],
  ['sent_bytes_per_s', (p) => p.sentBytes],
  ['received_bytes_per_s', (p) => p.receivedBytes],
  // What became of the receptions planned in this second (core/accounting/fates.ts); they sum to planned.
  ['planned', (p) => p.fates.planned],
  ['under_1s', (p) => p.fates.underOneSecond],
  ['later', (p) => p.fates.late],
  ['after_drain', (p) => p.fates.afterDrain],
  ['lost', (p) => p.fates.lost ?? ''],
  ['not_sent_backed_up', (p) => p.fates.notSent.backedUp],
  ['not_sent_reconnecting', (p) => p.fates.notSent.reconnecting],
  ['not_sent_write_failed', (p) => p.fates.notSent.writeFailed],
  ['not_sent_disconnected', (p) => p.fates.notSent.disconnected],
  ['not_sent_client_behind', (p) => p.fates.notSent.clientBehind],
  ['not_sent_receiver_absent', (p) => p.fates.notSent.receiverAbsent],
  ['not_sent_worker_lost', (p) => p.fates.notSent.workerLost],
  ['not_sent_run_stopped', (p) => p.fates.notSent.runStopped],
  // Arrived or never sent beyond the plan: an accounting error, 0 in a sound run; empty until drained.
  ['over_count', (p) => p.fates.overCount ?? ''],
  ['p50_ms', (p) => ms(p.latency.count, p.latency.p50Us)],
  ['p90_ms', (p) => ms(p.latency.count, p.latency.p90Us)],
  ['p99_ms', (p) => ms(p.latency.count, p.latency.p99Us)],
  ['p999_ms', (p) => ms(p.latency.count, p.latency.p999Us)],
  ['max_ms', (p) => ms(p.latency.count, p.latency.maxUs)],
  ['connections_open', (p) => p.connectionsOpen],
  ['event_loop_lag_ms', (p) => p.eventLoopLagMs.toFixed(1)],
  ['max_send_lag_ms', (p) => p.maxSendLagMs.toFixed(1)],
  // Connections back and lost per second (drops).
  ['reconnects_per_s', (p) => p.reconnects],
  ['dropped_per_s', (p) => p.dropped],
] as const satisfies readonly (readonly [string, (p: RunResult['points'][number]) => string | number])[];

/** The server's figures of the same second (core/server-metrics); empty cells where unknown,
 *  including every run kept without server metrics. */
const SERVER_COLUMNS = [
  ['server_cpu_percent', (s) => fixed(s?.cpuPercent, 1)],
  ['server_connections', (s) => fixed(s?.connections, 0)],
  ['server_deliveries_per_s', (s) => fixed(s?.deliveriesPerSec, 1)],
  ['server_gc_pause_ms_per_s', (s) => fixed(s?.gcPauseMsPerSec, 2)],
  ['server_thread_pool_queue', (s) => fixed(s?.threadPoolQueue, 0)],
] as const satisfies readonly (readonly [string, (s: ServerSecond | undefined) => string])[];

/** Which tool measured the run, last on every row: a comparison's runs may come from different
 *  versions, and a row read alone still says which one counted it. */
const VERSION_COLUMNS = [
  ['tool_version', (v) => v.toolVersion],
  ['signalr_client_version', (v) => v.signalrClientVersion],
] as const satisfies readonly (readonly [string, (v: Versions) => string])[];

const HEADER = [...COLUMNS, ...SERVER_COLUMNS, ...VERSION_COLUMNS].map(([name]) => name);

function fixed(value: number | null | undefined, digits: number): string {
  return value === null || value === undefined ? '' : value.toFixed(digits);
}

/** One CSV row per client second, with the server's figures of that second and the versions. */
function rows(result: RunResult, versions: Versions): string[][] {
  const server = new Map((result.server?.points ?? []).map((s) => [s.second, s]));
  const named = VERSION_COLUMNS.map(([, value]) => csvCell(value(versions)));
  return result.points.map((point) => [
    ...COLUMNS.map(([, value]) => String(value(point))),
    ...SERVER_COLUMNS.map(([, value]) => value(server.get(point.second))),
    ...named,
  ]);
}

/** An empty cell, not 0, for a second with no latency sample. */
function ms(count: number, us: number | null): string {
  return count === 0 || us === null ? '' : (us / 1_000).toFixed(3);
}

/** `versions`: the tool that measured the run (a kept run's, or this build's VERSIONS). */
export function runCsv(result: RunResult, versions: Versions): string {
  const lines = [HEADER.join(',')];
  for (const row of rows(result, versions)) lines.push(row.join(','));
  return lines.join('\n') + '\n';
}

/** Several runs' series in one CSV: the run's name first on every row. */
export function comparisonCsv(runs: readonly { label: string; result: RunResult; versions: Versions }[]): string {
  const lines = [['run', ...HEADER].join(',')];
  for (const run of runs) {
    const label = csvCell(run.label);
    for (const row of rows(run.result, run.versions)) lines.push([label, ...row].join(','));
  }
  return lines.join('\n') + '\n';
}

/** Quoted when it holds a comma, a quote or a line break (RFC 4180). */
function csvCell(text: string): string {
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
