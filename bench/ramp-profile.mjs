// Where each client's CPU goes while it connects (`npm run bench:ramp-profile -- [options]`): the
// runner and the plain-library Node control (bench/tool/clients/library-client.mjs) each open the
// same connections to a hub started afresh and warmed alike (bench/peers/peers.mjs warmHub), under
// Linux perf's cpu-clock, which samples a thread only while it runs on a core. V8's own profiler
// (`node --cpu-prof`) samples the wall clock: on a loaded machine a thread waiting for a core
// inside a system call is charged to that call, and 5% cannot be told apart (issue 44).
// The samples are cut to each client's connects, to the microsecond: the runner's from its first
// connect to its last open (its result's sendWindow.connectsFromUs and lastOpenedUs), the
// control's from its ramp's start to its end (rampStartMs, rampEndMs). perf stamps them with
// CLOCK_REALTIME, the clock both clients write.
// Each sample is put in one place by the frame it was taken in (its leaf): V8's garbage
// collector, its compiler, its runtime and builtins, node's C++, the C library, the kernel, or
// JavaScript by package; then, for the runner less the control, by the nearest JavaScript frame
// above the leaf, which names the code a builtin or the runtime worked for.
//
// Options: --connections 10000, --clients runner,control, --repeats 1, --port 5332,
//   --concurrency 32 (connects in flight, both clients), --frequency 499 (samples a second).
// Needs perf (Debian: `apt-get install linux-perf`) and kernel.perf_event_paranoid at most 2.
// Prints its tables; results worth keeping go to bench/PEERS-RESULTS.md with the command.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startHub } from '../scripts/hub.mjs';
import { run, warmHub } from './peers/peers.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function parseArgs(argv) {
  const o = { connections: 10_000, clients: 'runner,control', repeats: 1, port: 5332, concurrency: 32, frequency: 499 };
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i]?.replace(/^--/, '');
    if (!(key in o)) throw new Error(`Unknown option ${argv[i]}: use --connections, --clients, --repeats, --port, --concurrency or --frequency.`);
    o[key] = typeof o[key] === 'number' ? Number(argv[i + 1]) : String(argv[i + 1]);
    if (typeof o[key] === 'number' && !(o[key] > 0)) throw new Error(`--${key} takes a positive number, not "${argv[i + 1]}".`);
  }
  o.clients = o.clients.split(',');
  for (const c of o.clients) if (c !== 'runner' && c !== 'control') throw new Error(`--clients takes runner and control, not "${c}".`);
  return o;
}

/** One sample's place, by its leaf frame (`symbol (dso)` as perf script writes it). */
export function placeOf(frame) {
  if (frame.includes('[kernel.kallsyms]')) return 'kernel';
  if (/JS:/.test(frame)) return `JS ${packageOf(frame)}`;
  if (/Marking|Scaveng|Sweep|Heap::|GC|Compact|Evacuat|MemoryAllocator|MemoryChunk|Marker|RememberedSet|Minor|WeakObjects/.test(frame)) return 'V8 garbage collector';
  if (/compiler::|[Mm]aglev|turboshaft|Turbofan/.test(frame)) return 'V8 compiler';
  if (frame.includes('Builtins_')) return 'V8 builtins';
  if (frame.includes('v8::')) return 'V8 runtime';
  if (/node::|uv_|uv__/.test(frame)) return "node's C++ and libuv";
  if (/libc\.so|libstdc\+\+|libm\.so/.test(frame)) return 'C library';
  return 'other';
}

/** The package a JavaScript frame's code is from: node's own modules, a dependency, the runner's bundle, the control's kit. */
export function packageOf(frame) {
  const module = /node:([a-z_]+(?:\/[a-z_]+){0,2})/.exec(frame);
  if (module) return `node:${module[1].replace(/^internal\//, '')}`;
  const dependency = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(frame);
  if (dependency) return dependency[1];
  if (frame.includes('dist-cli/')) return 'the runner';
  if (/dist-bench\/|bench\/tool\//.test(frame)) return 'the control';
  if (frame.includes('RegExp:')) return 'regular expressions';
  return 'other';
}

/** The nearest JavaScript frame of a call chain (leaf first), as a short name; null when none. */
export function nearestJs(frames) {
  const frame = frames.find((f) => f.includes('JS:'));
  if (!frame) return null;
  return frame
    .replace(/^\s*[0-9a-f]+ /, '')
    .replace(/\+0x[0-9a-f]+/, '')
    .replace(/ \(\/[^)]*\)$/, '')
    .replace(/JS:[*^~+]?/, '')
    .replace(/file:\/\/\S*dist-cli\/\S*?\.js/, 'runner')
    .replace(/\S*node_modules\//, '')
    .trim();
}

/** perf script's samples (time line, then its call chain leaf first), those within [fromS, toS]. */
export function samplesWithin(text, fromS, toS) {
  const samples = [];
  for (const block of text.split('\n\n')) {
    const lines = block.split('\n').filter((l) => l.trim() !== '');
    const time = Number.parseFloat(lines[0] ?? '');
    if (!(time >= fromS && time <= toS) || lines.length < 2) continue;
    samples.push(lines.slice(1));
  }
  return samples;
}

/** One client's connects under perf: its samples within them, and how many opened. */
async function profileClient(client, o, endpoint, scratch) {
  const data = path.join(scratch, `${client}.data`);
  const json = path.join(scratch, `${client}.json`);
  const load = { endpointUrl: endpoint, connections: o.connections, intervalMs: 1_000, durationSec: 2, warmupSec: 1, connectConcurrency: o.concurrency };
  const command = client === 'runner'
    ? ['bin/live-bench.js', '--endpoint', endpoint, '--connections', String(o.connections), '--interval-ms', '1000', '--duration', '2', '--warmup', '1', '--connect-concurrency', String(o.concurrency), '--quiet', '--no-guide-rule', '--json', json]
    : ['bench/tool/clients/library-client.mjs', JSON.stringify(load)];
  // Each connection is a file descriptor: the soft limit raised to the hard one.
  const perf = ['record', '-q', '-k', 'CLOCK_REALTIME', '-e', 'cpu-clock', '-F', String(o.frequency), '-g', '-o', data, '--', 'node', '--perf-basic-prof', ...command];
  const result = await run('bash', ['-c', 'ulimit -n "$(ulimit -Hn)"; exec perf "$@"', 'perf', ...perf]);
  let window;
  try {
    if (client === 'runner') {
      const report = JSON.parse(readFileSync(json, 'utf8'));
      window = { fromS: report.sendWindow.connectsFromUs / 1e6, toS: report.sendWindow.lastOpenedUs / 1e6, opened: report.totals.connectionsOpened };
    } else {
      const report = JSON.parse(result.stdout.trim().split('\n').at(-1));
      window = { fromS: report.rampStartMs / 1e3, toS: report.rampEndMs / 1e3, opened: report.connectionsOpened };
    }
  } catch {
    throw new Error(`${client} gave no report (exit ${result.code}): ${result.stderr.slice(-2_000)}`);
  }
  const script = spawnSync('perf', ['script', '-i', data, '-F', 'time,ip,sym,dso'], { maxBuffer: 2 ** 31 - 1, encoding: 'utf8' });
  return { ...window, samples: samplesWithin(script.stdout, window.fromS, window.toS) };
}

function countBy(samples, key) {
  const counts = new Map();
  for (const frames of samples) {
    const k = key(frames);
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return counts;
}

/** Rows of µs a connection for each key, runner and control side by side, biggest difference first. */
export function sideBySide(runner, control, key, usPerSample) {
  const r = countBy(runner.samples, key);
  const c = countBy(control.samples, key);
  const perConnection = (n, opened) => ((n ?? 0) * usPerSample) / opened;
  return [...new Set([...r.keys(), ...c.keys()])]
    .map((k) => ({ key: k, runnerUs: perConnection(r.get(k), runner.opened), controlUs: perConnection(c.get(k), control.opened) }))
    .sort((a, b) => b.runnerUs - b.controlUs - (a.runnerUs - a.controlUs));
}

function printRows(title, rows, limit) {
  console.log(`\n${title}\n| | runner µs/connection | control µs/connection | runner − control |\n|---|---|---|---|`);
  for (const row of rows.slice(0, limit)) console.log(`| ${row.key} | ${row.runnerUs.toFixed(1)} | ${row.controlUs.toFixed(1)} | ${(row.runnerUs - row.controlUs >= 0 ? '+' : '') + (row.runnerUs - row.controlUs).toFixed(1)} |`);
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  if (spawnSync('perf', ['--version']).status !== 0) {
    console.error('bench:ramp-profile needs Linux perf, which is not installed: `apt-get install linux-perf` (Debian), then run it again.');
    process.exit(2);
  }
  if (!existsSync(path.join(ROOT, 'dist-cli/live-bench.js'))) spawnSync('npx', ['vite', 'build', '-c', 'vite.cli.config.ts', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' });
  if (!existsSync(path.join(ROOT, 'dist-bench/kit.js'))) spawnSync('npx', ['vite', 'build', '-c', 'vite.bench.config.ts', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' });
  const scratch = mkdtempSync(path.join(tmpdir(), 'ramp-profile-'));
  const usPerSample = 1e6 / o.frequency;
  for (let repeat = 0; repeat < o.repeats; repeat++) {
    const profiles = {};
    const order = repeat % 2 === 0 ? o.clients : [...o.clients].reverse();
    for (const client of order) {
      const hub = await startHub({ port: o.port });
      try {
        const endpoint = `${hub.httpUrl}/signalrbench`;
        await warmHub(endpoint, o.connections);
        const loadBefore = loadavg()[0].toFixed(1);
        profiles[client] = await profileClient(client, o, endpoint, scratch);
        const p = profiles[client];
        console.log(`${client}: ${p.opened} opened in ${(p.toS - p.fromS).toFixed(2)} s, ${((p.samples.length * usPerSample) / p.opened).toFixed(0)} µs of CPU a connection on its connects (${p.samples.length} samples), load ${loadBefore} → ${loadavg()[0].toFixed(1)}`);
      } finally {
        await hub.stop();
      }
    }
    const { runner, control } = profiles;
    if (!runner || !control) continue;
    console.log(`\nRound ${repeat + 1}, ${o.connections} connections: the runner ${((runner.samples.length * usPerSample) / runner.opened).toFixed(0)} µs a connection, the control ${((control.samples.length * usPerSample) / control.opened).toFixed(0)} (${((runner.samples.length / runner.opened) / (control.samples.length / control.opened)).toFixed(2)}x).`);
    printRows('By where each sample was taken (its leaf frame):', sideBySide(runner, control, (frames) => placeOf(frames[0]), usPerSample), 20);
    printRows('By the nearest JavaScript frame (what a builtin or the runtime worked for; the collector apart):', sideBySide(runner, control, (frames) => (placeOf(frames[0]) === 'V8 garbage collector' ? '(V8 garbage collector)' : nearestJs(frames) ?? `(no JavaScript frame: ${placeOf(frames[0])})`), usPerSample), 25);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(error.message);
    process.exit(1);
  });
}
