// One row of the connections benchmark (bench/headless-10k.sh) from the runner's --json, the
// control's output (one JSON line per control process) and their peak memory (each side's
// process tree summed, bench/tree-rss.mjs): printed, added to bench/RESULTS.md, and written as
// JSON for bench/connections-compare.mjs. Ramp: connections opened per second until the last one
// opened; a control split over processes: all opened over the slowest one's ramp time, its p99
// the worst process's (their histograms are not merged: an upper bound).
import { readFileSync, writeFileSync } from 'node:fs';
import { addResultRow } from './results-table.mjs';
import { runnerRampSeconds } from './connections-compare.mjs';

const [runnerJson, rssKb, cpu, hubCpu, controlJson, controlRssKb, controlCpu, controlHubCpu, load, command, rowPath, enginesText = '', hubsArg = '1', controlsArg = '1'] = process.argv.slice(2);
const r = JSON.parse(readFileSync(runnerJson, 'utf8'));
const parts = readFileSync(controlJson, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
const c = {
  connectionsOpened: parts.reduce((sum, p) => sum + p.connectionsOpened, 0),
  lost: parts.reduce((sum, p) => sum + p.lost, 0),
  // Over the processes that measured any latency; none: unknown (null), never 0.
  latency: { p99Us: parts.some((p) => p.latency.count > 0) ? Math.max(...parts.filter((p) => p.latency.count > 0).map((p) => p.latency.p99Us)) : null },
  rampMs: Math.max(...parts.map((p) => p.rampMs)),
};
// The runner's start line names its engines (cli/engine-kind.ts).
const engines = /engine processes/.test(enginesText) ? 'processes' : 'threads';
const negotiation = r.config.skipNegotiation === true ? 'skipped' : 'negotiated';
const transport = r.config.transport;
const t = r.totals;
const rampSec = runnerRampSeconds(r);
const kb = (rss, n) => Math.round(Number(rss) / Math.max(1, n));
const row = {
  date: new Date().toISOString().slice(0, 10),
  connections: r.config.connections,
  engines,
  negotiation,
  transport,
  workers: r.config.workers,
  hubs: Number(hubsArg),
  opened: t.connectionsOpened,
  failed: t.connectionsFailed,
  lost: r.fates.lost,
  verdict: r.verdict.status,
  // Unknown, never 0, when nothing arrived.
  p99Ms: r.latency.count > 0 ? Number((r.latency.p99Us / 1000).toFixed(1)) : null,
  peakMb: Math.round(Number(rssKb) / 1024),
  kbPerConnection: kb(rssKb, t.connectionsOpened),
  rampPerSec: rampSec ? Math.round(t.connectionsOpened / rampSec) : null,
  cpu,
  hubCpu,
  control: {
    opened: c.connectionsOpened,
    lost: c.lost,
    p99Ms: c.latency.p99Us === null ? null : Number((c.latency.p99Us / 1000).toFixed(1)),
    peakMb: Math.round(Number(controlRssKb) / 1024),
    kbPerConnection: kb(controlRssKb, c.connectionsOpened),
    rampPerSec: Math.round(c.connectionsOpened / (c.rampMs / 1000)),
    cpu: controlCpu,
    hubCpu: controlHubCpu,
    processes: Number(controlsArg),
  },
  load,
  command,
};
const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;
const setup = `${engines === 'processes' ? plural(row.workers, 'process', 'processes') : plural(row.workers, 'thread', 'threads')}, ${row.hubs} hub${row.hubs === 1 ? '' : 's'}, control ${row.control.processes} process${row.control.processes === 1 ? '' : 'es'}${negotiation === 'skipped' ? ', negotiation skipped' : ''}${transport === 'WebSockets' ? '' : `, ${transport}`}`;
const cells = [row.date, setup, row.opened, row.failed, row.lost, row.verdict, row.p99Ms ?? '–', row.peakMb, row.kbPerConnection, row.rampPerSec ?? '–', row.cpu, row.hubCpu || '–',
  `${row.control.opened} / ${row.control.lost} / ${row.control.p99Ms ?? '–'}`, row.control.peakMb, row.control.kbPerConnection, row.control.rampPerSec, row.control.cpu, row.control.hubCpu || '–', row.load, '`' + command + '`'];
const line = '| ' + cells.join(' | ') + ' |';
console.log(line);
addResultRow('Headless runner: connections held', line);
writeFileSync(rowPath, JSON.stringify(row));
