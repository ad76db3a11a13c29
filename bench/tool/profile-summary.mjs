// Summarises .cpuprofile files (from bench/tool/profile-browser.mjs): per profile, busy ms (all
// but idle), and the functions with the most self time, grouped by source (SignalR client,
// engine, browser-raw, GC, program).
// With --stretches (for the page's main thread): busy ms in each wall second of the profile, and
// its longest busy stretches (consecutive samples not idle: wall time, so a thread waiting for a
// core reads longer) with what filled them.
// Usage: node bench/tool/profile-summary.mjs <file.cpuprofile>... [--top 25] [--stretches]
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { originalPositionFor, TraceMap } from '@jridgewell/trace-mapping';

/** Source maps of the built dashboard (build with --sourcemap), to name each bundled function's
 *  source file: dist/assets/, or dist/<name>/assets/ for a page built beside it (tab@<name>). */
const DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist');
const maps = new Map();
function sourceOf(url, line, column) {
  const page = /\/([^/]+)\/assets\//.exec(new URL(url, 'http://x/').pathname)?.[1];
  const file = path.join(DIST, page ?? '', 'assets', path.basename(url.split('?')[0]) + '.map');
  if (!maps.has(file)) maps.set(file, existsSync(file) ? new TraceMap(readFileSync(file, 'utf8')) : null);
  const map = maps.get(file);
  if (!map || line < 0) return null;
  return originalPositionFor(map, { line: line + 1, column: Math.max(0, column) });
}

const args = process.argv.slice(2);
const topAt = args.indexOf('--top');
const top = topAt >= 0 ? Number(args.splice(topAt, 2)[1]) : 25;
/** --callers <name>: where that function's self time is called from (3 frames up). */
const callersAt = args.indexOf('--callers');
const callersOf = callersAt >= 0 ? args.splice(callersAt, 2)[1] : null;
const stretchesAt = args.indexOf('--stretches');
const stretches = stretchesAt >= 0 && args.splice(stretchesAt, 1).length > 0;

/** Which part of the code a node belongs to, by its function and script. */
function groupOf(node) {
  const { functionName: fn, url } = node.callFrame;
  if (fn === '(idle)') return 'idle';
  if (fn === '(garbage collector)') return 'gc';
  if (fn === '(program)' || fn === '(root)') return 'program';
  if (/signalr/i.test(url)) return 'signalr';
  if (/\/raw\/worker\.js/.test(url)) return 'browserRaw';
  if (/kit\.js/.test(url)) return 'kit';
  if (url === '') return 'native';
  const source = sourceOf(url, node.callFrame.lineNumber, node.callFrame.columnNumber)?.source;
  if (source) {
    if (/@microsoft\/signalr/.test(source)) return 'signalr';
    if (/hdr-histogram/.test(source)) return 'hdr-histogram';
    const m = /(workers|core|signalr|src)\/(.*)$/.exec(source);
    return m ? `${m[1]}/${m[2]}` : source.replace(/^.*node_modules\//, '');
  }
  return path.basename(url.split('?')[0]);
}

for (const file of args) {
  const p = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parentOf = new Map();
  for (const n of p.nodes) for (const c of n.children ?? []) parentOf.set(c, n.id);
  const selfUs = new Map();
  for (let i = 0; i < p.samples.length; i++) selfUs.set(p.samples[i], (selfUs.get(p.samples[i]) ?? 0) + (p.timeDeltas[i + 1] ?? 0));
  const wallMs = (p.endTime - p.startTime) / 1_000;
  const groups = new Map();
  const fns = new Map();
  for (const [id, us] of selfUs) {
    const n = byId.get(id);
    const g = groupOf(n);
    groups.set(g, (groups.get(g) ?? 0) + us);
    if (g === 'idle') continue;
    const key = `${n.callFrame.functionName || '(anonymous)'} [${g}]`;
    fns.set(key, (fns.get(key) ?? 0) + us);
  }
  const busyMs = [...groups].filter(([g]) => g !== 'idle').reduce((a, [, us]) => a + us, 0) / 1_000;
  console.log(`\n${path.basename(file)}: ${wallMs.toFixed(0)} ms profiled, busy ${busyMs.toFixed(0)} ms (${(100 * busyMs / wallMs).toFixed(1)}%)`);
  console.log('  by part: ' + [...groups].sort((a, b) => b[1] - a[1]).map(([g, us]) => `${g} ${(us / 1_000).toFixed(0)}`).join(', '));
  for (const [k, us] of [...fns].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${(us / 1_000).toFixed(1).padStart(8)} ms  ${(100 * us / 1_000 / busyMs).toFixed(1).padStart(5)}%  ${k}`);
  if (stretches) printStretches(p, byId);
  if (callersOf) {
    const stacks = new Map();
    for (const [id, us] of selfUs) {
      if (byId.get(id).callFrame.functionName !== callersOf) continue;
      const chain = [];
      for (let up = parentOf.get(id); up !== undefined && chain.length < 4; up = parentOf.get(up)) chain.push(byId.get(up).callFrame.functionName || '(anonymous)');
      const key = chain.join(' < ');
      stacks.set(key, (stacks.get(key) ?? 0) + us);
    }
    console.log(`  ${callersOf} called from:`);
    for (const [k, us] of [...stacks].sort((a, b) => b[1] - a[1]).slice(0, 8)) console.log(`    ${(us / 1_000).toFixed(1).padStart(8)} ms  < ${k}`);
  }
}

/** Busy ms per wall second (least, median, most) and the three longest busy stretches, each with
 *  its parts: what a once-a-second refresh costs the thread, and how long it holds it at once. */
function printStretches(p, byId) {
  const perSecond = new Map();
  const found = [];
  let current = null;
  let atUs = p.startTime;
  for (let i = 0; i < p.samples.length; i++) {
    const dUs = p.timeDeltas[i + 1] ?? 0;
    atUs += p.timeDeltas[i] ?? 0;
    const node = byId.get(p.samples[i]);
    const group = groupOf(node);
    if (group === 'idle') {
      if (current) found.push(current);
      current = null;
      continue;
    }
    const second = Math.floor((atUs - p.startTime) / 1e6);
    perSecond.set(second, (perSecond.get(second) ?? 0) + dUs);
    current ??= { fromUs: atUs - p.startTime, us: 0, parts: new Map() };
    current.us += dUs;
    const part = group === 'native' || group === 'program' || group === 'gc' ? `${group}:${node.callFrame.functionName || '(anonymous)'}` : group;
    current.parts.set(part, (current.parts.get(part) ?? 0) + dUs);
  }
  if (current) found.push(current);
  const wholeSeconds = Math.floor((p.endTime - p.startTime) / 1e6);
  const ms = Array.from({ length: wholeSeconds }, (_, s) => (perSecond.get(s) ?? 0) / 1_000).sort((a, b) => a - b);
  if (ms.length > 0) console.log(`  busy per second: least ${ms[0].toFixed(1)}, median ${ms[Math.floor(ms.length / 2)].toFixed(1)}, most ${ms.at(-1).toFixed(1)} ms (${ms.length} whole seconds)`);
  for (const s of found.sort((a, b) => b.us - a.us).slice(0, 3)) {
    const parts = [...s.parts].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([k, us]) => `${k} ${(us / 1_000).toFixed(1)}`).join(', ');
    console.log(`  stretch of ${(s.us / 1_000).toFixed(1)} ms at ${(s.fromUs / 1e6).toFixed(2)} s: ${parts}`);
  }
}
