/**
 * The hub-sample process is killed in the middle of a run and started again on the same port:
 * without reconnect the run keeps what it measured and ends at once as failed (nothing is left to
 * measure); with reconnect every connection comes back, is counted, and its sends resume.
 */
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { systemClock, systemTimers } from '../../core/clocks/clock.ts';
import { validateRunConfig } from '../../core/run-config/config.ts';
import { RunCoordinator } from '../../core/execution/coordinator.ts';
import { runResult } from '../../core/result/document.ts';
import { startHub } from '../support/hub-process.ts';
import { inProcessWorkers } from '../support/in-process-workers.ts';
import { untilSending } from '../support/hub-run.ts';

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function runThroughRestart(reconnect: boolean) {
  const port = await freePort();
  let hub = await startHub({ extraArgs: ['--port', String(port)] });
  const result = validateRunConfig({ endpointUrl: `http://127.0.0.1:${port}/signalrbench`, connections: 10, workers: 2, sendIntervalMs: 200, durationSec: 10, reconnect });
  if (!result.ok) throw new Error(result.errors.join());
  const coordinator = new RunCoordinator(result.config, inProcessWorkers(2), systemClock, systemTimers);
  try {
    coordinator.start();
    // 3 s into the sends (about 150 received), however long the connects took.
    await untilSending(coordinator);
    await sleep(3_000);
    const beforeKill = coordinator.aggregator.totals().received;
    hub.process.kill('SIGKILL');
    const killedAtMs = Date.now();
    const ended = coordinator.finished().then(() => Date.now() - killedAtMs);
    await sleep(1_500);
    hub = await startHub({ extraArgs: ['--port', String(port)] });
    await coordinator.finished();
    return { coordinator, beforeKill, endedAfterKillMs: await ended };
  } finally {
    await hub.stop();
  }
}

describe('the hub stops and comes back mid-run', () => {
  it('without reconnect: connections are counted as closed, what was measured is kept, the run ends early as failed', async () => {
    const { coordinator, beforeKill, endedAfterKillMs } = await runThroughRestart(false);
    const { aggregator } = coordinator;
    const totals = aggregator.totals();
    expect(beforeKill).toBeGreaterThan(50);
    expect(totals.disconnects).toBe(10);
    expect(totals.reconnects).toBe(0);
    expect(aggregator.errorCounts().closed).toBe(10);
    expect(totals.received).toBeGreaterThanOrEqual(beforeKill);
    expect(aggregator.latency().count).toBe(totals.received);
    // Nothing arrives after the connections closed: the run's last second, after every close, is empty.
    const last = aggregator.points().at(-1)!;
    expect(last.received).toBe(0);
    expect(aggregator.errorSamples().find((s) => s.kind === 'closed')!.message).toMatch(/Connection closed during the run/);
    // The slots after the kill still came due: never sent, so the run cannot pass.
    const { fates, verdict, outcome } = runResult(coordinator, new Date(), 'test');
    expect(outcome.kind).toBe('failed');
    expect(outcome.reason).toMatch(/^every connection was closed by \d+ s and Reconnect is off: nothing was left to measure\. Connection closed during the run/);
    // It ended once the closes were in, not after its planned 10 s and drain (about 6 s and more after the kill).
    expect(endedAfterKillMs).toBeLessThan(5_000);
    expect(fates.notSent.disconnected).toBeGreaterThan(0);
    expect(verdict.status).toBe('fail');
  });

  it('with reconnect: every connection comes back, is counted, and its sends resume', async () => {
    const { coordinator, beforeKill } = await runThroughRestart(true);
    const { aggregator } = coordinator;
    const totals = aggregator.totals();
    expect(totals.disconnects).toBe(10);
    expect(totals.reconnects).toBe(10);
    expect(aggregator.errorSamples().find((s) => s.kind === 'closed')!.message).toMatch(/reconnecting/);
    // Messages flowed again after the restart: more than a second's worth beyond what came before the kill.
    expect(totals.received).toBeGreaterThan(beforeKill + 50);
    const lateSeconds = aggregator.points().filter((p) => p.received > 0).at(-1)!;
    expect(lateSeconds.second).toBeGreaterThan(8);
    // What fell due while reconnecting was never sent, and counted so: the run does not pass.
    const { fates, verdict } = runResult(coordinator, new Date(), 'test');
    expect(fates.notSent.reconnecting).toBeGreaterThan(0);
    expect(verdict.status).toBe('fail');
  });
});
