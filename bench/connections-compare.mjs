// The connections benchmark (bench/headless-10k.sh) against its last recorded row: says when the
// runner's memory per connection or its ramp got worse by more than the run-to-run spread, so a
// regression shows in the benchmark's own output instead of months later. Rows are kept in
// bench/connections-results.json (one object per run, oldest first); the table in RESULTS.md is
// for people. Also a command: node bench/connections-compare.mjs <row.json> (prints, appends).
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HISTORY = path.join(path.dirname(fileURLToPath(import.meta.url)), 'connections-results.json');

/**
 * How far apart two runs of the same code land on this machine, from repeated runs in one session
 * (bench/RESULTS.md, "Run-to-run spread"): the largest difference between two runs, as a share of
 * the lower one. A change within it is noise; past it, a finding.
 * - memory per connection: the plain-library control's peak 359-411 MB over 3 runs (14.5%; the
 *   runner's own 351-358 MB, 2%);
 * - ramp: it follows the machine's load (the control 572-1,215 connections/s between load 14 and
 *   5), so the ramp is compared as a ratio to the control's in the same run: 0.58-0.75 over 3
 *   pairs (29%). Without a control in both rows, the plain ramp with the same threshold.
 */
export const RUN_TO_RUN_SPREAD = { kbPerConnection: 0.15, rampPerSec: 0.3 };

/**
 * @param history earlier rows, oldest first: { date, connections, engines?: 'threads' | 'processes',
 *   negotiation?: 'negotiated' | 'skipped', transport?: 'WebSockets' | 'ServerSentEvents' | 'LongPolling',
 *   kbPerConnection, rampPerSec, control?: { kbPerConnection, rampPerSec } }
 * @param row this run's row, same shape.
 * @returns { last: row | null, lines: string[], regressions: string[] } — `lines` for the output,
 *   `regressions` the figures that got worse by more than the spread (empty: none).
 */
export function compareWithLast(history, row, spread = RUN_TO_RUN_SPREAD) {
  // Engine threads and engine processes differ in fixed cost (a bundle and a heap per process):
  // a row is compared with the last one of its own kind (rows before the kind was kept: threads).
  // Likewise a connect without negotiate costs about half of one with it (bench/RESULTS.md): rows
  // are compared within the same negotiation (rows before it was kept: negotiated), and each
  // transport with its own (rows before it was kept: WebSockets), and a runner with one engine
  // (one isolate less: ~40 MB) with its own (BENCH_WORKERS; rows before it was kept: 2).
  const kindOf = (r) => `${r.engines ?? 'threads'}${(r.workers ?? 2) === 2 ? '' : `, ${r.workers} engine${r.workers === 1 ? '' : 's'}`}${r.negotiation === 'skipped' ? ', negotiation skipped' : ''}${r.transport && r.transport !== 'WebSockets' ? `, ${r.transport}` : ''}`;
  const last = [...history].reverse().find((r) => r.connections === row.connections && kindOf(r) === kindOf(row)) ?? null;
  if (!last) return { last, lines: [`No earlier row at ${row.connections} connections with engine ${kindOf(row)}: this run is the reference.`], regressions: [] };
  const lines = [];
  const regressions = [];
  const rampRatio = (r) => (typeof r.rampPerSec === 'number' && typeof r.control?.rampPerSec === 'number' && r.control.rampPerSec > 0 ? r.rampPerSec / r.control.rampPerSec : null);
  const againstControl = rampRatio(row) !== null && rampRatio(last) !== null;
  const figures = [
    { name: 'memory per connection', now: row.kbPerConnection, was: last.kbPerConnection, show: (v) => `${v} KB`, control: (r) => r.control?.kbPerConnection, higherIsWorse: true, share: spread.kbPerConnection },
    againstControl
      ? { name: 'ramp against the control', now: rampRatio(row), was: rampRatio(last), show: (v) => `${v.toFixed(2)}x`, control: () => null, higherIsWorse: false, share: spread.rampPerSec }
      : { name: 'ramp', now: row.rampPerSec, was: last.rampPerSec, show: (v) => `${v} connections/s`, control: (r) => r.control?.rampPerSec, higherIsWorse: false, share: spread.rampPerSec },
  ];
  for (const f of figures) {
    const { now, was } = f;
    if (typeof now !== 'number' || typeof was !== 'number') {
      lines.push(`${f.name}: unknown (${now ?? '–'} now, ${was ?? '–'} on ${last.date}).`);
      continue;
    }
    const worse = (a, b) => (f.higherIsWorse ? a > b * (1 + f.share) : a < b * (1 - f.share));
    const change = `${formatChange(now, was)} (${f.show(was)} on ${last.date} → ${f.show(now)}; spread ±${Math.round(f.share * 100)}%)`;
    if (!worse(now, was)) {
      lines.push(`${f.name}: ${change}, within the run-to-run spread or better.`);
      continue;
    }
    const controlNow = f.control(row);
    const controlWas = f.control(last);
    const machine = typeof controlNow === 'number' && typeof controlWas === 'number' && worse(controlNow, controlWas)
      ? ` The plain-library control got worse too (${formatChange(controlNow, controlWas)}): the machine may be the cause; repeat the pair.`
      : '';
    const line = `REGRESSION: ${f.name} ${change}, worse by more than the run-to-run spread.${machine}`;
    lines.push(line);
    regressions.push(line);
  }
  return { last, lines, regressions };
}

/**
 * A runner report's ramp, s: from its run's start (its engines' set-up included, as a peer's ramp
 * holds building its connection objects) until its last connection opened (sendWindow.lastOpenedUs),
 * as bench/peers/peers.mjs reads its peers' ramps: first connect to last open, without the method
 * check and group joins after it. Reports kept before lastOpenedUs take the moment every engine was
 * ready (readyUs: the ramp plus those checks, ~27 ms at 10,000 connections); older ones the
 * per-second points (rampSeconds), which can only place the last connection at the end of the
 * second it opened in: up to a second too long, half a second on average.
 */
export function runnerRampSeconds(report) {
  const window = report.sendWindow;
  const endUs = window?.lastOpenedUs > 0 ? window.lastOpenedUs : window?.readyUs;
  if (endUs > 0 && window.runStartUs > 0) return (endUs - window.runStartUs) / 1_000_000;
  return rampSeconds(report.points, report.totals.connectionsOpened);
}

/**
 * Seconds from the run's start until every connection that opened was open, interpolated inside
 * the per-second points (a whole-second count is 12% coarse at 8 s); null when never reached.
 * The second in which the last one opened is counted whole: its count is that point's.
 */
export function rampSeconds(points, opened) {
  let prev = { second: 0, connectionsOpen: 0 };
  for (const p of points) {
    if (p.connectionsOpen >= opened) {
      const step = Math.max(1, p.connectionsOpen - prev.connectionsOpen);
      return prev.second + ((opened - prev.connectionsOpen) / step) * (p.second - prev.second);
    }
    prev = p;
  }
  return null;
}

function formatChange(now, was) {
  const pct = ((now - was) / was) * 100;
  return `${pct >= 0 ? '+' : ''}${pct.toFixed(0)}%`;
}

export function readHistory(file = HISTORY) {
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : [];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const row = JSON.parse(readFileSync(process.argv[2], 'utf8'));
  const history = readHistory();
  const { lines } = compareWithLast(history, row);
  for (const line of lines) console.log(line);
  writeFileSync(HISTORY, JSON.stringify([...history, row], null, 1) + '\n');
}
