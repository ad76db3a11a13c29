// 4. Ramp-up: time from pressing Start to 255 open WebSockets, with the default pacing (8
// connects in flight) and with all 255 at once, each twice, alternating.
import { runTab } from '../lib/runs.mjs';

const CONNECTIONS = 255;
const CONCURRENCIES = [8, 255];

export async function rampUp(ctx) {
  const runs = [];
  for (let repeat = 0; repeat < (ctx.quick ? 1 : 2); repeat++) {
    for (const connectConcurrency of CONCURRENCIES) {
      const r = await runTab(ctx, { connections: CONNECTIONS, intervalMs: 1_000, durationSec: 2 }, { extraQuery: { connectConcurrency: String(connectConcurrency) } });
      runs.push({ connectConcurrency, rampMs: r.rampMs, connectionsOpened: r.connectionsOpened, connectFailures: r.errorCounts?.connect ?? 0 });
      ctx.log(`ramp-up ${connectConcurrency} in flight: ${r.connectionsOpened} open in ${r.rampMs} ms`);
    }
  }
  const summary = CONCURRENCIES.map((connectConcurrency) => {
    const mine = runs.filter((r) => r.connectConcurrency === connectConcurrency);
    return { connectConcurrency, rampMs: mine.map((r) => r.rampMs), opened: mine.map((r) => r.connectionsOpened), meanRampMs: Math.round(mine.reduce((s, r) => s + r.rampMs, 0) / mine.length) };
  });
  return { connections: CONNECTIONS, runs, summary };
}
