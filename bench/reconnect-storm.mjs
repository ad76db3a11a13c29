/**
 * A reconnect storm from the headless runner: 2,000 WebSocket connections to a local hub-sample,
 * every one dropped at once (a network drop: the client cuts TCP), once per reconnect policy, and
 * once more with stateful reconnect. Adds one row per run to bench/RESULTS.md with the storm's
 * peak reconnect rate, the time to reconnect and what the drop cost, and the load average.
 * Usage (after npm run build:cli and npm run build:hub):
 *   node bench/reconnect-storm.mjs [connections]     (default 2000)
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startHub, REPO_ROOT } from '../scripts/hub.mjs';
import { addResultRow } from './results-table.mjs';

const connections = Number(process.argv[2] ?? 2_000);
const RUNS = [
  { policy: 'default', stateful: false },
  { policy: 'fixed', stateful: false },
  { policy: 'jittered', stateful: false },
  { policy: 'fixed', stateful: true },
];
const dir = mkdtempSync(path.join(os.tmpdir(), 'reconnect-storm-'));
const hub = await startHub();
const ms = (us) => (us / 1_000).toFixed(0);
try {
  for (const { policy, stateful } of RUNS) {
    const json = path.join(dir, `${policy}-${stateful}.json`);
    // The SignalR default policy's last retry comes 42 s after the drop: 60 s of sends covers it.
    const args = ['bin/live-bench.js', '--endpoint', `${hub.httpUrl}/signalrbench`, '--connections', String(connections),
      '--workers', '2', '--interval-ms', '1000', '--message-bytes', '256', '--duration', '60', '--drain-s', '10',
      '--connect-concurrency', '64', '--reconnect', '--drop-at', '10', '--drop-kind', 'network',
      '--reconnect-policy', policy, ...(stateful ? ['--stateful-reconnect'] : []), '--quiet', '--no-guide-rule', '--json', json];
    const loadBefore = os.loadavg()[0];
    const run = spawnSync(process.execPath, args, { cwd: REPO_ROOT, encoding: 'utf8' });
    const loadAfter = os.loadavg()[0];
    if (run.status !== 0 && run.status !== 1) throw new Error(`The runner exited ${run.status}: ${run.stderr}`);
    const r = JSON.parse(readFileSync(json, 'utf8'));
    const d = r.drops;
    const row = [new Date().toISOString().slice(0, 16).replace('T', ' '), connections, policy, stateful ? 'on' : 'off',
      d.totals.dropped, d.totals.reconnected + d.totals.resumed, d.neverBack, d.peakReconnectsPerSec,
      ms(d.reconnectTimes.p50Us), ms(d.reconnectTimes.p99Us), ms(d.reconnectTimes.maxUs),
      r.fates.lost, r.fates.notSent.reconnecting + r.fates.notSent.writeFailed, r.totals.duplicated,
      `${loadBefore.toFixed(2)} → ${loadAfter.toFixed(2)}`,
      '`node bench/reconnect-storm.mjs ' + connections + '`'];
    const line = `| ${row.join(' | ')} |`;
    console.log(line);
    addResultRow('Reconnect storm', line);
  }
} finally {
  await hub.stop();
}
