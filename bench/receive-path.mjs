// The receive path's cost per message: a call of the profile's receive method through the
// engine's own ScenarioRunner (its handler as the connection calls it: the message read out of
// the arguments, the tool's text found, the ledger, the stats), timed over a million calls, with
// the heap's growth per call inside the timed loops (taken with no collection inside them: 0 B is
// a path that allocates nothing) and the collections that fell inside them.
//
//   node bench/receive-path.mjs [--root <a checkout of the sources>] [--bytes 2048] [--calls 1000000]
//
// The sources are bundled first (rolldown, into a temp folder), so --root can point at an older
// tree (`git archive <commit> workers core | tar -x -C /tmp/before`) for a before/after pair.
// Cases: the text at offset 0 of argument 1 (every hub that passes it on unchanged), and where
// the sources can find it elsewhere: after a prefix ("bench-3: <text>"), before a suffix
// ("<text> (echo from server)"), and in an object by a path in either casing; and what it costs
// when this run's text is not there (another run's text, a chat line that is not the tool's).
import { build } from 'rolldown';
import { mkdtemp, writeFile, rm } from 'node:fs/promises';
import { PerformanceObserver } from 'node:perf_hooks';
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// A collection before each timed loop, so the heap's growth inside it is the loop's own.
if (typeof globalThis.gc !== 'function') {
  process.exit(spawnSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' }).status ?? 1);
}

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : fallback;
};
const root = path.resolve(option('--root', path.join(path.dirname(fileURLToPath(import.meta.url)), '..')));
const messageBytes = Number(option('--bytes', '2048'));
const calls = Number(option('--calls', '1000000'));
/** Distinct texts per runner: a fresh runner (fresh ledgers) takes each pass, so every call is a new reception. */
const PASS = 20_000;
const SENDERS = 40;

const dir = await mkdtemp(path.join(os.tmpdir(), 'receive-path-'));
const entry = path.join(dir, 'entry.ts');
await writeFile(entry, [
  `export { ScenarioRunner } from '${root}/workers/engine/scenario-runner.ts';`,
  `export { WorkerStats } from '${root}/workers/engine/worker-stats.ts';`,
  `export { PayloadBuilder } from '${root}/workers/engine/payload.ts';`,
  `export { messageReader } from '${root}/core/profiles/template.ts';`,
].join('\n'));
await build({ input: entry, platform: 'node', logLevel: 'silent', output: { file: path.join(dir, 'bundle.mjs'), format: 'esm' } });
const { ScenarioRunner, WorkerStats, PayloadBuilder, messageReader } = await import(path.join(dir, 'bundle.mjs'));
await rm(dir, { recursive: true, force: true });

const RUN_ID = 'k3f9x0qa';
const clock = { nowUs: () => performance.timeOrigin * 1_000 + performance.now() * 1_000 };
const timers = { setTimeout: (f, ms) => setTimeout(f, ms), clearTimeout: (t) => clearTimeout(t) };

/** Flat strings, as JSON.parse or MessagePack's decoder hands them over (a concatenation is a rope V8 flattens on first read). */
const flat = (text) => JSON.parse(JSON.stringify(text));

function texts() {
  const builder = new PayloadBuilder(messageBytes, RUN_ID);
  const plannedUs = Math.round(clock.nowUs());
  return Array.from({ length: PASS }, (_, i) => flat(builder.build({ sender: i % SENDERS, seq: Math.floor(i / SENDERS), sendLagUs: 12, plannedUs })));
}

const CASES = [
  { name: 'offset 0, argument 1', arg: 1, wrap: (t) => ['bench-3', t] },
  { name: 'after a prefix ("bench-3: …")', arg: 0, wrap: (t) => [flat(`bench-3: ${t}`)] },
  { name: 'before a suffix ("… (echo from server)")', arg: 0, wrap: (t) => [flat(`${t} (echo from server)`)] },
  { name: 'object, path 0.message, JSON casing', arg: '0.message', wrap: (t) => [{ user: 'bench-3', message: t }] },
  { name: 'object, path 0.message, MessagePack casing', arg: '0.message', wrap: (t) => [{ User: 'bench-3', Message: t }] },
  // Never arrivals: what the search costs when this run's text is not there.
  { name: 'another run\'s text at offset 0', arg: 1, wrap: (t) => ['bench-3', flat(`zz${t.slice(2)}`)] },
  { name: 'not the tool\'s (a 2 KB chat line)', arg: 1, wrap: (t) => ['bench-3', flat(`bench-3: hello: ${'lorem ipsum '.repeat(170)}`)] },
];

function runnerFor(arg) {
  const stats = new WorkerStats();
  stats.startRun(clock.nowUs() - 1_000_000);
  const ctx = { clock, timers, stats, messageBytes, sendIntervalMs: 1_000, totalConnections: SENDERS, warmupSec: 0, runId: RUN_ID, encodedBytes: () => messageBytes + 40, sendersHeardBy: () => SENDERS };
  const profile = { name: 'bench', send: { method: 'Send', args: ['{message}'] }, receive: { method: 'Receive', arg }, deliver: 'all' };
  const scenario = { profile, builtIn: false, receive: { method: 'Receive', read: messageReader(arg) }, prepare: async () => [], probe: () => [], sendSpec: () => null };
  let handler = null;
  const connection = { on: (_method, h) => (handler = h) };
  new ScenarioRunner(ctx, scenario).listen([{ index: 0, connection, state: 'open' }]);
  return { handler, stats };
}

/** Collections by start time (ms, performance.now()), to tell which fell inside a timed loop. */
const collections = [];
new PerformanceObserver((list) => collections.push(...list.getEntries().map((e) => e.startTime))).observe({ entryTypes: ['gc'] });
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

const base = texts();
const results = [];
for (const c of CASES) {
  const argsOf = base.map(c.wrap);
  // Warm the code up (and learn whether these sources find the text here at all).
  const warm = runnerFor(c.arg);
  for (const a of argsOf) warm.handler(...a);
  const found = warm.stats.totals.received;
  let elapsedNs = 0n;
  let done = 0;
  const windows = [];
  while (done < calls) {
    const { handler } = runnerFor(c.arg);
    globalThis.gc();
    await settle();
    const heapBefore = process.memoryUsage().heapUsed;
    const fromMs = performance.now();
    const start = process.hrtime.bigint();
    for (let i = 0; i < PASS; i++) handler(...argsOf[i]);
    elapsedNs += process.hrtime.bigint() - start;
    const toMs = performance.now();
    windows.push({ fromMs, toMs, grewBytes: process.memoryUsage().heapUsed - heapBefore });
    done += PASS;
  }
  await settle();
  const inside = (w) => collections.some((t) => t >= w.fromMs && t <= w.toMs);
  const clean = windows.filter((w) => !inside(w));
  const bytesPerCall = clean.length > 0 ? clean.reduce((sum, w) => sum + w.grewBytes, 0) / clean.length / PASS : null;
  results.push({ case: c.name, 'ns a call': (Number(elapsedNs) / done).toFixed(0), 'B a call': bytesPerCall === null ? '–' : bytesPerCall.toFixed(1), 'loops with a GC': `${windows.length - clean.length} of ${windows.length}`, found: `${found} of ${PASS}` });
}
console.log(`receive path, ${messageBytes} B texts, ${calls.toLocaleString('en')} calls a case (${PASS.toLocaleString('en')} a loop), sources ${root}`);
console.table(results);
