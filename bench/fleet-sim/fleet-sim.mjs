// The control plane at fleet size, measured: a real hub-sample (its control hub), a real headless
// lead (`bin/live-bench.js --lead`, watched from inside by lead-probe.mjs) and N simulated agents
// in one Node process (sim-agents.ts: real control connections, real-shaped reports, no benchmark
// connections), for each N asked. Per N it prints one row: the lead's CPU and memory, the hub's
// CPU, the control hub's messages and bytes a second, the merge's lag behind real time, the start
// barrier's spread, the clock rounds' cost, whether the lead's merged totals equal the plan to
// the message, and the machine's load (uptime) before and after.
//
//   npm run build:cli && npm run build:hub
//   node bench/fleet-sim/fleet-sim.mjs --plan      (a 1,000,000-connection plan's cost, nothing started)
//   node bench/fleet-sim/fleet-sim.mjs [--agents 16,64,133,256] [--threads 2] [--per-thread 100]
//        [--duration 20] [--port 5400] [--json bench/fleet-results.json]
//
// --per-thread: connections each agent thread is given (the lead runs agents × threads × it);
// they exist only as counts, the reports carry their figures. Echo, 1 message a second each.
import { build } from 'rolldown';
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { execSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 && args[at + 1] !== undefined ? args[at + 1] : fallback;
};
const AGENT_COUNTS = option('--agents', '16,64,133,256').split(',').map(Number);
const THREADS = Number(option('--threads', '2'));
const PER_THREAD = Number(option('--per-thread', '100'));
const DURATION_S = Number(option('--duration', '20'));
const PORT = Number(option('--port', '5400'));
/** Simulator processes the agents are spread over: on a loaded machine one process falls behind
 *  its own schedule, and its lateness would be read as the lead's. */
const PROCESSES = Number(option('--processes', '4'));
const JSON_OUT = option('--json', null);
const HUB_DLL = path.join(ROOT, 'hub-sample/bin/Release/net10.0/HubSample.dll');
const CLK_TCK = Number(execSync('getconf CLK_TCK').toString().trim());
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

const random = (alphabet, n) => Array.from({ length: n }, () => alphabet[Math.floor(Math.random() * alphabet.length)]).join('');
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const nowUs = () => (performance.timeOrigin + performance.now()) * 1_000;
/** CPU seconds a process has used so far (user + system), from /proc. */
const cpuSecondsOf = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
};
const exited = (child) => new Promise((resolve) => child.once('exit', (code) => resolve(code)));

// Bundled beside node_modules, so that the packages it leaves out resolve.
await mkdir(path.join(ROOT, 'node_modules/.cache'), { recursive: true });
// --table <json>: the Markdown table of a saved run (bench/FLEET-RESULTS.md), nothing measured.
if (option('--table', null)) {
  console.log(markdownTable(JSON.parse(readFileSync(option('--table'), 'utf8'))));
  process.exit(0);
}

const dir = await mkdtemp(path.join(ROOT, 'node_modules/.cache/fleet-sim-'));
// --plan: how long a 1,000,000-connection run takes to validate, plan and size (plan-1m.ts); nothing started.
if (args.includes('--plan')) {
  await build({ input: path.join(ROOT, 'bench/fleet-sim/plan-1m.ts'), platform: 'node', logLevel: 'silent', output: { file: path.join(dir, 'plan-1m.mjs'), format: 'esm' } });
  const planned = spawn(process.execPath, [path.join(dir, 'plan-1m.mjs')], { stdio: 'inherit' });
  const code = await exited(planned);
  console.log(`load ${load()}`);
  await rm(dir, { recursive: true, force: true });
  process.exit(code ?? 1);
}
await build({ input: path.join(ROOT, 'bench/fleet-sim/sim-agents.ts'), platform: 'node', logLevel: 'silent', output: { file: path.join(dir, 'sim-agents.mjs'), format: 'esm' } });

// The hub: the run's endpoint and the control hub, with room for every agent joining at once.
const hub = spawn('dotnet', [HUB_DLL, '--port', String(PORT), '--MaxControlOutsiders', '300', '--MaxAgentsPerSession', '256'], { stdio: ['ignore', process.env.FLEET_HUB_LOG ? 'inherit' : 'ignore', process.env.FLEET_HUB_LOG ? 'inherit' : 'ignore'] });
const base = `http://127.0.0.1:${PORT}`;
for (let i = 0; i < 100; i++) {
  if (await fetch(`${base}/healthz`).then((r) => r.ok, () => false)) break;
  await sleep(200);
}

const rows = [];
try {
  for (const agents of AGENT_COUNTS) rows.push(await measure(agents));
} finally {
  hub.kill();
  await rm(dir, { recursive: true, force: true });
}
console.log(markdownTable({ rows }));
if (JSON_OUT) await writeFile(JSON_OUT, JSON.stringify({ measuredAt: new Date().toISOString(), cpus: os.cpus().length, threads: THREADS, perThread: PER_THREAD, durationS: DURATION_S, rows }, null, 2) + '\n');

/** The simulator processes' figures as one: times by their range, counts summed. */
function merged(parts) {
  const range = (key) => ({ min: Math.min(...parts.map((p) => p[key].min)), max: Math.max(...parts.map((p) => p[key].max)) });
  const sum = (get) => parts.reduce((total, p) => total + get(p), 0);
  const bySecond = new Map();
  for (const p of parts) for (const { second, lastUs } of p.sentBySecond) bySecond.set(second, Math.max(bySecond.get(second) ?? 0, lastUs));
  return {
    runStartUs: parts[0].runStartUs,
    sendStartUs: parts[0].sendStartUs,
    joinedUs: range('joinedUs'),
    startsUs: range('startsUs'),
    gosUs: range('gosUs'),
    offsetUs: range('offsetUs'),
    firstStartUs: Math.min(...parts.map((p) => p.firstStartUs)),
    lastFinalUs: Math.max(...parts.map((p) => p.lastFinalUs)),
    lastRunOverUs: Math.max(...parts.map((p) => p.lastRunOverUs)),
    sentBySecond: [...bySecond].map(([second, lastUs]) => ({ second, lastUs })),
    joinS: Math.max(...parts.map((p) => p.joinUs)) / 1e6,
    clockPings: sum((p) => p.clockPings),
    cpuS: sum((p) => p.cpuS),
    wallS: Math.max(...parts.map((p) => p.wallS)),
    tally: Object.fromEntries(Object.keys(parts[0].tally).map((k) => [k, sum((p) => p.tally[k])])),
    reported: { ...Object.fromEntries(Object.keys(parts[0].reported).map((k) => [k, sum((p) => p.reported[k])])), largestSnapshot: Math.max(...parts.map((p) => p.reported.largestSnapshot)) },
  };
}

async function measure(agents) {
  const connections = agents * THREADS * PER_THREAD;
  const session = random(ALPHABET, 16);
  const secret = random('abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789', 24);
  const leadJson = path.join(dir, `lead-${agents}.json`);
  const probeJson = path.join(dir, `probe-${agents}.json`);
  const simJson = path.join(dir, `sim-${agents}.json`);
  const loadBefore = load();
  const lead = spawn(process.execPath, ['--import', path.join(ROOT, 'bench/fleet-sim/lead-probe.mjs'), path.join(ROOT, 'bin/live-bench.js'),
    '--lead', '--agents', String(agents), '--session', session, '--session-secret', secret, '--control', `${base}/control`,
    '--endpoint', `${base}/signalrbench`, '--scenario', 'echo', '--connections', String(connections), '--duration', String(DURATION_S),
    '--quiet', '--json', leadJson, '--html', leadJson.replace(/\.json$/, '.html')], { env: { ...process.env, FLEET_PROBE_OUT: probeJson }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  const opened = new Promise((resolve) => lead.stderr.on('data', (chunk) => {
    stderr += chunk;
    if (/session \S+ open/.test(stderr)) resolve();
  }));
  const leadExit = exited(lead);
  await Promise.race([opened, leadExit]);
  const hubCpu = [];
  const sampler = setInterval(() => hubCpu.push({ atUs: nowUs(), cpuS: cpuSecondsOf(hub.pid) }), 500);
  const counts = Array.from({ length: Math.min(PROCESSES, agents) }, (_, p) => Math.floor(agents / PROCESSES) + (p < agents % PROCESSES ? 1 : 0)).filter((n) => n > 0);
  const sims = counts.map((n, p) => spawn(process.execPath, [path.join(dir, 'sim-agents.mjs'), '--control', `${base}/control`, '--session', session, '--secret', secret, '--agents', String(n), '--first', String(counts.slice(0, p).reduce((a, b) => a + b, 0)), '--threads', String(THREADS), '--out', `${simJson}.${p}`], { stdio: ['ignore', 'inherit', 'inherit'] }));
  // A simulator that failed leaves the lead waiting for agents: end it then.
  const simExits = Promise.all(sims.map((sim) => exited(sim).then((code) => (code !== 0 && lead.kill(), code))));
  const [leadCode, simCodes] = await Promise.all([leadExit, simExits]);
  clearInterval(sampler);
  const loadAfter = load();
  if (leadCode === null || simCodes.some((code) => code !== 0)) throw new Error(`N=${agents}: the lead exited ${leadCode}, the simulators ${simCodes}\n${stderr}`);
  const resultText = await readFile(leadJson, 'utf8');
  const result = JSON.parse(resultText);
  const htmlBytes = (await readFile(leadJson.replace(/\.json$/, '.html'))).length;
  const probe = JSON.parse(await readFile(probeJson, 'utf8'));
  const simmed = merged(await Promise.all(counts.map(async (_, p) => JSON.parse(await readFile(`${simJson}.${p}`, 'utf8')))));
  const windowStartUs = simmed.sendStartUs;
  const windowEndUs = simmed.sendStartUs + DURATION_S * 1_000_000;
  // The merge: when the lead had read every thread's report of each second of the send window.
  const threads = agents * THREADS;
  const lags = probe.seconds
    .filter((s) => simmed.runStartUs + s.second * 1_000_000 > windowStartUs && simmed.runStartUs + s.second * 1_000_000 <= windowEndUs)
    .map((s) => {
      const sentUs = simmed.sentBySecond.find((x) => x.second === s.second)?.lastUs ?? NaN;
      return { second: s.second, complete: s.threads === threads, lagMs: (s.lastUs - (simmed.runStartUs + s.second * 1_000_000)) / 1_000, relayMs: (s.lastUs - sentUs) / 1_000 };
    });
  const median = (xs) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] : null);
  if (process.env.FLEET_DEBUG) console.error(JSON.stringify({ runStartUs: simmed.runStartUs, sendStartRel: (simmed.sendStartUs - simmed.runStartUs) / 1e6, lead: probe.seconds.map((s) => [s.second, s.threads, ((s.lastUs - simmed.runStartUs) / 1e6).toFixed(2)]), sim: simmed.sentBySecond.map((s) => [s.second, ((s.lastUs - simmed.runStartUs) / 1e6).toFixed(2)]) }));
  const inWindow = (x) => x.atUs > windowStartUs && x.atUs <= windowEndUs;
  const leadSamples = probe.samples.filter(inWindow);
  const hubIn = hubCpu.filter(inWindow);
  const hubCpuShare = hubIn.length > 1 ? (hubIn.at(-1).cpuS - hubIn[0].cpuS) / ((hubIn.at(-1).atUs - hubIn[0].atUs) / 1e6) : null;
  const expected = connections * DURATION_S;
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  const snapshotBytes = simmed.reported.snapshotBytes / Math.max(1, simmed.reported.snapshots);
  const row = {
    agents,
    threads,
    connections,
    exitCode: leadCode,
    verdict: result.verdict?.status ?? null,
    totalsExact: result.totals.sent === expected && result.totals.received === expected && simmed.reported.sent === expected,
    sent: result.totals.sent,
    received: result.totals.received,
    expected,
    leadCpuShare: mean(leadSamples.map((s) => s.cpuShare)),
    leadCpuPeak: Math.max(0, ...leadSamples.map((s) => s.cpuShare)),
    leadRssPeakMB: Math.max(0, ...probe.samples.map((s) => s.rssMB)),
    leadLoopDelayMaxMs: Math.max(0, ...leadSamples.map((s) => s.loopDelayMaxMs)),
    hubCpuShare,
    snapshotsPerSecond: threads,
    snapshotBytesMean: Math.round(snapshotBytes),
    snapshotBytesLargest: simmed.reported.largestSnapshot,
    controlMessagesPerSecond: 2 * threads,
    controlBytesPerSecond: Math.round(2 * threads * snapshotBytes),
    runBytesUp: simmed.tally.bytesUp,
    runBytesDown: simmed.tally.bytesDown,
    mergeLagMedianMs: median(lags.map((l) => l.lagMs)),
    mergeLagMaxMs: lags.length ? Math.max(...lags.map((l) => l.lagMs)) : null,
    relayLagMedianMs: median(lags.map((l) => l.relayMs)),
    relayLagMaxMs: lags.length ? Math.max(...lags.map((l) => l.relayMs)) : null,
    secondsIncomplete: lags.filter((l) => !l.complete).length,
    joinS: simmed.joinS,
    lastJoinToStartS: (simmed.firstStartUs - simmed.joinedUs.max) / 1e6,
    startSpreadMs: (simmed.startsUs.max - simmed.startsUs.min) / 1_000,
    goSpreadMs: (simmed.gosUs.max - simmed.gosUs.min) / 1_000,
    goMarginMs: (simmed.sendStartUs - simmed.gosUs.max) / 1_000,
    finalToRunOverS: (simmed.lastRunOverUs - simmed.lastFinalUs) / 1e6,
    clockPings: simmed.clockPings,
    clockOffsetMs: { min: simmed.offsetUs.min / 1_000, max: simmed.offsetUs.max / 1_000 },
    simProcesses: counts.length,
    simCpuShare: simmed.cpuS / simmed.wallS,
    resultBytes: Buffer.byteLength(resultText),
    htmlBytes,
    lostWorkers: (result.workers ?? []).filter((w) => w.lost).length,
    verdictSentence: result.verdict?.sentence ?? null,
    firstFailure: result.workerFailures?.[0] ?? null,
    loadBefore,
    loadAfter,
    // Per second, from the run's start: when the lead read each second's last report, and its
    // CPU and event-loop delay (where a stall was).
    perSecond: {
      lags: lags.map((l) => ({ second: l.second, lagMs: Math.round(l.lagMs), relayMs: Math.round(l.relayMs) })),
      lead: probe.samples.map((x) => ({ atS: +((x.atUs - simmed.runStartUs) / 1e6).toFixed(1), cpu: +x.cpuShare.toFixed(3), loopMaxMs: Math.round(x.loopDelayMaxMs), rssMB: Math.round(x.rssMB) })),
    },
  };
  const { perSecond, ...line } = row;
  console.log(JSON.stringify(line));
  return row;
}

/** One line per N: what docs/sizing.md and bench/FLEET-RESULTS.md quote. */
function markdownTable({ rows }) {
  const ms = (x) => (x === null || x === undefined ? '–' : `${Math.round(x)}`);
  const pct = (x) => (x === null || x === undefined ? '–' : `${(100 * x).toFixed(1)}%`);
  const head = '| agents | threads | connections | exit, verdict | totals exact | lead CPU mean / peak | lead RSS peak | lead loop delay max | hub CPU | control msg/s (in + out) | control KB/s (in + out) | snapshot bytes mean / largest | merge lag median / max | of which relay + lead, median / max | start spread | go spread, margin left | lost threads | load before → after |';
  const rule = '|' + '---:|'.repeat(18);
  const lines = rows.map((r) => `| ${r.agents} | ${r.threads} | ${r.connections.toLocaleString('en-US')} | ${r.exitCode}, ${r.verdict} | ${r.totalsExact ? `yes (${r.sent.toLocaleString('en-US')})` : `no (${r.sent.toLocaleString('en-US')} of ${r.expected.toLocaleString('en-US')})`} | ${pct(r.leadCpuShare)} / ${pct(r.leadCpuPeak)} | ${Math.round(r.leadRssPeakMB)} MB | ${ms(r.leadLoopDelayMaxMs)} ms | ${pct(r.hubCpuShare)} | ${r.controlMessagesPerSecond.toLocaleString('en-US')} | ${Math.round(r.controlBytesPerSecond / 1000).toLocaleString('en-US')} | ${r.snapshotBytesMean.toLocaleString('en-US')} / ${r.snapshotBytesLargest.toLocaleString('en-US')} | ${ms(r.mergeLagMedianMs)} / ${ms(r.mergeLagMaxMs)} ms | ${ms(r.relayLagMedianMs)} / ${ms(r.relayLagMaxMs)} ms | ${ms(r.startSpreadMs)} ms | ${ms(r.goSpreadMs)} ms, ${ms(r.goMarginMs)} ms | ${r.lostWorkers ?? '–'} | ${r.loadBefore.split(' ')[0]} → ${r.loadAfter.split(' ')[0]} |`);
  return [head, rule, ...lines].join('\n');
}
