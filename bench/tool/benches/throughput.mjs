// 1 and 2. Throughput ceiling of one tab and client CPU per message: 255 WebSocket connections
// echoing 2 KB, the send rate raised step by step, each step run by every client in turn (so
// machine load hits them alike): the tab, raw WebSockets in the same browser (what the browser
// itself allows), the plain-library Node script, the raw-WebSocket Node client and the headless
// runner (bin/live-bench.js) with its default 2 worker threads and with 1, then the script and
// raw WebSockets in the browser once more as controls (the same client twice). A client stops
// when its p99 passes 1 s, it misses more than 1% of its slots or loses messages, twice in a row at
// one step (the machine is shared: one noisy step is retried). The first step is the fixed rate
// at which CPU per 1,000 round trips is compared. Then the tab, plain @microsoft/signalr in the
// same browser and that library again run in rounds at half of raw WebSockets' ceiling: the tab's
// tail goal, read on the medians of the rounds (one p99 each swings too far on this machine).
import { runBrowserRaw, runNodeClient, runRunner, runTab } from '../lib/runs.mjs';
import { summariseRounds } from '../lib/rounds.mjs';

const RUNNERS = {
  tab: runTab,
  // The tab without the server's metrics (metrics=off): how much of the tab's cost beside the
  // library page is its once-a-second scrape of the hub's /metrics, which lands on the hub.
  tabNoMetrics: async (ctx, load) => ({ ...(await runTab(ctx, load, { extraQuery: { metrics: 'off' } })), client: 'tabNoMetrics' }),
  browserRaw: runBrowserRaw,
  browserLibrary: (ctx, load) => runBrowserRaw(ctx, load, { library: true }),
  library: (ctx, load) => runNodeClient(ctx, 'library', load),
  raw: (ctx, load) => runNodeClient(ctx, 'raw', load),
  runner: (ctx, load) => runRunner(ctx, load, { workers: 2 }),
  runner1: (ctx, load) => runRunner(ctx, load, { workers: 1 }),
  // BENCH_RUNNER_B: another build's bin/live-bench.js beside this one, for A/B pairs of a change.
  ...(process.env.BENCH_RUNNER_B ? {
    runnerB: (ctx, load) => runRunner(ctx, load, { workers: 2, bin: process.env.BENCH_RUNNER_B, name: 'runnerB' }),
    runner1B: (ctx, load) => runRunner(ctx, load, { workers: 1, bin: process.env.BENCH_RUNNER_B, name: 'runner1B' }),
  } : {}),
  // Controls: the plain-library script and raw WebSockets in the browser a second time, under
  // their own names, last at each step: how far one client reads from itself in one run, the
  // spread every ratio of two clients at one step carries on this machine.
  libraryAgain: async (ctx, load) => ({ ...(await runNodeClient(ctx, 'library', load)), client: 'libraryAgain' }),
  browserRawAgain: async (ctx, load) => ({ ...(await runBrowserRaw(ctx, load)), client: 'browserRawAgain' }),
  // And plain @microsoft/signalr in the browser again: the control of the tab's p99 against it.
  browserLibraryAgain: async (ctx, load) => ({ ...(await runBrowserRaw(ctx, load, { library: true })), client: 'browserLibraryAgain' }),
};
/**
 * BENCH_TAB_PAGES=a,b: also the dashboard as built into dist/<name>/ (`vite build --mode bench --base /<name>/
 * --outDir dist/<name>`: the bench mode keeps the hook that starts the tab from its URL), as clients tab@<name>: two builds measured back to back in one run.
 */
for (const page of (process.env.BENCH_TAB_PAGES ?? '').split(',').filter(Boolean)) {
  RUNNERS[`tab@${page}`] = async (ctx, load) => ({ ...(await runTab(ctx, load, { page: `${page}/` })), client: `tab@${page}` });
}
/** Diagnostics, run only when named: not part of a full run. */
const DIAGNOSTIC_CLIENTS = ['tabNoMetrics'];
export const ALL_CLIENTS = Object.keys(RUNNERS).filter((c) => !DIAGNOSTIC_CLIENTS.includes(c));
export const KNOWN_CLIENTS = Object.keys(RUNNERS);
const CONNECTIONS = 255;
/** Send intervals in ms, each step about 33% more messages than the last: 1,020 to 25,500 msg/s. */
const INTERVALS_MS = [250, 190, 140, 100, 75, 56, 42, 32, 24, 18, 13, 10];

/** Clients whose p99 the tail goal reads, in rounds at half the browser's ceiling, against the
 *  first run of plain @microsoft/signalr in the same browser. */
const TAIL_BASELINE = 'browserLibrary';
const isTailClient = (client) => client === 'tab' || client.startsWith('tab@') || client === 'tabNoMetrics' || client === TAIL_BASELINE || client === 'browserLibraryAgain';
/** Whether `clients` hold both sides of the tail goal: a tab (any build) and the baseline. */
const hasTailSides = (clients) => clients.includes(TAIL_BASELINE) && clients.some((c) => c !== TAIL_BASELINE && c.startsWith('tab'));

export async function throughput(ctx) {
  const clients = ctx.clients ?? ALL_CLIENTS;
  if (process.env.BENCH_STEPS === 'half') return halfCeilingRounds(ctx, clients);
  if (process.env.BENCH_STEPS) return fixedSteps(ctx, clients);
  const { steps, ceilings, failedAt } = await ceilingSearch(ctx, clients);
  const fixed = Object.fromEntries(clients.map((c) => [c, steps.find((s) => s.client === c && s.intervalMs === INTERVALS_MS[0] && s.holds) ?? steps.find((s) => s.client === c && s.intervalMs === INTERVALS_MS[0]) ?? null]));
  const tail = await tailRounds(ctx, clients.filter(isTailClient), ceilings.browserRaw?.receivedPerSec);
  return { connections: CONNECTIONS, clients, steps, ceilings, failedAt, fixedRate: fixed, ...(tail ? { tail } : {}) };
}

/**
 * BENCH_STEPS=half: the browser's ceiling first (raw WebSockets in the same browser, ramped as
 * in the full run), then the named clients' rounds at half of it (tailRounds): the tail goal's
 * own measurement, at the rate the goal names on the day it is run.
 */
async function halfCeilingRounds(ctx, clients) {
  const others = clients.filter((c) => c !== 'browserRaw');
  if (!hasTailSides(others)) {
    throw new Error(`BENCH_STEPS=half reads the tab against ${TAIL_BASELINE}: name both in BENCH_CLIENTS (e.g. tab,browserLibrary,browserLibraryAgain).`);
  }
  const search = await ceilingSearch(ctx, ['browserRaw']);
  if (!search.ceilings.browserRaw) throw new Error(`Raw WebSockets in this browser held no step (${search.failedAt.browserRaw?.error ?? 'see the steps'}): there is no ceiling to halve.`);
  const tail = await tailRounds(ctx, others.filter(isTailClient), search.ceilings.browserRaw.receivedPerSec);
  const none = Object.fromEntries(clients.map((c) => [c, null]));
  return { connections: CONNECTIONS, clients: ['browserRaw', ...others], steps: search.steps, ceilings: { ...none, ...search.ceilings }, failedAt: search.failedAt, fixedRate: none, tail };
}

/**
 * The tail goal's rounds: each client at half the browser's ceiling, in turn, BENCH_TAIL_ROUNDS
 * times (default 6, 2 when quick), so the goal is read on medians of rounds with their spread
 * (lib/rounds.mjs), not on one p99 each. Null when the run has no ceiling or not both sides.
 */
async function tailRounds(ctx, clients, ceilingPerSec) {
  if (!ceilingPerSec || !hasTailSides(clients)) return null;
  const rounds = Number(process.env.BENCH_TAIL_ROUNDS ?? (ctx.quick ? 2 : 6));
  const intervalMs = Math.round((CONNECTIONS * 1_000) / (ceilingPerSec / 2));
  const steps = [];
  for (let round = 1; round <= rounds; round++) {
    for (const client of clients) {
      const r = await runStep(ctx, client, { connections: CONNECTIONS, intervalMs, durationSec: ctx.stepSec, warmupSec: ctx.warmupSec });
      r.round = round;
      ctx.log(`tail ${client} ${r.targetPerSec} msg/s round ${round}: ${describe(r)}`);
      steps.push(r);
    }
  }
  logRounds(ctx, steps);
  return { ceilingPerSec, intervalMs, targetPerSec: Math.round((CONNECTIONS * 1_000) / intervalMs), rounds, baseline: TAIL_BASELINE, steps, summary: summariseRounds(steps, TAIL_BASELINE) };
}

/** Every client's ceiling: the send rate raised step by step until it fails twice at one step. */
async function ceilingSearch(ctx, clients) {
  const steps = [];
  const ceilings = Object.fromEntries(clients.map((c) => [c, null]));
  const failedAt = {};
  for (const intervalMs of ctx.quick ? INTERVALS_MS.filter((_, i) => i % 2 === 0) : INTERVALS_MS) {
    const still = clients.filter((c) => !(c in failedAt));
    if (still.length === 0) break;
    for (const client of still) {
      const r = await stepTwice(ctx, client, intervalMs, steps);
      if (r.holds) ceilings[client] = r;
      else failedAt[client] = r;
    }
  }
  // One more step halfway between the last that held and the first that failed narrows each
  // ceiling from a third to about a sixth of a step.
  for (const client of clients) {
    const held = ceilings[client];
    const failed = failedAt[client];
    if (!held || !failed) continue;
    const midMs = Math.round((held.intervalMs + failed.intervalMs) / 2);
    if (midMs === held.intervalMs || midMs === failed.intervalMs) continue;
    const r = await stepTwice(ctx, client, midMs, steps, 'halfway');
    if (r.holds) ceilings[client] = r;
    else failedAt[client] = r;
  }
  return { steps, ceilings, failedAt };
}

/**
 * BENCH_STEPS=250,24 (send intervals, ms) and BENCH_REPEAT=n: only these steps, each client once
 * per step in turn, the whole round n times; no ceiling search. For cheap A/B pairs.
 */
async function fixedSteps(ctx, clients) {
  const intervals = process.env.BENCH_STEPS.split(',').map(Number);
  if (intervals.some((ms) => !Number.isFinite(ms) || ms <= 0)) throw new Error(`BENCH_STEPS is ${process.env.BENCH_STEPS}: give send intervals in ms, comma-separated (250,100,75).`);
  const steps = [];
  for (let round = 1; round <= Number(process.env.BENCH_REPEAT ?? 1); round++) {
    for (const intervalMs of intervals) {
      for (const client of clients) {
        const r = await runStep(ctx, client, { connections: CONNECTIONS, intervalMs, durationSec: ctx.stepSec, warmupSec: ctx.warmupSec });
        r.round = round;
        ctx.log(`throughput ${client} ${r.targetPerSec} msg/s round ${round}: ${describe(r)}`);
        steps.push(r);
      }
    }
  }
  for (const intervalMs of intervals) logRounds(ctx, steps.filter((s) => s.intervalMs === intervalMs));
  const none = Object.fromEntries(clients.map((c) => [c, null]));
  return { connections: CONNECTIONS, clients, steps, ceilings: none, failedAt: {}, fixedRate: none };
}

/** Each client's median p99 over the rounds of one step, against the tail's baseline when it ran. */
function logRounds(ctx, steps) {
  if (steps.length === 0) return;
  const baseline = steps.some((s) => s.client === TAIL_BASELINE) ? TAIL_BASELINE : steps[0].client;
  for (const c of summariseRounds(steps, baseline)) {
    const against = c.againstBaseline ? `, ${c.againstBaseline.ratio.toFixed(2)}x ${baseline} (resampled ${c.againstBaseline.low.toFixed(2)}-${c.againstBaseline.high.toFixed(2)})` : '';
    ctx.log(`${steps[0].targetPerSec} msg/s, ${c.client}: median p99 ${c.medianP99Ms?.toFixed(1) ?? '-'} ms of ${c.p99sMs.length} rounds (${c.failedRounds} failed)${against}`);
  }
}

/** Runs a step, and once more if it fails: one noisy step on a shared machine does not end a ramp. */
async function stepTwice(ctx, client, intervalMs, steps, label = '') {
  const load = { connections: CONNECTIONS, intervalMs, durationSec: ctx.stepSec, warmupSec: ctx.warmupSec };
  let r;
  for (let attempt = 1; attempt <= 2; attempt++) {
    r = await runStep(ctx, client, load);
    r.attempt = attempt;
    r.label = label;
    ctx.log(`throughput ${client} ${r.targetPerSec} msg/s${label ? ` (${label})` : ''}${attempt > 1 ? ' (again)' : ''}: ${describe(r)}`);
    steps.push(r);
    if (r.holds) break;
  }
  return r;
}

async function runStep(ctx, client, load) {
  try {
    return await RUNNERS[client](ctx, load);
  } catch (error) {
    return { client, intervalMs: load.intervalMs, targetPerSec: Math.round((load.connections * 1_000) / load.intervalMs), holds: false, error: error.message };
  }
}

export function describe(r) {
  if (r.error) return `failed: ${r.error}`;
  if (r.workerFailures?.length) return `FAILS: ${r.workerFailures.join(' ')}`;
  return `${r.holds ? 'holds' : 'FAILS'}; received ${r.receivedPerSec}/s, p50 ${r.p50Ms.toFixed(1)} ms, p99 ${r.p99Ms.toFixed(1)} ms, ` +
    `missed ${r.missedSlots}/${r.sent}, lost ${r.lost}, CPU ${r.cpuSec.total.toFixed(2)} s (${r.cpuSecPer1000?.toFixed(3)} s/1000), hub ${r.hubCpuSecPer1000?.toFixed(3)} s/1000` +
    ` [cores: ${Object.entries(r.cpuSec).filter(([k]) => k !== 'total').map(([k, v]) => `${k} ${(v / r.measuredSec).toFixed(3)}`).join(', ')}]`;
}
