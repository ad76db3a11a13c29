// Summarises a timeline trace of the page (BENCH_TRACE=1 with bench/tool/profile-browser.mjs,
// lib/cdp-profile.mjs): on the page's main thread, its tasks' CPU in each second (the thread's own
// CPU time, `tdur`: what the page takes from the workers' cores, whatever else runs on the
// machine) and their wall time (longer on a busy machine: the thread waits for a core), the
// longest tasks with what filled them, where the CPU went (each event's own time: style, layout,
// paint, script, GC), and the layouts and style recalculations script forced (a read of layout
// after a write), by the script that forced them.
// Usage: node bench/tool/trace-summary.mjs <label-trace.json>... [--top 20]
import { readFileSync } from 'node:fs';
import path from 'node:path';

const args = process.argv.slice(2);
const topAt = args.indexOf('--top');
const top = topAt >= 0 ? Number(args.splice(topAt, 2)[1]) : 20;
/** Events that run the page's script: a layout inside one was forced by it. */
const SCRIPT = new Set(['FunctionCall', 'EvaluateScript', 'TimerFire', 'FireAnimationFrame', 'v8.callFunction', 'RunMicrotasks', 'EventDispatch', 'v8.run']);
const RENDERING = new Set(['UpdateLayoutTree', 'Layout']);
const SKIP_US = 1e6;

for (const file of args) {
  const { traceEvents } = JSON.parse(readFileSync(file, 'utf8'));
  // The page's main thread: the renderer main thread with the most task time.
  const mains = new Set(traceEvents.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const taskUs = new Map();
  for (const e of traceEvents) if (e.ph === 'X' && e.name === 'RunTask' && mains.has(`${e.pid}:${e.tid}`)) taskUs.set(`${e.pid}:${e.tid}`, (taskUs.get(`${e.pid}:${e.tid}`) ?? 0) + e.dur);
  const main = [...taskUs].sort((a, b) => b[1] - a[1])[0]?.[0];
  if (!main) {
    console.log(`\n${path.basename(file)}: no renderer main thread with tasks`);
    continue;
  }
  const all = traceEvents.filter((e) => e.ph === 'X' && `${e.pid}:${e.tid}` === main && typeof e.dur === 'number').sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  // The trace's first second is left out: starting the profilers holds the thread for a while.
  const startUs = all[0].ts + SKIP_US;
  const events = all.filter((e) => e.ts >= startUs);
  const endUs = Math.max(...events.map((e) => e.ts + e.dur));
  // Nesting by time: each event's own time is its duration less its children's.
  const selfUs = new Map();
  const forced = new Map();
  const tasks = [];
  const stack = [];
  let task = null;
  for (const e of events) {
    while (stack.length > 0 && e.ts >= stack.at(-1).ts + stack.at(-1).dur) stack.pop();
    const parent = stack.at(-1);
    if (parent) parent.childCpuUs = (parent.childCpuUs ?? 0) + (e.tdur ?? e.dur);
    if (e.name === 'RunTask' && stack.length === 0) {
      task = { ts: e.ts, dur: e.dur, cpu: e.tdur ?? e.dur, parts: new Map() };
      tasks.push(task);
    }
    e.task = stack.length === 0 ? (e.name === 'RunTask' ? task : null) : stack[0].task;
    if (RENDERING.has(e.name) && stack.some((s) => SCRIPT.has(s.name))) {
      const frame = e.args?.beginData?.stackTrace?.[0];
      const site = frame ? `${frame.functionName || '(anonymous)'} ${path.basename(frame.url ?? '')}:${frame.lineNumber}` : 'no stack';
      const key = `${e.name} < ${site}`;
      const f = forced.get(key) ?? { n: 0, us: 0 };
      f.n++;
      f.us += e.dur;
      forced.set(key, f);
    }
    stack.push(e);
  }
  for (const e of events) {
    const own = (e.tdur ?? e.dur) - (e.childCpuUs ?? 0);
    selfUs.set(e.name, (selfUs.get(e.name) ?? 0) + own);
    e.task?.parts.set(e.name, (e.task.parts.get(e.name) ?? 0) + own);
  }
  const wallSec = (endUs - startUs) / 1e6;
  const cpuUs = tasks.reduce((a, t) => a + t.cpu, 0);
  const busyUs = tasks.reduce((a, t) => a + t.dur, 0);
  console.log(`\n${path.basename(file)}: ${wallSec.toFixed(1)} s traced, ${tasks.length} tasks on the main thread: CPU ${(cpuUs / 1_000 / wallSec).toFixed(1)} ms a second, wall ${(busyUs / 1_000 / wallSec).toFixed(1)}`);
  const perSecond = Array.from({ length: Math.floor(wallSec) }, () => 0);
  for (const t of tasks) {
    const s = Math.floor((t.ts - startUs) / 1e6);
    if (s < perSecond.length) perSecond[s] += t.cpu / 1_000;
  }
  const sorted = [...perSecond].sort((a, b) => a - b);
  if (sorted.length > 0) console.log(`  CPU per second: least ${sorted[0].toFixed(1)}, median ${sorted[Math.floor(sorted.length / 2)].toFixed(1)}, most ${sorted.at(-1).toFixed(1)} ms`);
  const byCpu = [...tasks].sort((a, b) => b.cpu - a.cpu);
  const byWall = [...tasks].sort((a, b) => b.dur - a.dur);
  console.log(`  longest tasks, CPU: ${byCpu.slice(0, 5).map((t) => (t.cpu / 1_000).toFixed(1)).join(', ')} ms; wall: ${byWall.slice(0, 5).map((t) => (t.dur / 1_000).toFixed(1)).join(', ')} ms (${byWall.filter((t) => t.dur > 50_000).length} over 50 ms)`);
  for (const t of byCpu.slice(0, 3)) {
    const parts = [...t.parts].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([k, us]) => `${k} ${(us / 1_000).toFixed(1)}`).join(', ');
    console.log(`  task of ${(t.cpu / 1_000).toFixed(1)} ms CPU at ${((t.ts - startUs) / 1e6).toFixed(2)} s: ${parts}`);
  }
  console.log('  own CPU by event, ms a second:');
  for (const [name, us] of [...selfUs].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`    ${(us / 1_000 / wallSec).toFixed(2).padStart(8)}  ${name}`);
  const forcedTotal = [...forced.values()].reduce((a, f) => ({ n: a.n + f.n, us: a.us + f.us }), { n: 0, us: 0 });
  console.log(`  forced by script: ${forcedTotal.n} style/layout passes, ${(forcedTotal.us / 1_000).toFixed(1)} ms (${(forcedTotal.n / wallSec).toFixed(1)} a second)`);
  for (const [key, f] of [...forced].sort((a, b) => b[1].us - a[1].us).slice(0, 8)) console.log(`    ${f.n} × ${(f.us / 1_000).toFixed(1)} ms  ${key}`);
}
