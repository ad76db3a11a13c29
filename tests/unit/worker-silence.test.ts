/**
 * A worker that stops reporting without dying (a stuck thread, an agent cut off): given up for lost
 * after WORKER_SILENCE_LIMIT_MS like a crashed one, so the run ends and its open seconds close.
 */
import { describe, expect, it } from 'vitest';
import { validateRunConfig } from '../../core/run-config/config.ts';
import { RunCoordinator, type WorkerPort } from '../../core/execution/coordinator.ts';
import { SilenceWatchdog, WATCHDOG_INTERVAL_MS, WORKER_SILENCE_LIMIT_MS } from '../../core/execution/watchdog.ts';
import { BenchEngine } from '../../workers/engine/bench-engine.ts';
import type { FromWorker } from '../../core/execution/worker-messages.ts';
import { classifyPlainly, fakeHub } from '../support/fake-connections.ts';
import { FakeTime } from '../support/fake-time.ts';

describe('a worker that falls silent', () => {
  it('is lost after the silence limit, its open seconds close, and the run ends without it', async () => {
    const result = validateRunConfig({ endpointUrl: 'http://fake/signalrbench', connections: 4, workers: 2, sendIntervalMs: 100, durationSec: 30 });
    if (!result.ok) throw new Error(result.errors.join());
    const time = new FakeTime();
    const hub = fakeHub(time, { deliveryDelayMs: 2 });
    const handlers: ((message: FromWorker) => void)[] = [];
    let silent = false;
    const terminated: number[] = [];
    const ports: WorkerPort[] = [0, 1].map((index) => {
      const engine = new BenchEngine({ clock: time, timers: time, connect: hub.factory, classify: classifyPlainly, post: (m) => (index === 1 && silent ? undefined : handlers[index]?.(m)) });
      return { post: (m) => engine.handle(m), onMessage: (h) => (handlers[index] = h), terminate: () => terminated.push(index) };
    });
    const coordinator = new RunCoordinator(result.config, ports, time, time);
    coordinator.start();
    await time.advanceByMs(3_200);
    expect(coordinator.phase).toBe('running');
    // Worker 2's thread goes on but nothing of it reaches the coordinator any more: no "fatal".
    silent = true;
    const lastReported = coordinator.aggregator.points().at(-1)!.second;
    await time.advanceByMs(WORKER_SILENCE_LIMIT_MS - 1_100);
    expect(coordinator.aggregator.lostWorkers).toBe(0);
    // While it is watched, the seconds it has not reported stay open: no point past its last.
    expect(coordinator.aggregator.points().at(-1)!.second).toBeLessThanOrEqual(lastReported + 1);
    await time.advanceByMs(1_200);
    expect(coordinator.aggregator.workerHealth().map((w) => w.lost)).toEqual([false, true]);
    expect(terminated).toEqual([1]);
    expect(coordinator.workerFailures).toHaveLength(1);
    expect(coordinator.workerFailures[0]).toMatch(/^Worker 2 sent no report for 10 s .*given up for lost: its thread is stuck.*whose failure it was is told once the run ends/);
    // Its open seconds closed at once: the points now follow the remaining worker.
    await time.advanceByMs(2_000);
    expect(coordinator.aggregator.points().at(-1)!.second).toBeGreaterThan(lastReported + 10);
    expect(coordinator.phase).toBe('running');
    await time.advanceByMs(40_000);
    expect(coordinator.phase).toBe('done');
    // Lost once: the watchdog never names it again.
    expect(coordinator.workerFailures).toHaveLength(1);
    expect(coordinator.aggregator.totals().received).toBeGreaterThanOrEqual(2 * 200);
    expect(time.pendingTimers).toBe(0);
  });

  it('leaves alone workers that report, and stops watching when the run is done', async () => {
    const result = validateRunConfig({ endpointUrl: 'http://fake/signalrbench', connections: 4, workers: 2, sendIntervalMs: 100, durationSec: 12 });
    if (!result.ok) throw new Error(result.errors.join());
    const time = new FakeTime();
    const hub = fakeHub(time, { deliveryDelayMs: 2 });
    const handlers: ((message: FromWorker) => void)[] = [];
    const ports: WorkerPort[] = [0, 1].map((index) => {
      const engine = new BenchEngine({ clock: time, timers: time, connect: hub.factory, classify: classifyPlainly, post: (m) => handlers[index]?.(m) });
      return { post: (m) => engine.handle(m), onMessage: (h) => (handlers[index] = h), terminate: () => void engine.finish() };
    });
    const coordinator = new RunCoordinator(result.config, ports, time, time);
    coordinator.start();
    await time.advanceByMs(60_000);
    expect(coordinator.phase).toBe('done');
    expect(coordinator.workerFailures).toEqual([]);
    expect(coordinator.aggregator.lostWorkers).toBe(0);
    expect(time.pendingTimers).toBe(0);
  });
});

describe('SilenceWatchdog', () => {
  it('calls back once per worker silent for the limit, counted from its last message', async () => {
    const time = new FakeTime();
    const silent: [number, number][] = [];
    const watchdog = new SilenceWatchdog(time, time, (w, ms) => silent.push([w, ms]), 3_000);
    watchdog.start(3);
    for (let s = 0; s < 10; s++) {
      await time.advanceByMs(1_000);
      watchdog.heard(0);
      if (s < 4) watchdog.heard(1);
    }
    // Worker 2 silent from the start: lost at 3 s. Worker 1, last heard at 4 s: lost at 7 s.
    expect(silent).toEqual([[2, 3_000], [1, 3_000]]);
    watchdog.forget(0);
    await time.advanceByMs(10_000);
    expect(silent).toHaveLength(2);
    // Nothing left to watch: no timer left either.
    expect(time.pendingTimers).toBe(0);
  });

  it('judges nothing on a check that fires late, when messages may still be queued', async () => {
    const time = new FakeTime();
    // This thread's clock runs ahead of its timers by `blockedUs`: a check fires that much late.
    let blockedUs = 0;
    const clock = { nowUs: () => time.nowUs() + blockedUs };
    const silent: number[] = [];
    const watchdog = new SilenceWatchdog(clock, time, (w) => silent.push(w), 3_000);
    watchdog.start(1);
    // Blocked for 7 s: the check due at 1 s runs at 8 s, before the worker's queued messages are read.
    blockedUs = 7_000_000;
    await time.advanceByMs(WATCHDOG_INTERVAL_MS);
    expect(silent).toEqual([]);
    // The queued message is read, then the next check is on time: 1 s of silence, nothing to judge.
    watchdog.heard(0);
    await time.advanceByMs(WATCHDOG_INTERVAL_MS);
    expect(silent).toEqual([]);
    await time.advanceByMs(3_000);
    expect(silent).toEqual([0]);
    watchdog.stop();
    expect(time.pendingTimers).toBe(0);
  });
});

describe('a worker given up for silence before "go"', () => {
  it('stays lost when its late "ready" arrives: its connections are receivers absent for the others', async () => {
    const result = validateRunConfig({ endpointUrl: 'http://fake/signalrbench', scenario: 'broadcast', connections: 4, workers: 2, sendIntervalMs: 100, durationSec: 3 });
    if (!result.ok) throw new Error(result.errors.join());
    const time = new FakeTime();
    const hub = fakeHub(time, { deliveryDelayMs: 2 });
    const handlers: ((message: FromWorker) => void)[] = [];
    // Worker 2 says nothing that arrives; worker 1 reports but its "ready" is held back, so the
    // run is still at the start line when worker 2 is given up.
    const heldSilent: FromWorker[] = [];
    let heldReady: FromWorker | null = null;
    const ports: WorkerPort[] = [0, 1].map((index) => {
      const post = (m: FromWorker) => {
        if (index === 1) heldSilent.push(m);
        else if (m.type === 'ready') heldReady = m;
        else handlers[index]?.(m);
      };
      const engine = new BenchEngine({ clock: time, timers: time, connect: hub.factory, classify: classifyPlainly, post });
      return { post: (m) => engine.handle(m), onMessage: (h) => (handlers[index] = h), terminate: () => {} };
    });
    const coordinator = new RunCoordinator(result.config, ports, time, time);
    coordinator.start();
    await time.advanceByMs(WORKER_SILENCE_LIMIT_MS + 1_000);
    expect(coordinator.aggregator.isLost(1)).toBe(true);
    expect(coordinator.phase).toBe('connecting');
    // Worker 2's messages arrive late, its "ready" among them; then worker 1's "ready": "go".
    expect(heldSilent.some((m) => m.type === 'ready')).toBe(true);
    for (const message of heldSilent) handlers[1]!(message);
    handlers[0]!(heldReady!);
    await time.advanceByMs(30_000);
    expect(coordinator.phase).toBe('done');
    expect(coordinator.workerFailures).toHaveLength(1);
    // Sender 0: 30 slots x the 4 configured receivers; the 2 on the lost worker are absent, not lost.
    // Sender 2, on the lost worker: its 30 slots x 4 are planned all the same, never sent, the client's.
    const fates = coordinator.aggregator.settledFates(true);
    expect(fates.planned).toBe(240);
    expect(fates.notSent.receiverAbsent).toBe(60);
    expect(fates.notSent.workerLost).toBe(120);
    expect(coordinator.aggregator.totals().received).toBe(60);
  });
});
