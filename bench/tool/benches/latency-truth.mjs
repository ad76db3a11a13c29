// 3. Latency truth at low load: 100 WebSocket connections echoing 2 KB once a second. The tool's
// p50/p99 beside the same round trips on the wire (tshark on loopback), so the overhead the client
// adds is a number; and beside the raw client at the same load, the leanest client's view.
import os from 'node:os';
import path from 'node:path';
import { rmSync } from 'node:fs';
import { runNodeClient, runTab } from '../lib/runs.mjs';
import { analyzeCapture, ensureTshark, startCapture } from '../lib/wire-capture.mjs';

const LOAD = { connections: 100, intervalMs: 1_000 };

export async function latencyTruth(ctx) {
  const load = { ...LOAD, durationSec: ctx.latencySec, warmupSec: ctx.warmupSec };
  const haveTshark = ensureTshark(ctx.log);
  const file = path.join(os.tmpdir(), `tool-bench-${process.pid}.pcapng`);
  const capture = haveTshark ? await startCapture(ctx.ports.http, file) : null;
  let tab;
  try {
    tab = await runTab(ctx, load);
  } finally {
    await capture?.stop();
  }
  const wire = capture ? analyzeCapture(file, load.warmupSec) : null;
  rmSync(file, { force: true });
  const raw = await runNodeClient(ctx, 'raw', load);
  const ms = (us) => (us == null ? null : us / 1_000);
  const result = {
    load,
    tab: { p50Ms: tab.p50Ms, p99Ms: tab.p99Ms, p999Ms: tab.p999Ms, maxMs: tab.maxMs, received: tab.received, lost: tab.lost, uncorrectedP50Ms: tab.uncorrectedP50Ms, uncorrectedP99Ms: tab.uncorrectedP99Ms },
    wire: wire && {
      matched: wire.matched,
      unanswered: wire.unanswered,
      rtt: mapMs(wire.rttUs, ms),
      sendPath: mapMs(wire.sendPathUs, ms),
      plannedToWireIn: mapMs(wire.plannedToWireInUs, ms),
    },
    raw: { p50Ms: raw.p50Ms, p99Ms: raw.p99Ms, p999Ms: raw.p999Ms, maxMs: raw.maxMs, received: raw.received, lost: raw.lost },
  };
  if (wire) {
    result.overheadMs = { p50: tab.p50Ms - result.wire.rtt.p50Ms, p99: tab.p99Ms - result.wire.rtt.p99Ms };
    result.receivePathMs = { p50: tab.p50Ms - result.wire.plannedToWireIn.p50Ms, p99: tab.p99Ms - result.wire.plannedToWireIn.p99Ms };
  }
  ctx.log(`latency truth: tab p50 ${tab.p50Ms} ms p99 ${tab.p99Ms} ms; wire RTT ${wire ? `p50 ${result.wire.rtt.p50Ms} ms p99 ${result.wire.rtt.p99Ms} ms (${wire.matched} matched)` : 'not captured'}; raw p50 ${raw.p50Ms} ms p99 ${raw.p99Ms} ms`);
  return result;
}

function mapMs(stats, ms) {
  return Object.fromEntries(Object.entries(stats).map(([k, v]) => (k === 'count' ? [k, v] : [k.replace(/Us$/, 'Ms'), ms(v)])));
}
