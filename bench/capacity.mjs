// The hub-sample's echo capacity on this machine, found by a capacity search (core/capacity/):
// the headless runner with 1,000 connections (rate ramp), then the same search from one browser
// tab (which holds at most 255 WebSockets, so it must name itself client-limited), then one tab
// within its cap (250 connections) to show who breaks first. Chromium is launched directly (the
// page reports back, src/lib/capacity-bench-hook.ts). Needs `npm run build:bench` (the dashboard with
// its benchmark hooks: the product's build leaves them out), `npm run build:cli` and the built hub.
//   node bench/capacity.mjs            (about 15 minutes; CAPACITY_STEP_SEC=10 halves it)
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT, startHub } from '../scripts/hub.mjs';
import { launchChromium } from './tool/lib/chromium.mjs';
import { startCollector } from './tool/lib/collector.mjs';

const STEP_SEC = Number(process.env.CAPACITY_STEP_SEC ?? 20);
const SETTLE_SEC = 3;
const RUNNER = { connections: 1_000, workers: 2, ramp: 'rate', start: 2_000, step: 2_000, max: 20_000 };
const TABS = [
  { name: 'one tab, 1,000 connections', connections: 1_000, workers: 4, start: 2_000, step: 2_000, max: 20_000 },
  { name: 'one tab, 250 connections', connections: 250, workers: 4, start: 1_000, step: 1_000, max: 12_000 },
];
const OUT = path.join(REPO_ROOT, 'bench/capacity-results.json');

const load = () => os.loadavg().map((v) => v.toFixed(2)).join(' ');

function runner(endpoint) {
  const args = ['bin/live-bench.js', '--find-capacity', '--endpoint', endpoint, '--connections', String(RUNNER.connections), '--workers', String(RUNNER.workers),
    '--ramp', RUNNER.ramp, '--start', String(RUNNER.start), '--step', String(RUNNER.step), '--max', String(RUNNER.max),
    '--step-duration', String(STEP_SEC), '--settle', String(SETTLE_SEC), '--json', 'bench/capacity-runner.json'];
  console.log(`$ node ${args.join(' ')}`);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: REPO_ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('exit', (code) => resolve({ command: `node ${args.join(' ')}`, code }));
  });
}

async function tab(hub, collector, spec) {
  const steps = Math.ceil((spec.max - spec.start) / spec.step) + 3;
  const expected = collector.expect(steps * (STEP_SEC + 30) * 1_000);
  const query = new URLSearchParams({
    autostart: '1', report: expected.url, endpointUrl: `${hub.httpUrl}/signalrbench`, connections: String(spec.connections), workers: String(spec.workers),
    capacity: ['rate', spec.start, spec.step, spec.max, STEP_SEC, SETTLE_SEC, 2].join(':'),
  });
  console.log(`tab: ${spec.name}: ${hub.httpUrl}/?${query}`);
  const browser = launchChromium(`${hub.httpUrl}/?${query}`);
  try {
    const report = await expected.report;
    if (!report.capacity) throw new Error(`The page refused the search: ${report.errors.join(' ')}`);
    return report.capacity;
  } finally {
    await browser.close();
  }
}

const freePort = await new Promise((resolve) => {
  const probe = net.createServer().listen(0, '127.0.0.1', () => {
    const { port } = probe.address();
    probe.close(() => resolve(port));
  });
});
const collector = await startCollector(freePort);
const hub = await startHub();
const record = { startedAt: new Date().toISOString(), cores: os.cpus().length, stepSec: STEP_SEC, settleSec: SETTLE_SEC, loadBefore: load(), runs: [] };
try {
  const endpoint = `${hub.httpUrl}/signalrbench`;
  const run = await runner(endpoint);
  record.runs.push({ client: 'runner', ...run, loadAfter: load() });
  for (const spec of TABS) {
    const capacity = await tab(hub, collector, spec);
    record.runs.push({ client: spec.name, finding: capacity.finding, steps: capacity.steps.map((s) => ({ load: s.load, p99Ms: s.latency.p99Us / 1_000, share: s.verdict.share, received: s.receivedPerSec, held: s.judgement.passed, limitedBy: s.judgement.limitedBy, why: s.judgement.reasons[0] })), capacity, loadAfter: load() });
    console.log(`${spec.name}: ${capacity.finding.kind}, ${capacity.finding.limitedBy ?? 'nothing broke'}`);
    for (const s of capacity.steps) console.log(`  step ${s.index} ${s.load} msg/s: received ${Math.round(s.receivedPerSec)}/s, p99 ${(s.latency.p99Us / 1_000).toFixed(1)} ms, ${s.judgement.passed ? 'held' : `broke (${s.judgement.limitedBy}): ${s.judgement.reasons[0]}`}`);
  }
} finally {
  record.loadAfter = load();
  writeFileSync(OUT, JSON.stringify(record, null, 2));
  await collector.close();
  await hub.stop();
}
console.log(`load average before ${record.loadBefore}, after ${record.loadAfter}; written ${OUT}`);
