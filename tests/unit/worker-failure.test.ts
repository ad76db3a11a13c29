/** A worker that dies mid-run: the run says which, goes on with the others, and keeps what it had reported. */
import { describe, expect, it } from 'vitest';
import { validateRunConfig } from '../../core/run-config/config.ts';
import { RunCoordinator, type WorkerPort } from '../../core/execution/coordinator.ts';
import { BenchEngine } from '../../workers/engine/bench-engine.ts';
import type { FromWorker } from '../../core/execution/worker-messages.ts';
import { classifyPlainly, fakeHub } from '../support/fake-connections.ts';
import { FakeTime } from '../support/fake-time.ts';

describe('a worker that crashes', () => {
  it('is named, its figures up to then are kept, and the other worker finishes the run', async () => {
    const result = validateRunConfig({ endpointUrl: 'http://fake/signalrbench', connections: 4, workers: 2, sendIntervalMs: 100, durationSec: 3 });
    if (!result.ok) throw new Error(result.errors.join());
    const time = new FakeTime();
    const hub = fakeHub(time, { deliveryDelayMs: 2 });
    const handlers: ((message: FromWorker) => void)[] = [];
    const engines: BenchEngine[] = [];
    const ports: WorkerPort[] = [0, 1].map((index) => {
      const engine = new BenchEngine({ clock: time, timers: time, connect: hub.factory, classify: classifyPlainly, post: (m) => handlers[index]?.(m) });
      engines.push(engine);
      return { post: (m) => engine.handle(m), onMessage: (h) => (handlers[index] = h), terminate: () => void engine.finish() };
    });
    const coordinator = new RunCoordinator(result.config, ports, time, time);
    coordinator.start();
    await time.advanceByMs(0);
    await time.advanceByMs(1_600);
    const reportedBeforeCrash = coordinator.aggregator.totals().received;
    expect(reportedBeforeCrash).toBeGreaterThan(0);
    // Worker 2 crashes: its thread reports a fatal error and never speaks again.
    handlers[1]!({ type: 'fatal', workerIndex: 1, message: 'out of memory' });
    handlers[1] = () => {};
    await time.advanceByMs(30_000);
    expect(coordinator.phase).toBe('done');
    expect(coordinator.workerFailures).toEqual(['Worker 2 failed and was stopped: out of memory. Its figures up to then are kept.']);
    const health = coordinator.aggregator.workerHealth();
    expect(health.map((w) => w.lost)).toEqual([false, true]);
    // Worker 1 ran to the end: 2 connections x 30 sends; worker 2's reports until the crash are kept.
    const totals = coordinator.aggregator.totals();
    expect(totals.sent).toBeGreaterThanOrEqual(60);
    expect(totals.received).toBeGreaterThanOrEqual(60);
  });

  it('that fails after its final snapshot (dying while it closes its connections) is not lost: its figures were complete', async () => {
    const result = validateRunConfig({ endpointUrl: 'http://fake/signalrbench', connections: 4, workers: 2, sendIntervalMs: 100, durationSec: 2 });
    if (!result.ok) throw new Error(result.errors.join());
    const time = new FakeTime();
    const hub = fakeHub(time, { deliveryDelayMs: 2 });
    const handlers: ((message: FromWorker) => void)[] = [];
    let finals = 0;
    const ports: WorkerPort[] = [0, 1].map((index) => {
      const engine = new BenchEngine({ clock: time, timers: time, connect: hub.factory, classify: classifyPlainly, post: (m) => {
        handlers[index]?.(m);
        // Worker 1 dies right after its final report, before the run is over.
        if (m.type === 'snapshot' && m.final && ++finals === 1) handlers[index]?.({ type: 'fatal', workerIndex: index, message: 'its process was ended by SIGKILL before the run ended it' });
      } });
      return { post: (m) => engine.handle(m), onMessage: (h) => (handlers[index] = h), terminate: () => void engine.finish() };
    });
    const coordinator = new RunCoordinator(result.config, ports, time, time);
    coordinator.start();
    await time.advanceByMs(30_000);
    expect(coordinator.phase).toBe('done');
    expect(finals).toBe(2);
    expect(coordinator.workerFailures).toEqual([]);
    expect(coordinator.aggregator.workerHealth().map((w) => w.lost)).toEqual([false, false]);
    const fates = coordinator.aggregator.settledFates(true);
    // 4 connections x 20 echoes, every one arrived: a pass, not a lost worker.
    expect(fates.planned).toBe(80);
    expect(fates.underOneSecond).toBe(80);
    expect(fates.notSent.workerLost ?? 0).toBe(0);
    expect(coordinator.aggregator.totals().disconnects).toBe(0);
  });

  it('lost before "go": its connections are receivers absent for the others, who still plan every configured one', async () => {
    const result = validateRunConfig({ endpointUrl: 'http://fake/signalrbench', scenario: 'broadcast', connections: 4, workers: 2, sendIntervalMs: 100, durationSec: 3 });
    if (!result.ok) throw new Error(result.errors.join());
    const time = new FakeTime();
    const hub = fakeHub(time, { deliveryDelayMs: 2 });
    const handlers: ((message: FromWorker) => void)[] = [];
    const ports: WorkerPort[] = [0, 1].map((index) => {
      const engine = new BenchEngine({ clock: time, timers: time, connect: hub.factory, classify: classifyPlainly, post: (m) => (index === 1 ? undefined : handlers[index]?.(m)) });
      return { post: (m) => engine.handle(m), onMessage: (h) => (handlers[index] = h), terminate: () => void engine.finish() };
    });
    const coordinator = new RunCoordinator(result.config, ports, time, time);
    coordinator.start();
    // Worker 2 (connections 2 and 3, sender 2) dies before it is ready.
    handlers[1]!({ type: 'fatal', workerIndex: 1, message: 'out of memory' });
    await time.advanceByMs(30_000);
    expect(coordinator.phase).toBe('done');
    const fates = coordinator.aggregator.settledFates(true);
    // Sender 0: 30 slots x the 4 configured receivers; 2 of them were on the lost worker. The lost
    // worker's sender 2 planned as many from the configuration: never sent, the client's loss.
    expect(fates.planned).toBe(240);
    expect(fates.notSent.receiverAbsent).toBe(60);
    expect(fates.notSent.workerLost).toBe(120);
    expect(coordinator.aggregator.totals().received).toBe(60);
    expect(fates).toMatchObject({ lost: 0, overCount: 0 });
  });
});
