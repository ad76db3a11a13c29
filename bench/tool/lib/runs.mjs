// One measured run of each client against the bench's hub, reduced to the same record:
// - tab: the dashboard in a directly launched Chromium, started by its URL (src/lib/bench-hook.ts);
// - library / raw: the Node clients in bench/tool/clients, each in its own process;
// - runner: the headless runner (bin/live-bench.js, the engine in worker threads), its own process.
// CPU is read from /proc for the client's processes and for the hub, over the measured window only
// (after the warm-up, until the last planned send), so start-up and connecting are left out.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createLatencyHistogram, recordLatencyUs, summarizeLatency } from '../../../dist-bench/kit.js';
import { chromiumCpu, launchChromium } from './chromium.mjs';
import { CpuSampler, processCpu } from './cpu.mjs';

/** Reports never take longer than the run plus this, in ms (launch, connects, drain, posting). */
const REPORT_SLACK_MS = 60_000;

/**
 * Why a load does not hold, in words; empty when it holds: the guide's rule (p99 under 1 s), every
 * connection open, at most 1% of slots missed and at most 0.1% of messages lost.
 */
export function failures(r) {
  const reasons = [];
  if (r.connectionsOpened < r.connections) reasons.push(`${r.connections - r.connectionsOpened} connections did not open`);
  if (r.p99Ms >= 1_000) reasons.push(`p99 ${Math.round(r.p99Ms)} ms`);
  if (r.missedSlots > 0.01 * r.sent) reasons.push(`missed ${(100 * r.missedSlots / r.sent).toFixed(1)}% of slots`);
  if (r.lost > 0.001 * r.sent) reasons.push(`lost ${(100 * r.lost / r.sent).toFixed(1)}%`);
  return reasons;
}

function record(client, load, totals, latency, uncorrected, cpu, hubCpu, extra = {}) {
  const measuredSec = load.durationSec - (load.warmupSec ?? 0);
  const perThousand = (sec) => (totals.received > 0 ? sec / (totals.received / 1_000) : null);
  const r = {
    client,
    transport: load.transport ?? 'WebSockets',
    protocol: load.protocol ?? 'json',
    connections: load.connections,
    intervalMs: load.intervalMs,
    targetPerSec: Math.round((load.connections * 1_000) / load.intervalMs),
    connectionsOpened: totals.connectionsOpened,
    sent: totals.sent,
    received: totals.received,
    lost: totals.lost,
    missedSlots: totals.missedSlots,
    receivedPerSec: Math.round(totals.received / measuredSec),
    p50Ms: latency.p50Us / 1_000,
    p99Ms: latency.p99Us / 1_000,
    p999Ms: latency.p999Us / 1_000,
    maxMs: latency.maxUs / 1_000,
    uncorrectedP50Ms: uncorrected.p50Us / 1_000,
    uncorrectedP99Ms: uncorrected.p99Us / 1_000,
    cpuSec: cpu,
    cpuSecPer1000: perThousand(cpu.total),
    hubCpuSecPer1000: perThousand(hubCpu.total),
    measuredSec,
    ...extra,
  };
  r.failures = failures(r);
  r.holds = r.failures.length === 0;
  return r;
}

/**
 * Runs the dashboard in a fresh Chromium with `load` and returns its record; `extraQuery` adds
 * URL parameters (connectConcurrency, workers). `keepReport` adds the page's whole report. `page`
 * is a folder of the hub's dashboard directory holding another build (`x/`), for A/B pairs.
 */
export async function runTab(ctx, load, { extraQuery = {}, base = ctx.hub.httpUrl, keepReport = false, page = '', debugPort, whileRunning } = {}) {
  const endpointUrl = `${base}/signalrbench`;
  const expected = ctx.collector.expect(load.durationSec * 1_000 + REPORT_SLACK_MS);
  const query = new URLSearchParams({
    autostart: '1', report: expected.url, endpointUrl, connections: String(load.connections), sendIntervalMs: String(load.intervalMs),
    durationSec: String(load.durationSec), warmupSec: String(load.warmupSec ?? 0), messageBytes: String(load.messageBytes ?? 2_048),
    transport: load.transport ?? 'WebSockets', protocol: load.protocol ?? 'json', ...extraQuery,
  });
  const browser = launchChromium(`${base}/${page}?${query}`, { debugPort });
  // Work beside the run (CPU profiles of the page): awaited before the browser closes.
  const beside = whileRunning?.().catch((error) => ctx.log(`beside the run: ${error.message}`));
  const cpu = new CpuSampler(chromiumCpu(browser));
  const hubCpu = new CpuSampler(processCpu(ctx.hub.process.pid, 'hub'));
  try {
    const report = await expected.report;
    cpu.stop();
    hubCpu.stop();
    await beside;
    if (!report.result) throw new Error(`The page refused the run: ${report.errors.join(' ')}`);
    const { result, phaseStartedAtMs: phase } = report;
    // The measured window is the planned send window (the run's own clock, epoch µs), as for the
    // runner: exact, where the page's phase times are only as fine as its refresh.
    const fromMs = result.sendWindow ? result.sendWindow.startUs / 1_000 + (load.warmupSec ?? 0) * 1_000 : phase.running + (load.warmupSec ?? 0) * 1_000;
    const toMs = result.sendWindow ? result.sendWindow.endUs / 1_000 : phase.draining ?? phase.done;
    const totals = { ...result.totals, lost: result.fates.lost };
    return record('tab', load, totals, result.latency, result.uncorrectedLatency, cpu.between(fromMs, toMs), hubCpu.between(fromMs, toMs), {
      rampMs: phase.running - phase.start,
      errorCounts: result.errorCounts,
      longTasks: report.longTasks,
      crossOriginIsolated: report.crossOriginIsolated,
      ...(keepReport ? { report, cpuSampler: cpu } : {}),
    });
  } finally {
    cpu.stop();
    hubCpu.stop();
    await browser.close();
  }
}

/** Runs the raw browser client (bench/tool/clients/browser-raw) in a fresh Chromium; with
 *  `library`, its plain-@microsoft/signalr variant ('browserLibrary'). */
export async function runBrowserRaw(ctx, load, { library = false } = {}) {
  const expected = ctx.collector.expect(load.durationSec * 1_000 + REPORT_SLACK_MS);
  const query = new URLSearchParams({ report: expected.url, endpointUrl: `${ctx.hub.httpUrl}/signalrbench`, connections: String(load.connections),
    intervalMs: String(load.intervalMs), durationSec: String(load.durationSec), warmupSec: String(load.warmupSec ?? 0), messageBytes: String(load.messageBytes ?? 2_048), workers: '2', ...(library ? { client: 'library' } : {}) });
  const browser = launchChromium(`${ctx.collector.origin}/raw/index.html?${query}`);
  const cpu = new CpuSampler(chromiumCpu(browser));
  const hubCpu = new CpuSampler(processCpu(ctx.hub.process.pid, 'hub'));
  try {
    const r = await expected.report;
    cpu.stop();
    hubCpu.stop();
    const totals = { connectionsOpened: r.connectionsOpened, sent: r.sent, received: r.received, missedSlots: r.missedSlots, lost: Math.max(0, r.sent - r.received) };
    return record(library ? 'browserLibrary' : 'browserRaw', load, totals, summarize(r.latencyUs), summarize(r.uncorrectedUs), cpu.between(r.measuredFromMs, r.measuredToMs),
      hubCpu.between(r.measuredFromMs, r.measuredToMs), { rampMs: r.rampMs, crossOriginIsolated: r.crossOriginIsolated });
  } finally {
    cpu.stop();
    hubCpu.stop();
    await browser.close();
  }
}

/** The tool's own histogram (core/latency/latency.ts, through the kit), for latencies a client kept one by one. */
function summarize(valuesUs) {
  const h = createLatencyHistogram();
  for (const v of valuesUs) recordLatencyUs(h, v);
  return summarizeLatency(h);
}

/** Runs one of the Node clients ('library' or 'raw') in its own process. */
export async function runNodeClient(ctx, client, load) {
  const script = path.join(ctx.root, `bench/tool/clients/${client}-client.mjs`);
  const options = { endpointUrl: `${ctx.hub.httpUrl}/signalrbench`, connections: load.connections, intervalMs: load.intervalMs,
    durationSec: load.durationSec, warmupSec: load.warmupSec ?? 0, messageBytes: load.messageBytes ?? 2_048 };
  const run = await runNodeProcess(ctx, client, [script, JSON.stringify(options)]);
  const result = JSON.parse(run.stdout.trim().split('\n').at(-1));
  return record(client, load, result, result.latency, result.uncorrectedLatency,
    run.cpu.between(result.measuredFromMs, result.measuredToMs), run.hubCpu.between(result.measuredFromMs, result.measuredToMs), { rampMs: result.rampMs });
}

/**
 * Runs the headless runner (bin/live-bench.js, built by `npm run build:cli`) with `workers`
 * threads; its main thread and worker threads are one process, counted whole. Quiet (no progress
 * lines) and without the guide's exit code: the bench judges every step by the same rule. The
 * measured window comes from the result's planned send window.
 */
export async function runRunner(ctx, load, { workers = 2, bin = path.join(ctx.root, 'bin/live-bench.js'), name = workers === 2 ? 'runner' : `runner${workers}` } = {}) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tool-bench-runner-'));
  const jsonPath = path.join(dir, 'result.json');
  try {
    const args = [bin, '--endpoint', `${ctx.hub.httpUrl}/signalrbench`, '--scenario', 'echo',
      '--connections', String(load.connections), '--workers', String(workers), '--interval-ms', String(load.intervalMs),
      '--duration', String(load.durationSec), '--warmup', String(load.warmupSec ?? 0), '--message-bytes', String(load.messageBytes ?? 2_048),
      '--json', jsonPath, '--quiet', '--no-guide-rule'];
    const run = await runNodeProcess(ctx, 'runner', args);
    const result = JSON.parse(await readFile(jsonPath, 'utf8'));
    if (!result.sendWindow) throw new Error(`The runner's result has no send window (outcome ${result.outcome?.kind}): it never started sending. ${run.stderr}`);
    const fromMs = (result.sendWindow.startUs + result.config.warmupSec * 1_000_000) / 1_000;
    const toMs = result.sendWindow.endUs / 1_000;
    // lost is null only in a run that did not drain; then what was sent and never arrived.
    const totals = { ...result.totals, lost: result.fates.lost ?? Math.max(0, result.totals.sent - result.totals.received) };
    // The engine counts the slots it never fired (a client that fell behind) as planned, not sent
    // and missed. A check that the plan is whole: any slot of the schedule missing from it still
    // counts as missed, so the runner is never judged on less than the script's whole schedule.
    const unfiredSlots = Math.max(0, echoSlots(load, result.sendWindow, result.config.warmupSec) - result.fates.planned);
    totals.missedSlots += unfiredSlots;
    const r = record(name, load, totals, result.latency, result.uncorrectedLatency,
      run.cpu.between(fromMs, toMs), run.hubCpu.between(fromMs, toMs), { workers, outcome: result.outcome.kind, errorCounts: result.errorCounts, workerFailures: result.workerFailures, unfiredSlots });
    // A worker that failed took its share of the load with it: that step does not hold.
    if (result.workerFailures.length > 0) {
      r.failures.push(...result.workerFailures);
      r.holds = false;
    }
    return r;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Slots of the echo schedule in the measured window: connection i's first at start + i/N x interval. */
function echoSlots(load, { startUs, endUs }, warmupSec) {
  const intervalUs = load.intervalMs * 1_000;
  const fromUs = startUs + warmupSec * 1_000_000;
  let slots = 0;
  for (let i = 0; i < load.connections; i++) {
    const firstUs = startUs + (i / load.connections) * intervalUs;
    slots += Math.max(0, Math.ceil((endUs - firstUs) / intervalUs)) - Math.max(0, Math.ceil((fromUs - firstUs) / intervalUs));
  }
  return slots;
}

/** Runs `node args…`, sampling its CPU and the hub's; rejects when it exits with anything but 0. */
async function runNodeProcess(ctx, client, args) {
  const child = spawn(process.execPath, args, { cwd: ctx.root, stdio: ['ignore', 'pipe', 'pipe'] });
  const cpu = new CpuSampler(processCpu(child.pid, 'node'));
  const hubCpu = new CpuSampler(processCpu(ctx.hub.process.pid, 'hub'));
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-2_000)));
  const code = await new Promise((resolve) => child.on('exit', resolve));
  cpu.stop();
  hubCpu.stop();
  if (code !== 0) throw new Error(`The ${client} client exited with ${code}: ${stderr}`);
  return { stdout, stderr, cpu, hubCpu };
}
