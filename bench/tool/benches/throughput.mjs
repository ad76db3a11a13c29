// 1 and 2. Throughput ceiling of one tab and client CPU per message: 255 WebSocket connections
// echoing 2 KB, the send rate raised step by step, each step run by the tab, the plain-library
// Node script and the raw-WebSocket client in turn (so machine load hits all three alike), until
// a client's p99 passes 1 s, it misses more than 1% of its slots, or it loses messages. The
// first step is the fixed rate at which CPU per 1,000 round trips is compared.
import { runNodeClient, runTab } from '../lib/runs.mjs';

export const CLIENTS = ['tab', 'library', 'raw'];
const CONNECTIONS = 255;
/** Send intervals in ms, each step about 25% more messages than the last: 1,020 to 25,500 msg/s. */
const INTERVALS_MS = [250, 200, 160, 128, 100, 80, 64, 50, 40, 32, 25, 20, 16, 13, 10];

export async function throughput(ctx) {
  const steps = [];
  const ceilings = Object.fromEntries(CLIENTS.map((c) => [c, null]));
  const failedAt = {};
  for (const intervalMs of ctx.quick ? INTERVALS_MS.filter((_, i) => i % 2 === 0) : INTERVALS_MS) {
    const still = CLIENTS.filter((c) => !(c in failedAt));
    if (still.length === 0) break;
    for (const client of still) {
      const load = { connections: CONNECTIONS, intervalMs, durationSec: ctx.stepSec, warmupSec: ctx.warmupSec };
      let r;
      try {
        r = client === 'tab' ? await runTab(ctx, load) : await runNodeClient(ctx, client, load);
      } catch (error) {
        r = { client, intervalMs, targetPerSec: Math.round((CONNECTIONS * 1_000) / intervalMs), holds: false, error: error.message };
      }
      ctx.log(`throughput ${client} ${r.targetPerSec} msg/s: ${describe(r)}`);
      steps.push(r);
      if (r.holds) ceilings[client] = r;
      else failedAt[client] = r;
    }
  }
  const fixed = Object.fromEntries(CLIENTS.map((c) => [c, steps.find((s) => s.client === c && s.intervalMs === INTERVALS_MS[0]) ?? null]));
  return { connections: CONNECTIONS, steps, ceilings, failedAt, fixedRate: fixed };
}

export function describe(r) {
  if (r.error) return `failed: ${r.error}`;
  return `${r.holds ? 'holds' : 'FAILS'}; received ${r.receivedPerSec}/s, p50 ${r.p50Ms.toFixed(1)} ms, p99 ${r.p99Ms.toFixed(1)} ms, ` +
    `missed ${r.missedSlots}/${r.sent}, lost ${r.lost}, CPU ${r.cpuSec.total.toFixed(2)} s (${r.cpuSecPer1000?.toFixed(3)} s/1000), hub ${r.hubCpuSecPer1000?.toFixed(3)} s/1000`;
}
