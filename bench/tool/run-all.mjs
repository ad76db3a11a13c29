// Benchmarks of the tool itself, all in one run against one local hub-sample: how close one
// browser tab gets to the leanest client, against the plain-library Node script, the tool's own
// latency overhead, ramp-up, the dashboard's cost and each transport's cost.
// Writes bench/tool-results.json and bench/TOOL-RESULTS.md (quick runs: a temporary folder).
//
// Usage: npm run bench:tool            (full run, ~20 min; builds the dashboard and the hub first)
// Knobs: BENCH_QUICK=1                 short steps and a 1-minute dashboard run (~5 min), for iterating
//        BENCH_ONLY=throughput,latency,rampup,transports,dashboard   a subset
//        BENCH_DASHBOARD_MINUTES=10    length of the dashboard-cost run
//        BENCH_PROFILE_MINUTES=1,10    also CPU-profile the dashboard's main thread in those minutes
//                                      (DevTools protocol on BENCH_PORT_BASE+3; .cpuprofile files)
//        BENCH_CLIENTS=library,raw,runner,runner1   the throughput benchmark's clients (default all:
//                                      tab, browserRaw, browserLibrary, library, raw, runner, runner1,
//                                      and the controls libraryAgain, browserRawAgain, browserLibraryAgain;
//                                      tabNoMetrics, the tab with metrics=off, only when named)
//        BENCH_STEPS=250,24 BENCH_REPEAT=3   throughput at these send intervals only, each client
//                                      once per step, 3 rounds, no ceiling search (A/B pairs)
//        BENCH_STEPS=half              the tail goal alone: raw WebSockets' ceiling in the browser,
//                                      then the named tab and browserLibrary clients in rounds at half of it
//        BENCH_TAIL_ROUNDS=6           rounds at half the browser's ceiling (the full run does them too)
//        BENCH_RUNNER_B=<bin/live-bench.js of another build>   adds clients runnerB and runner1B
//        BENCH_NO_BUILD=1              skip the builds
//        CHROMIUM_PATH                 default /usr/bin/chromium
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dashboardCost } from './benches/dashboard-cost.mjs';
import { latencyTruth } from './benches/latency-truth.mjs';
import { rampUp } from './benches/ramp-up.mjs';
import { ALL_CLIENTS, KNOWN_CLIENTS, throughput } from './benches/throughput.mjs';
import { transports } from './benches/transports.mjs';
import { startCollector } from './lib/collector.mjs';
import { CHROMIUM_PATH } from './lib/chromium.mjs';
import { startHub } from '../../scripts/hub.mjs';
import { runNodeClient, runTab } from './lib/runs.mjs';
import { writeMarkdown } from './lib/report.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const quick = process.env.BENCH_QUICK === '1';
/** This benchmark's ports (5300-5399 are reserved for it): hub HTTP, hub HTTPS, report collector.
 *  BENCH_PORT_BASE moves all three, so two checkouts can measure at once. */
const portBase = Number(process.env.BENCH_PORT_BASE ?? 5310);
if (!Number.isInteger(portBase) || portBase < 1024 || portBase > 65_530) {
  console.error(`BENCH_PORT_BASE is ${process.env.BENCH_PORT_BASE}: give a whole port number from 1024 to 65530 (three ports from it are used).`);
  process.exit(2);
}
const ports = { http: portBase, https: portBase + 1, collector: portBase + 2 };
const BENCHES = { throughput, latency: latencyTruth, rampup: rampUp, transports, dashboard: dashboardCost };
const only = (process.env.BENCH_ONLY ?? Object.keys(BENCHES).join(',')).split(',').map((s) => s.trim());
const unknown = only.filter((name) => !(name in BENCHES));
if (unknown.length > 0) {
  console.error(`BENCH_ONLY names ${unknown.join(', ')}, which is not a benchmark here. Choose from: ${Object.keys(BENCHES).join(', ')}.`);
  process.exit(2);
}
const clients = process.env.BENCH_CLIENTS ? process.env.BENCH_CLIENTS.split(',').map((s) => s.trim()) : ALL_CLIENTS;
const unknownClients = clients.filter((name) => !KNOWN_CLIENTS.includes(name));
if (unknownClients.length > 0) {
  console.error(`BENCH_CLIENTS names ${unknownClients.join(', ')}, which is not a client here. Choose from: ${KNOWN_CLIENTS.join(', ')}.`);
  process.exit(2);
}

const startedAt = new Date();
const log = (line) => console.error(`[${((Date.now() - startedAt.getTime()) / 1_000).toFixed(0).padStart(4)} s] ${line}`);
if (process.env.BENCH_NO_BUILD !== '1') {
  log('building the headless runner, the hub-sample, the bench build of the dashboard and the comparison clients\' kit...');
  execFileSync('npm', ['run', '--silent', 'build:cli'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  execFileSync('npm', ['run', '--silent', 'build:hub'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  // The dashboard with its benchmark hook (the tab starts from its URL and reports back: the
  // product's build leaves the hook out) into dist/, and the comparison clients' schedule and
  // histograms, the engine's own (bench/tool/kit.ts), into dist-bench/.
  execFileSync('npm', ['run', '--silent', 'build:bench'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
}

const ctx = {
  root, quick, ports, log, clients,
  stepSec: quick ? 5 : 8,
  warmupSec: quick ? 1 : 2,
  latencySec: quick ? 10 : 30,
  transportSec: quick ? 6 : 15,
  dashboardMinutes: Number(process.env.BENCH_DASHBOARD_MINUTES ?? (quick ? 1 : 10)),
};
const machine = {
  cores: os.cpus().length,
  cpuModel: os.cpus()[0]?.model,
  memoryGiB: Math.round(os.totalmem() / 2 ** 30),
  node: process.version,
  chromium: execFileSync(CHROMIUM_PATH, ['--version'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim(),
  loadAverageAtStart: os.loadavg(),
};
// The raw browser client's page is served from the collector's origin and calls the hub from there.
ctx.hub = await startHub({ port: ports.http, httpsPort: ports.https, extraArgs: ['--CorsOrigins', `http://127.0.0.1:${ports.collector}`] });
ctx.collector = await startCollector(ports.collector);
const results = {};
try {
  // A fresh hub compiles its code paths (tiered JIT) and grows its heap during its first
  // messages: do that before anything is measured, over both listeners.
  log('warming the hub up (not measured)...');
  await runNodeClient(ctx, 'raw', { connections: 255, intervalMs: 100, durationSec: quick ? 3 : 6 });
  await runTab(ctx, { connections: 20, intervalMs: 100, durationSec: 3, transport: 'LongPolling' }, { base: ctx.hub.httpsUrl });
  for (const name of only) {
    const loadBefore = os.loadavg()[0];
    log(`${name}...`);
    const benchStart = Date.now();
    results[name] = await BENCHES[name](ctx);
    results[name].loadAverage1m = { before: loadBefore, after: os.loadavg()[0] };
    results[name].wallSec = Math.round((Date.now() - benchStart) / 1_000);
  }
} finally {
  await ctx.collector.close();
  await ctx.hub.stop();
}
machine.loadAverageAtEnd = os.loadavg();

const command = `${quick ? 'BENCH_QUICK=1 ' : ''}${process.env.BENCH_ONLY ? `BENCH_ONLY=${process.env.BENCH_ONLY} ` : ''}${process.env.BENCH_CLIENTS ? `BENCH_CLIENTS=${process.env.BENCH_CLIENTS} ` : ''}npm run bench:tool`;
const doc = { format: 'signalr-live-bench/tool-bench', version: 1, startedAt: startedAt.toISOString(), finishedAt: new Date().toISOString(), command, quick, machine, settings: { stepSec: ctx.stepSec, warmupSec: ctx.warmupSec, latencySec: ctx.latencySec, transportSec: ctx.transportSec, dashboardMinutes: ctx.dashboardMinutes }, results };
// Only a full run of every benchmark replaces the recorded results.
const full = !quick && only.length === Object.keys(BENCHES).length && clients.length === ALL_CLIENTS.length;
const outDir = full ? path.join(root, 'bench') : mkdtempSync(path.join(os.tmpdir(), 'tool-bench-'));
writeFileSync(path.join(outDir, 'tool-results.json'), JSON.stringify(doc, null, 2) + '\n');
const markdown = writeMarkdown(doc, path.join(outDir, 'TOOL-RESULTS.md'), path.join(root, 'bench/TOOL-RESULTS.md'));
console.log(markdown);
log(`wrote ${path.join(outDir, 'tool-results.json')} and ${path.join(outDir, 'TOOL-RESULTS.md')}`);
