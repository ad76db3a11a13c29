/**
 * The hub process is frozen (SIGSTOP) for 8 s in the middle of a run, then thawed: sends back
 * up to a bound per connection (unwritten sends, or bytes in the WebSocket's buffer) and the rest
 * are counted, late messages show in the latency, and the run ends by itself with everything
 * accounted for.
 */
import { describe, expect, it } from 'vitest';
import { MAX_UNWRITTEN_SENDS } from '../../workers/engine/scenario-runner.ts';
import type { RunConfig } from '../../core/run-config.ts';
import { startHub, type RunningHub } from '../support/hub-process.ts';
import { hubConfig, runInProcess } from '../support/hub-run.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs, freezing the hub from 3 s to 11 s into the run. */
async function runWithStall(hub: RunningHub, config: RunConfig) {
  const run = runInProcess(config);
  await sleep(3_000);
  hub.process.kill('SIGSTOP');
  await sleep(8_000);
  hub.process.kill('SIGCONT');
  return run;
}

describe('a stalled hub', () => {
  it('backs sends up to a bound, counts the rest, and shows the stall in the latency', async () => {
    const hub = await startHub();
    try {
      const config = { ...hubConfig({ transport: 'LongPolling', connections: 4, workers: 1, sendIntervalMs: 50, durationSec: 14 }), endpointUrl: `${hub.httpUrl}/signalrbench` };
      const { aggregator } = await runWithStall(hub, config);
      const totals = aggregator.totals();
      // 8 s at 20 sends/s is 160 slots per connection: at most 64 wait unwritten, the rest are counted.
      expect(totals.backedUp).toBeGreaterThan(4 * (160 - MAX_UNWRITTEN_SENDS) * 0.5);
      expect(aggregator.errorSamples().some((s) => /limit of unsent messages/.test(s.message))).toBe(true);
      // What was written during the stall arrived late, measured from its planned time.
      expect(aggregator.latency().maxUs).toBeGreaterThan(5_000_000);
      expect(aggregator.underOneSecondShare()!).toBeLessThan(1);
      // Every expected reception is either received or counted lost.
      expect(totals.received + aggregator.lost()!).toBe(totals.expected);
    } finally {
      hub.process.kill('SIGCONT');
      await hub.stop();
    }
  });

  it('over WebSockets, bounds what waits in the socket\'s buffer and counts the rest', async () => {
    const hub = await startHub();
    try {
      // 64 KiB every 50 ms per connection: 1.3 MB/s each, more than the kernel's socket buffers hold in 8 s.
      const config = { ...hubConfig({ connections: 2, workers: 1, messageBytes: 65_536, sendIntervalMs: 50, durationSec: 14 }), endpointUrl: `${hub.httpUrl}/signalrbench` };
      const { aggregator } = await runWithStall(hub, config);
      const totals = aggregator.totals();
      expect(totals.backedUp).toBeGreaterThan(50);
      expect(aggregator.latency().maxUs).toBeGreaterThan(3_000_000);
      expect(totals.received + aggregator.lost()!).toBe(totals.expected);
    } finally {
      hub.process.kill('SIGCONT');
      await hub.stop();
    }
  });
});
