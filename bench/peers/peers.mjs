// The peer benchmark (`npm run bench:peers`, i.e. `node bench/peers/peers.mjs [options]`): the
// runner (`node bin/live-bench.js`) beside the two clients a user could run instead, in the same
// run, against the same local hub-sample, the order rotated from step to step and repeat to repeat:
// - the plain-library Node control (bench/tool/clients/library-client.mjs: @microsoft/signalr, one
//   thread, the engine's open loop);
// - the .NET peer (bench/peers/dotnet-client: Microsoft.AspNetCore.SignalR.Client, workstation GC,
//   one shared HTTP handler, the same open loop and text).
// Each client meets a hub started afresh and warmed alike (as bench/headless-10k.sh does), and is
// sampled every 250 ms (its process tree's CPU and resident memory, /proc). Per client and step:
// - memory per connection: the tree's peak RSS over the connections opened (fixed cost included);
// - connects per second: connections opened over the client's own ramp (first connect to last open);
// - CPU per connect: the tree's CPU from its start (process and thread start-up included) to its
//   last connection open, over the connections opened;
// - CPU per 1,000 round trips: the tree's CPU over the measured window (after the warm-up until
//   the last planned send), over the messages sent in it;
// - p99 (from the planned send time, HdrHistogram) and lost, and the accounting: sent = received + lost.
// The 1-minute load average is read before and after each client and kept beside its figures: on
// a shared machine a figure at load 8 is not one at load 1, so compare within a round.
// Rows go to bench/peers-results.json (one object per client and step) and a table in
// bench/PEERS-RESULTS.md; each runner row is compared with the last one at the same step
// (bench/peers/peers-compare.mjs) and a ratio that got worse past the run-to-run spread says so.
//
// Options: --steps 1000x10,5000x1,10000x1,15000x1 (connections x messages a second per
//   connection), --clients runner,control,dotnet, --repeats 1, --duration 20 (s, warm-up
//   included), --warmup 5, --port 5330, --concurrency 32 (connects in flight, every client),
//   --json <file> (rows only there; the results files are left alone: the CI smoke test),
//   --note <text> (kept in each row).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runnerRampSeconds } from '../connections-compare.mjs';
import { startHub } from '../../scripts/hub.mjs';
import { accountingHolds, compareWithLast, readHistory, HISTORY } from './peers-compare.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DOTNET_PROJECT = path.join(ROOT, 'bench/peers/dotnet-client/DotnetClient.csproj');
const DOTNET_DLL = path.join(ROOT, 'bench/peers/dotnet-client/bin/Release/net10.0/peer-dotnet-client.dll');
const RESULTS_MD = path.join(ROOT, 'bench/PEERS-RESULTS.md');
const SAMPLE_MS = 250;
const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK']).stdout.toString().trim()) || 100;
const WARM_CONNECTIONS = 500;

export function parseArgs(argv) {
  const o = { steps: '1000x10,5000x1,10000x1,15000x1', clients: 'runner,control,dotnet', repeats: 1, duration: 20, warmup: 5, port: 5330, concurrency: 32, json: null, note: '' };
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i].replace(/^--/, '');
    if (!(key in o)) throw new Error(`Unknown option ${argv[i]}: use --steps, --clients, --repeats, --duration, --warmup, --port, --concurrency, --json or --note.`);
    o[key] = typeof o[key] === 'number' ? Number(argv[i + 1]) : argv[i + 1];
  }
  const steps = o.steps.split(',').map((s) => {
    const m = /^(\d+)x(\d+)$/.exec(s.trim());
    if (!m) throw new Error(`A step is <connections>x<messages a second per connection>, e.g. 1000x10, not '${s}'.`);
    return { connections: Number(m[1]), perSec: Number(m[2]) };
  });
  const clients = o.clients.split(',');
  for (const c of clients) if (!['runner', 'control', 'dotnet'].includes(c)) throw new Error(`Unknown client '${c}': runner, control or dotnet.`);
  return { ...o, steps, clients };
}

const read = (p) => {
  try {
    return readFileSync(p, 'utf8');
  } catch {
    return '';
  }
};
function descendantsOf(pid) {
  let tasks = [];
  try {
    tasks = (spawnSync('ls', [`/proc/${pid}/task`]).stdout.toString().trim().split('\n')).filter(Boolean);
  } catch {}
  const children = tasks.flatMap((t) => read(`/proc/${pid}/task/${t}/children`).trim().split(/\s+/).filter(Boolean).map(Number));
  return children.flatMap((c) => [c, ...descendantsOf(c)]);
}
/** CPU seconds of a process (its own and its reaped children's) and its RSS in KB. */
function processUsage(pid) {
  const stat = read(`/proc/${pid}/stat`);
  if (!stat) return { cpuS: 0, rssKb: 0 };
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const cpuS = (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / CLK_TCK;
  const rssKb = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(read(`/proc/${pid}/status`))?.[1] ?? 0);
  return { cpuS, rssKb };
}

/** Samples a client's process tree until it exits: [{ atMs, cpuS, rssKb }]. */
function sampleTree(pid, samples) {
  const take = () => {
    const pids = [pid, ...descendantsOf(pid)];
    let cpuS = 0;
    let rssKb = 0;
    for (const p of pids) {
      const u = processUsage(p);
      cpuS += u.cpuS;
      rssKb += u.rssKb;
    }
    if (rssKb > 0) samples.push({ atMs: Date.now(), cpuS, rssKb });
  };
  take();
  const timer = setInterval(take, SAMPLE_MS);
  return () => clearInterval(timer);
}

/** The tree's CPU seconds at `atMs`, interpolated between the samples around it. */
export function cpuAt(samples, atMs) {
  if (samples.length === 0) return null;
  if (atMs <= samples[0].atMs) return samples[0].cpuS;
  for (let i = 1; i < samples.length; i++) {
    const a = samples[i - 1];
    const b = samples[i];
    if (atMs <= b.atMs) return a.cpuS + ((b.cpuS - a.cpuS) * (atMs - a.atMs)) / Math.max(1, b.atMs - a.atMs);
  }
  return samples.at(-1).cpuS;
}

const loadNow = () => Number(loadavg()[0].toFixed(2));

/** A hub started afresh is warmed by the same short run of the control for each client (the JIT,
 *  the thread pool): what a client meets does not depend on its place in the order. */
export async function warmHub(endpoint, connections) {
  await run('node', ['bench/tool/clients/library-client.mjs', JSON.stringify({ endpointUrl: endpoint, connections: Math.min(WARM_CONNECTIONS, connections), intervalMs: 1000, durationSec: 2, warmupSec: 0, connectConcurrency: 32 })]);
  await new Promise((r) => setTimeout(r, 1_000));
}

/** Runs a command from the project's root, its process tree sampled (sampleTree) until it exits. */
export function run(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], ...options });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const samples = [];
    const stop = sampleTree(child.pid, samples);
    const startedMs = Date.now();
    child.on('exit', (code) => {
      stop();
      resolve({ code, stdout, stderr, samples, startedMs });
    });
  });
}

/** What each client is told, in its own words: the same load. */
function clientCommand(client, step, o, endpoint, scratch) {
  const intervalMs = Math.round(1_000 / step.perSec);
  const load = { endpointUrl: endpoint, connections: step.connections, intervalMs, durationSec: o.duration, warmupSec: o.warmup, connectConcurrency: o.concurrency };
  if (client === 'runner') {
    const json = path.join(scratch, `runner-${step.connections}.json`);
    return { json, command: 'node', args: ['bin/live-bench.js', '--endpoint', endpoint, '--connections', String(step.connections), '--interval-ms', String(intervalMs), '--duration', String(o.duration), '--warmup', String(o.warmup), '--connect-concurrency', String(o.concurrency), '--quiet', '--no-guide-rule', '--json', json] };
  }
  if (client === 'control') return { command: 'node', args: ['bench/tool/clients/library-client.mjs', JSON.stringify(load)] };
  return { command: 'dotnet', args: [DOTNET_DLL, JSON.stringify(load)] };
}

/** One client's figures from its own report, in one shape. */
export function figuresOf(client, report, o) {
  if (client === 'runner') {
    const t = report.totals;
    const runStartMs = report.sendWindow.runStartUs / 1_000;
    const rampS = runnerRampSeconds(report);
    const notSent = Object.values(report.fates.notSent).reduce((sum, n) => sum + n, 0);
    return {
      opened: t.connectionsOpened,
      failed: t.connectionsFailed,
      planned: report.fates.planned,
      notSent,
      sent: t.sent,
      received: t.received - t.duplicated,
      lost: report.fates.lost,
      missedSlots: t.missedSlots,
      p99Ms: report.latency.count > 0 ? report.latency.p99Us / 1_000 : null,
      rampStartMs: runStartMs,
      rampEndMs: rampS === null ? null : runStartMs + rampS * 1_000,
      measuredFromMs: report.sendWindow.startUs / 1_000 + o.warmup * 1_000,
      measuredToMs: report.sendWindow.endUs / 1_000,
      engines: report.config.workers,
    };
  }
  return {
    opened: report.connectionsOpened,
    failed: report.connectFailures,
    sent: report.sent,
    received: report.received,
    lost: report.lost,
    missedSlots: report.missedSlots,
    p99Ms: report.latency.count > 0 ? report.latency.p99Us / 1_000 : null,
    rampStartMs: report.rampStartMs,
    rampEndMs: report.rampEndMs,
    measuredFromMs: report.measuredFromMs,
    measuredToMs: report.measuredToMs,
  };
}

/** The row of one client's run: its figures and the costs cut from its samples by phase. */
export function rowOf({ client, step, figures: f, samples, startedMs, loadBefore, loadAfter, round, position, note }) {
  const round3 = (v, digits) => (v === null || !Number.isFinite(v) ? null : Number(v.toFixed(digits)));
  const peakKb = Math.max(0, ...samples.map((s) => s.rssKb));
  const rampCpuS = f.rampEndMs === null ? null : cpuAt(samples, f.rampEndMs) - (samples[0]?.cpuS ?? 0);
  const measuredCpuS = cpuAt(samples, f.measuredToMs) - cpuAt(samples, f.measuredFromMs);
  const rampS = f.rampEndMs === null ? null : (f.rampEndMs - f.rampStartMs) / 1_000;
  return {
    date: new Date(startedMs).toISOString().slice(0, 16).replace('T', ' '),
    step: `${step.connections}x${step.perSec}`,
    connections: step.connections,
    perSec: step.perSec,
    client,
    round,
    position,
    opened: f.opened,
    failed: f.failed,
    // Every planned send: the runner's plan (its fates); the peers send every slot, late or not.
    planned: f.planned ?? f.sent,
    notSent: f.notSent ?? 0,
    sent: f.sent,
    received: f.received,
    lost: f.lost,
    missedSlots: f.missedSlots,
    p99Ms: round3(f.p99Ms, 1),
    peakMb: Math.round(peakKb / 1024),
    kbPerConnection: f.opened > 0 ? Math.round(peakKb / f.opened) : null,
    connectsPerSec: rampS ? Math.round(f.opened / rampS) : null,
    cpuMsPerConnect: rampCpuS === null || f.opened === 0 ? null : round3((rampCpuS * 1_000) / f.opened, 3),
    cpuMsPer1000: f.sent > 0 ? round3((measuredCpuS * 1_000 * 1_000) / f.sent, 1) : null,
    ...(f.engines === undefined ? {} : { engines: f.engines }),
    load: `${loadBefore} → ${loadAfter}`,
    note,
  };
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const scratch = mkdtempSync(path.join(tmpdir(), 'peers-'));
  const build = (cmd, args) => {
    const r = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit' });
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}).`);
  };
  if (o.clients.includes('runner') && !existsSync(path.join(ROOT, 'dist-cli/live-bench.js'))) build('npx', ['vite', 'build', '-c', 'vite.cli.config.ts', '--logLevel', 'warn']);
  if (!existsSync(path.join(ROOT, 'dist-bench/kit.js'))) build('npx', ['vite', 'build', '-c', 'vite.bench.config.ts', '--logLevel', 'warn']);
  if (o.clients.includes('dotnet')) build('dotnet', ['build', DOTNET_PROJECT, '-c', 'Release', '--nologo', '-v', 'quiet']);
  const rows = [];
  let rotation = 0;
  for (let repeat = 0; repeat < o.repeats; repeat++) {
    for (const step of o.steps) {
      const order = o.clients.map((_, i) => o.clients[(i + rotation) % o.clients.length]);
      rotation++;
      for (const [position, client] of order.entries()) {
        // A hub started afresh and warmed by the same short run for each client.
        const hub = await startHub({ port: o.port, extraArgs: [] });
        try {
          const endpoint = `${hub.httpUrl}/signalrbench`;
          await warmHub(endpoint, step.connections);
          const { command, args, json } = clientCommand(client, step, o, endpoint, scratch);
          const loadBefore = loadNow();
          // Each connection is a file descriptor: the soft limit raised to the hard one.
          const result = await run('bash', ['-c', 'ulimit -n "$(ulimit -Hn)"; exec "$@"', 'client', command, ...args]);
          const loadAfter = loadNow();
          let report;
          try {
            report = json ? JSON.parse(readFileSync(json, 'utf8')) : JSON.parse(result.stdout.trim().split('\n').at(-1));
          } catch {
            throw new Error(`${client} at ${step.connections}x${step.perSec} gave no report (exit ${result.code}): ${result.stderr.slice(-2_000)}`);
          }
          const row = rowOf({ client, step, figures: figuresOf(client, report, o), samples: result.samples, startedMs: result.startedMs, loadBefore, loadAfter, round: repeat + 1, position: position + 1, note: o.note });
          row.accounting = accountingHolds(row) ? 'sums' : 'DOES NOT SUM';
          rows.push(row);
          console.log(JSON.stringify(row));
        } finally {
          await hub.stop();
        }
      }
    }
  }
  if (o.json) {
    writeFileSync(o.json, JSON.stringify(rows, null, 1) + '\n');
    return;
  }
  const history = readHistory();
  for (const row of rows.filter((r) => r.client === 'runner')) {
    const peers = rows.filter((r) => r.step === row.step && r.round === row.round && r.client !== 'runner');
    for (const line of compareWithLast(history, row, peers).lines) console.log(line);
  }
  const command = `npm run bench:peers -- ${process.argv.slice(2).join(' ')}`.trim();
  for (const row of rows) row.command = command;
  writeFileSync(HISTORY, JSON.stringify([...history, ...rows], null, 1) + '\n');
  writeTable([...history, ...rows]);
}

/** The table in bench/PEERS-RESULTS.md, every row of bench/peers-results.json, between its markers. */
export function writeTable(rows, file = RESULTS_MD) {
  const cell = (v) => (v === null || v === undefined ? '–' : v);
  const lines = rows.map((r) =>
    `| ${r.date} | ${r.step} | ${r.round}.${r.position} | ${r.client}${r.engines ? ` (${r.engines} engine${r.engines === 1 ? '' : 's'})` : ''} | ${r.opened} | ${cell(r.planned)} / ${cell(r.notSent)} | ${r.sent} / ${r.received} / ${r.lost} (${r.accounting}) | ${cell(r.missedSlots)} | ${cell(r.p99Ms)} | ${r.peakMb} | ${cell(r.kbPerConnection)} | ${cell(r.connectsPerSec)} | ${cell(r.cpuMsPerConnect)} | ${cell(r.cpuMsPer1000)} | ${r.load} | ${r.command ? `\`${r.command}\`` : ''} |`);
  const md = readFileSync(file, 'utf8');
  const start = md.indexOf('<!-- rows -->');
  const end = md.indexOf('<!-- /rows -->');
  writeFileSync(file, `${md.slice(0, start)}<!-- rows -->\n${lines.join('\n')}\n${md.slice(end)}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(error.message);
    process.exit(1);
  });
}
