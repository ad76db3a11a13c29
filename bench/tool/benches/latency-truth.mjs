// 3. Latency truth at low load: 100 WebSocket connections echoing 2 KB once a second. Each client
// (the tab, raw WebSockets and plain @microsoft/signalr in the same browser, the raw Node client) runs under its own tshark
// capture on loopback, so what it reports sits beside the same round trips on the wire, and the
// difference is split into its parts: the timer (planned time to the send call, from the payload
// header), the way out (send call to the frame on the wire), the hub, and the way in (frame on
// the wire to the handler). The leanest clients show the floor every client pays on this machine.
import os from 'node:os';
import path from 'node:path';
import { rmSync } from 'node:fs';
import { runBrowserRaw, runNodeClient, runTab } from '../lib/runs.mjs';
import { analyzeCapture, ensureTshark, startCapture } from '../lib/wire-capture.mjs';

const LOAD = { connections: 100, intervalMs: 1_000 };
/** Each client in turn, the tool first. */
const CLIENTS = [
  ['tab', (ctx, load) => runTab(ctx, load)],
  ['browserRaw', (ctx, load) => runBrowserRaw(ctx, load)],
  ['browserLibrary', (ctx, load) => runBrowserRaw(ctx, load, { library: true })],
  ['raw', (ctx, load) => runNodeClient(ctx, 'raw', load)],
];

export async function latencyTruth(ctx) {
  const load = { ...LOAD, durationSec: ctx.latencySec, warmupSec: ctx.warmupSec };
  const haveTshark = ensureTshark(ctx.log);
  const clients = {};
  for (const [name, run] of CLIENTS) {
    clients[name] = await underCapture(ctx, haveTshark, load, run);
    const c = clients[name];
    ctx.log(`latency truth, ${name}: p50 ${c.p50Ms} ms p99 ${c.p99Ms} ms; ` +
      (c.wire ? `wire RTT p50 ${c.wire.rtt.p50Ms} ms (${c.wire.matched} matched), overhead p50 ${c.overheadMs.p50.toFixed(2)} ms` : 'not captured'));
  }
  return { load, clients };
}

/** Runs one client while tshark captures the hub's port; its figures beside the wire's. */
async function underCapture(ctx, haveTshark, load, run) {
  const file = path.join(os.tmpdir(), `tool-bench-${process.pid}.pcapng`);
  const capture = haveTshark ? await startCapture(ctx.ports.http, file) : null;
  let r;
  try {
    r = await run(ctx, load);
  } finally {
    await capture?.stop();
  }
  const wire = capture ? analyzeCapture(file, load.warmupSec) : null;
  rmSync(file, { force: true });
  const ms = (us) => (us == null ? null : us / 1_000);
  const result = {
    p50Ms: r.p50Ms, p99Ms: r.p99Ms, p999Ms: r.p999Ms, maxMs: r.maxMs, received: r.received, lost: r.lost,
    uncorrectedP50Ms: r.uncorrectedP50Ms, uncorrectedP99Ms: r.uncorrectedP99Ms, crossOriginIsolated: r.crossOriginIsolated,
    wire: wire && {
      matched: wire.matched,
      unanswered: wire.unanswered,
      rtt: mapMs(wire.rttUs, ms),
      sendPath: mapMs(wire.sendPathUs, ms),
      timer: mapMs(wire.timerUs, ms),
      wayOut: mapMs(wire.wayOutUs, ms),
      plannedToWireIn: mapMs(wire.plannedToWireInUs, ms),
    },
  };
  if (wire) {
    result.overheadMs = { p50: r.p50Ms - result.wire.rtt.p50Ms, p99: r.p99Ms - result.wire.rtt.p99Ms };
    // What the client reports against a client that read each Measure frame the moment it was on the wire.
    result.wayInMs = { p50: r.p50Ms - result.wire.plannedToWireIn.p50Ms, p99: r.p99Ms - result.wire.plannedToWireIn.p99Ms };
  }
  return result;
}

function mapMs(stats, ms) {
  return Object.fromEntries(Object.entries(stats).map(([k, v]) => (k === 'count' ? [k, v] : [k.replace(/Us$/, 'Ms'), ms(v)])));
}
