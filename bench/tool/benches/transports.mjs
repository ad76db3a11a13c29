// 6. Transports and protocols: the same echo load over every combination the browser allows
// (Server-Sent Events carry text only: no MessagePack), from the tab, over the hub's HTTPS
// listener so SSE and long polling share one HTTP/2 connection instead of HTTP/1.1's 6 per origin.
// 40 connections: long polling holds one poll and up to one POST per connection, under Kestrel's
// 100 streams per HTTP/2 connection.
import { runTab } from '../lib/runs.mjs';

export const COMBINATIONS = [
  ['WebSockets', 'json'], ['WebSockets', 'messagepack'], ['ServerSentEvents', 'json'], ['LongPolling', 'json'], ['LongPolling', 'messagepack'],
];
const LOAD = { connections: 40, intervalMs: 100 };

export async function transports(ctx) {
  const rows = [];
  for (const [transport, protocol] of COMBINATIONS) {
    const load = { ...LOAD, transport, protocol, durationSec: ctx.transportSec, warmupSec: ctx.warmupSec };
    let r;
    try {
      r = await runTab(ctx, load, { base: ctx.hub.httpsUrl });
    } catch (error) {
      r = { client: 'tab', transport, protocol, holds: false, error: error.message };
    }
    ctx.log(`transports ${transport} ${protocol}: ${r.error ?? `p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms, ${r.receivedPerSec}/s, CPU ${r.cpuSecPer1000?.toFixed(3)} s/1000`}`);
    rows.push(r);
  }
  return { load: LOAD, rows };
}
