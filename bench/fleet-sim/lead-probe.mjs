// Loaded into the headless lead by the fleet simulator (`node --import ./lead-probe.mjs
// bin/live-bench.js --lead …`), never by the product. It watches the lead from inside, without
// changing what it does:
// - when the lead reads each agent thread's snapshot (core/fleet/fleet.ts parses every message
//   from an agent with JSON.parse; this wraps it and notes a snapshot's second and thread), so
//   the merge's lag behind real time is when the last thread's report of second n was read,
//   minus the second's end on the run's time base;
// - its CPU time, resident memory and event-loop delay, once a second.
// It writes FLEET_PROBE_OUT (JSON) as the lead exits.
import { writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const out = process.env.FLEET_PROBE_OUT;
const nowUs = () => (performance.timeOrigin + performance.now()) * 1_000;

/** second → { threads read, last read (epoch µs) }. */
const seconds = new Map();
const parse = JSON.parse;
JSON.parse = function probedParse(text, reviver) {
  const value = parse.call(this, text, reviver);
  if (value !== null && typeof value === 'object' && value.type === 'worker' && value.message?.type === 'snapshot' && !value.message.final) {
    const entry = seconds.get(value.message.second) ?? { threads: 0, lastUs: 0 };
    entry.threads++;
    entry.lastUs = nowUs();
    seconds.set(value.message.second, entry);
  }
  return value;
};

const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();
const samples = [];
let cpu = process.cpuUsage();
let at = nowUs();
const timer = setInterval(() => {
  const now = nowUs();
  const used = process.cpuUsage(cpu);
  samples.push({ atUs: now, cpuShare: (used.user + used.system) / (now - at), rssMB: process.memoryUsage().rss / 1e6, heapMB: process.memoryUsage().heapUsed / 1e6, loopDelayMaxMs: delay.max / 1e6, loopDelayP99Ms: delay.percentile(99) / 1e6 });
  delay.reset();
  cpu = process.cpuUsage();
  at = now;
}, 1_000);
timer.unref();

process.on('exit', () => {
  if (!out) return;
  writeFileSync(out, JSON.stringify({ seconds: [...seconds].map(([second, e]) => ({ second, ...e })), samples }));
});
