/**
 * The hub process is frozen (SIGSTOP) for 8 s in the middle of a run, then thawed: sends back
 * up to a bound per connection (unwritten sends, or bytes in the WebSocket's buffer) and the rest
 * are counted, late messages show in the latency, and the run ends by itself with everything
 * accounted for. (A hub frozen before the run starts: hub-frozen-start.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { MAX_UNWRITTEN_SENDS } from '../../workers/engine/scenario-runner.ts';
import { arrivedOf, notSentOf, type Fates } from '../../core/accounting/fates.ts';
import type { RunConfig } from '../../core/run-config/config.ts';
import { runResult } from '../../core/result/document.ts';
import { systemClock, systemTimers } from '../../core/clocks/clock.ts';
import { RunCoordinator } from '../../core/execution/coordinator.ts';
import { startHub, type RunningHub } from '../support/hub-process.ts';
import { hubConfig, untilSending } from '../support/hub-run.ts';
import { inProcessWorkers } from '../support/in-process-workers.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Nothing counted twice: in each second and in total, what arrived and what was never sent fit in what was planned. */
function expectNoDoubleCounting(total: Fates, seconds: readonly Fates[]) {
  for (const fates of [total, ...seconds]) expect(arrivedOf(fates) + notSentOf(fates)).toBeLessThanOrEqual(fates.planned);
  expect(seconds.reduce((sum, f) => sum + f.planned, 0)).toBe(total.planned);
  expect(seconds.reduce((sum, f) => sum + f.underOneSecond, 0)).toBe(total.underOneSecond);
}

/** Runs, freezing the hub from 2.5 s to 10.5 s into the sends (counted from their start, not the connects'). */
async function runWithStall(hub: RunningHub, config: RunConfig) {
  const coordinator = new RunCoordinator(config, inProcessWorkers(config.workers), systemClock, systemTimers);
  coordinator.start();
  await untilSending(coordinator);
  await sleep(2_500);
  hub.process.kill('SIGSTOP');
  await sleep(8_000);
  hub.process.kill('SIGCONT');
  await coordinator.finished();
  return coordinator;
}

// Each test freezes a hub of its own for 8 s: the two wait side by side.
describe.concurrent('a stalled hub', () => {
  it('backs sends up to a bound, counts the rest, and shows the stall in the latency', async () => {
    const hub = await startHub();
    try {
      const config = { ...hubConfig({ transport: 'LongPolling', connections: 4, workers: 1, sendIntervalMs: 50, durationSec: 14 }), endpointUrl: `${hub.httpUrl}/signalrbench` };
      const coordinator = await runWithStall(hub, config);
      const { aggregator } = coordinator;
      const totals = aggregator.totals();
      // 8 s at 20 sends/s is 160 slots per connection: at most 64 wait unwritten, the rest are counted.
      expect(totals.backedUp).toBeGreaterThan(4 * (160 - MAX_UNWRITTEN_SENDS) * 0.5);
      expect(aggregator.errorSamples().some((s) => /limit of unsent messages/.test(s.message))).toBe(true);
      // What was written during the stall arrived late, measured from its planned time.
      expect(aggregator.latency().maxUs).toBeGreaterThan(5_000_000);
      const result = runResult(coordinator, new Date(), 'test');
      // Each backed-up slot (counted by the runner) is one planned echo never sent (counted in the fates).
      expect(result.fates.notSent.backedUp).toBe(totals.backedUp);
      expect(result.fates.late).toBeGreaterThan(0);
      // Over half of the run stalled: the worst slots stay in the rule, so it fails.
      expect(result.verdict.status).toBe('fail');
      expect(result.verdict.share!).toBeLessThan(0.9);
      expectNoDoubleCounting(result.fates, result.points.map((p) => p.fates));
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
      const coordinator = await runWithStall(hub, config);
      const { aggregator } = coordinator;
      const totals = aggregator.totals();
      expect(totals.backedUp).toBeGreaterThan(50);
      expect(aggregator.latency().maxUs).toBeGreaterThan(3_000_000);
      const result = runResult(coordinator, new Date(), 'test');
      expect(result.fates.notSent.backedUp).toBe(totals.backedUp);
      expect(result.verdict.status).toBe('fail');
      expectNoDoubleCounting(result.fates, result.points.map((p) => p.fates));
    } finally {
      hub.process.kill('SIGCONT');
      await hub.stop();
    }
  });
});
