/**
 * The engine and the coordinator driven by a fake clock and fake connections: scheduling,
 * accounting of lost and duplicated messages, failures that do not stop the run.
 */
import { describe, expect, it } from 'vitest';
import { arrivedOf, lostOf, notSentOf, unaccountedOf } from '../../core/accounting/fates.ts';
import { validateRunConfig, type RunConfig } from '../../core/run-config/config.ts';
import { runResult } from '../../core/result/document.ts';
import { GO_LEAD_MS, type RunCoordinator } from '../../core/execution/coordinator.ts';
import { limitOfResult } from '../../core/result/limit.ts';
import { fakeRun } from '../support/fake-run.ts';
import { flushMicrotasks } from '../support/fake-time.ts';

const result = (coordinator: RunCoordinator) => runResult(coordinator, new Date(0), 'test');

function config(overrides: Partial<RunConfig>): RunConfig {
  const result = validateRunConfig({ endpointUrl: 'http://fake/signalrbench', ...overrides });
  if (!result.ok) throw new Error(result.errors.join('\n'));
  return result.config;
}

describe('a run with fake connections', () => {
  it('sends on schedule from every connection and measures each echo from its planned time', async () => {
    const { time, coordinator } = fakeRun(config({ connections: 4, workers: 2, sendIntervalMs: 100, durationSec: 2 }), { deliveryDelayMs: 7 });
    coordinator.start();
    await time.advanceByMs(30_000);
    expect(coordinator.phase).toBe('done');
    const totals = coordinator.aggregator.totals();
    expect(totals).toMatchObject({ sent: 80, received: 80, duplicated: 0, missedSlots: 0, connectionsOpened: 4 });
    expect(result(coordinator).fates).toMatchObject({ planned: 80, underOneSecond: 80, late: 0, lost: 0 });
    const latency = coordinator.aggregator.latency();
    // Every echo took 7 ms on the fake clock; HdrHistogram keeps 3 significant digits.
    expect(latency.p50Us).toBeGreaterThanOrEqual(6_995);
    expect(latency.maxUs).toBeLessThanOrEqual(7_010);
    expect(coordinator.outcome).toEqual({ kind: 'finished' });
    expect(result(coordinator).verdict).toMatchObject({ status: 'pass', share: 1, delivery: 1 });
  });

  it('records the planned send window, so a reader can cut its own figures (CPU) to the measured seconds', async () => {
    const { time, coordinator } = fakeRun(config({ connections: 2, workers: 1, sendIntervalMs: 100, durationSec: 3, warmupSec: 1 }), { deliveryDelayMs: 2 });
    expect(result(coordinator).sendWindow).toBeUndefined();
    const startedUs = time.nowUs();
    coordinator.start();
    await time.advanceByMs(30_000);
    const window = result(coordinator).sendWindow;
    expect(window).toBeDefined();
    expect(window!.endUs - window!.startUs).toBe(3_000_000);
    // "go" waits for every worker to be ready, then leads the first slot by GO_LEAD_MS.
    expect(window!.startUs).toBeGreaterThan(startedUs);
    expect(window!.startUs).toBeLessThan(startedUs + 5_000_000);
    // The ramp's end is recorded: when every worker was ready, GO_LEAD_MS before the first slot.
    expect(window!.runStartUs).toBe(startedUs);
    expect(window!.readyUs).toBe(window!.startUs - GO_LEAD_MS * 1_000);
    expect(window!.readyUs).toBeGreaterThan(window!.runStartUs!);
    // The connects alone: from the first connect's start, after the engines' set-up, to the last
    // open, before the method check that precedes "ready".
    expect(window!.connectsFromUs).toBeGreaterThanOrEqual(window!.runStartUs!);
    expect(window!.lastOpenedUs).toBeGreaterThan(window!.connectsFromUs!);
    expect(window!.lastOpenedUs).toBeLessThanOrEqual(window!.readyUs!);
  });

  it('counts dropped echoes as lost and repeated ones as duplicated', async () => {
    const { time, coordinator } = fakeRun(config({ connections: 2, workers: 1, sendIntervalMs: 100, durationSec: 1 }), {
      deliveryDelayMs: 5,
      drop: (connection, n) => connection === 0 && n % 5 === 0,
      duplicate: (connection, n) => connection === 1 && n === 3,
    });
    coordinator.start();
    await time.advanceByMs(30_000);
    expect(coordinator.aggregator.totals()).toMatchObject({ sent: 20, received: 18, duplicated: 1 });
    expect(result(coordinator).fates).toMatchObject({ planned: 20, underOneSecond: 18, lost: 2 });
    expect(result(coordinator).verdict.status).toBe('fail');
    expect(coordinator.aggregator.latency().count).toBe(18);
  });

  it('keeps running when some connections fail to start, and says why', async () => {
    const { time, coordinator } = fakeRun(config({ connections: 5, workers: 1, sendIntervalMs: 500, durationSec: 1 }), {
      deliveryDelayMs: 1,
      failStart: new Set([1, 3]),
    });
    coordinator.start();
    await time.advanceByMs(30_000);
    const { aggregator } = coordinator;
    expect(aggregator.totals()).toMatchObject({ connectionsOpened: 3, connectionsFailed: 2, sent: 6, received: 6 });
    expect(aggregator.errorCounts().negotiate).toBe(2);
    expect(aggregator.errorSamples()).toEqual([{ kind: 'negotiate', message: expect.stringContaining('refused'), count: 2 }]);
    // The two that never opened still had their slots: 2 each, counted as never sent.
    expect(result(coordinator).fates).toMatchObject({ planned: 10, underOneSecond: 6, notSent: { disconnected: 4 }, lost: 0 });
    expect(result(coordinator).verdict.status).toBe('fail');
    // The refusal names no cause: counted as such, never put on either side.
    expect(result(coordinator).connectCauses).toEqual({ other: 2 });
  });

  it('counts failed connects by cause, so the client\'s own limits (EMFILE) reach the run\'s document and its limit', async () => {
    const { time, coordinator } = fakeRun(config({ connections: 5, workers: 2, sendIntervalMs: 500, durationSec: 1 }), {
      deliveryDelayMs: 1,
      failStart: new Set([1, 3, 4]),
      failStartMessage: 'Failed to complete negotiation with the server: TypeError: fetch failed (EMFILE: connect EMFILE 127.0.0.1:5000 - Local (undefined:undefined))',
    });
    coordinator.start();
    await time.advanceByMs(30_000);
    const run = result(coordinator);
    expect(run.connectCauses).toEqual({ EMFILE: 3 });
    expect(run.totals.connectionsFailed).toBe(3);
    expect(limitOfResult(run)).toMatchObject({ side: 'client', sentence: expect.stringMatching(/^The client could not open 3 connections for want of its own resources \(3 EMFILE/) });
  });

  it('counts a connection closed by the server, stops its sends, counts its unanswered send as lost and its later slots as never sent', async () => {
    const { time, hub, coordinator } = fakeRun(config({ connections: 2, workers: 1, sendIntervalMs: 100, durationSec: 1 }), { deliveryDelayMs: 80 });
    coordinator.start();
    await time.advanceByMs(0);
    expect(coordinator.phase).toBe('running');
    // The 250 ms lead to the first send, then sends at 0, 100 and 200 ms on connection 0; the
    // echo of the last one (due at 280 ms) is still on its way when the server closes.
    await time.advanceByMs(250 + 260);
    expect(hub.connections[0]!.sent.length).toBe(3);
    const sentBeforeClose = hub.connections[0]!.sent.length;
    hub.connections[0]!.serverClose(new Error('Server timeout elapsed'));
    await time.advanceByMs(30_000);
    expect(hub.connections[0]!.sent.length).toBe(sentBeforeClose);
    const { aggregator } = coordinator;
    expect(aggregator.errorCounts().closed).toBe(1);
    expect(aggregator.errorSamples()[0]!.message).toContain('Server timeout elapsed');
    // Connection 1 sent all 10; connection 0's last send was in flight when it closed.
    expect(aggregator.totals().sent).toBe(10 + sentBeforeClose);
    expect(result(coordinator).fates).toMatchObject({ planned: 20, underOneSecond: 12, lost: 1, notSent: { disconnected: 7 } });
    expect(result(coordinator).verdict.status).toBe('fail');
  });

  it('ends the run early as failed once every connection is closed and Reconnect is off: nothing is left to measure', async () => {
    const { time, hub, coordinator } = fakeRun(config({ connections: 2, workers: 2, sendIntervalMs: 100, durationSec: 30 }), { deliveryDelayMs: 5 });
    const startedUs = time.nowUs();
    coordinator.start();
    await time.advanceByMs(0);
    expect(coordinator.sendWindowUs.runStartUs).toBe(startedUs);
    await time.advanceByMs(250 + 3_000);
    hub.connections[0]!.serverClose(new Error('WebSocket closed with status code: 1006 (no reason given).'));
    await time.advanceByMs(1_500);
    // One connection is left: the run goes on.
    expect(coordinator.phase).toBe('running');
    hub.connections[1]!.serverClose(new Error('WebSocket closed with status code: 1006 (no reason given).'));
    await time.advanceByMs(3_000);
    expect(coordinator.phase).toBe('done');
    expect(coordinator.outcome.kind).toBe('failed');
    expect(coordinator.outcome.reason).toMatch(/^every connection was closed by [45] s and Reconnect is off: nothing was left to measure\. .*1006/);
    // Well before the planned 30 s.
    expect(time.nowUs() - startedUs).toBeLessThan(10_000_000);
    const run = result(coordinator);
    expect(run.verdict.status).toBe('fail');
    // The configuration's plan still counts whole: what the closes left unsent is the
    // disconnections', never the client's (no missed slot), and every planned second has its point.
    expect(run.fates.planned).toBe(2 * 10 * 30);
    expect(run.fates.notSent.clientBehind ?? 0).toBe(0);
    expect(run.totals.missedSlots).toBe(0);
    expect(run.fates.notSent.disconnected).toBeGreaterThan(2 * 10 * 25);
    expect(run.fates.lost).toBe(run.fates.planned - arrivedOf(run.fates) - notSentOf(run.fates));
    expect(run.points.reduce((sum, p) => sum + p.fates.planned, 0)).toBe(run.fates.planned);
  });

  it('waits out a run whose connections all closed when Reconnect is on', async () => {
    const { time, hub, coordinator } = fakeRun(config({ connections: 1, workers: 1, sendIntervalMs: 100, durationSec: 5, reconnect: true }), { deliveryDelayMs: 5 });
    coordinator.start();
    await time.advanceByMs(250 + 1_000);
    hub.connections[0]!.serverClose(new Error('gone'));
    await time.advanceByMs(2_500);
    expect(coordinator.phase).toBe('running');
    await time.advanceByMs(30_000);
    expect(coordinator.outcome.kind).toBe('finished');
  });

  it('counts sends that left more than one interval late as missed slots', async () => {
    const { time, coordinator } = fakeRun(config({ connections: 1, workers: 1, sendIntervalMs: 100, durationSec: 1 }), { deliveryDelayMs: 1 });
    coordinator.start();
    await time.advanceByMs(0);
    await time.advanceByMs(250 + 50);
    time.jumpByMs(350);
    await time.advanceByMs(30_000);
    const totals = coordinator.aggregator.totals();
    expect(totals.sent).toBe(10);
    // Slots due at 100, 200, 300 ms left at 400 ms: 300 and 200 ms late.
    expect(totals.missedSlots).toBe(2);
    expect(coordinator.aggregator.latency().maxUs).toBeGreaterThanOrEqual(300_000);
    expect(coordinator.aggregator.uncorrectedLatency().maxUs).toBeLessThan(2_000);
  });

  it('counts the slots that came due and never fired as planned, never sent and missed, when a stalled client is ended', async () => {
    const { time, coordinator, ports } = fakeRun(config({ connections: 2, workers: 1, sendIntervalMs: 100, durationSec: 1 }), { deliveryDelayMs: 1 });
    coordinator.start();
    await time.advanceByMs(0);
    await time.advanceByMs(250 + 50);
    // The worker's event loop is held past the planned end, then the worker is ended before its
    // timers run again: what it had not sent must still be in the plan.
    time.jumpByMs(2_000);
    ports[0]!.terminate();
    await flushMicrotasks();
    const fates = coordinator.aggregator.fates();
    const totals = coordinator.aggregator.totals();
    expect(fates.planned).toBe(20);
    expect(fates.notSent.clientBehind).toBeGreaterThan(0);
    expect(fates.notSent.clientBehind + totals.sent).toBe(20);
    expect(totals.missedSlots).toBe(fates.notSent.clientBehind);
  });

  it('stops early on request, drains and reports once per worker', async () => {
    const { time, hub, coordinator } = fakeRun(config({ connections: 4, workers: 2, sendIntervalMs: 100, durationSec: 60 }), { deliveryDelayMs: 20 });
    coordinator.start();
    await time.advanceByMs(0);
    await time.advanceByMs(250 + 1_990);
    coordinator.stop();
    await time.advanceByMs(10_000);
    expect(coordinator.phase).toBe('done');
    const totals = coordinator.aggregator.totals();
    // 2 s of 4 connections at 10 msg/s each, instead of 60 s.
    expect(totals.sent).toBe(80);
    expect(totals.received).toBe(totals.sent);
    expect(hub.connections.every((c) => c.stopped)).toBe(true);
    expect(coordinator.outcome).toEqual({ kind: 'stopped', stoppedAtSec: 1 });
    expect(result(coordinator).verdict.status).toBe('none');
  });

  it('ends at once with outcome failed when no connection opens, instead of waiting out the duration', async () => {
    const { time, coordinator } = fakeRun(config({ connections: 3, workers: 1, durationSec: 60 }), { deliveryDelayMs: 1, failStart: new Set([0, 1, 2]) });
    coordinator.start();
    await time.advanceByMs(100);
    expect(coordinator.phase).toBe('done');
    expect(coordinator.outcome.kind).toBe('failed');
    expect(coordinator.outcome.reason).toMatch(/^no connection could be opened\. .*refused/);
    expect(result(coordinator).verdict.status).toBe('fail');
  });

  it('ends at once with outcome failed when the hub lacks the scenario\'s method', async () => {
    const { time, coordinator } = fakeRun(config({ connections: 2, workers: 1, durationSec: 60 }), { deliveryDelayMs: 1, missingMethods: new Set(['Echo']) });
    coordinator.start();
    await time.advanceByMs(100);
    expect(coordinator.phase).toBe('done');
    expect(coordinator.outcome).toMatchObject({ kind: 'failed', reason: expect.stringContaining('did not accept Echo') });
  });

  it('keeps draining while late messages still arrive, past the old fixed 2 s drain', async () => {
    // Every echo takes 5 s: the whole last 5 s of sends is still in flight at the planned end.
    const { time, coordinator } = fakeRun(config({ connections: 2, workers: 1, sendIntervalMs: 1_000, durationSec: 10 }), { deliveryDelayMs: 5_000 });
    coordinator.start();
    await time.advanceByMs(60_000);
    const { fates } = result(coordinator);
    expect(fates).toMatchObject({ planned: 20, underOneSecond: 0, late: 20, lost: 0 });
    expect(coordinator.outcome.kind).toBe('finished');
  });

  it('ends the drain after its quiet period when nothing more arrives (a stalled hub), and counts the rest as lost', async () => {
    const { time, coordinator } = fakeRun(config({ connections: 2, workers: 1, sendIntervalMs: 1_000, durationSec: 4 }), {
      deliveryDelayMs: 1,
      drop: (_connection, n) => n >= 2,
    });
    coordinator.start();
    await time.advanceByMs(0);
    const planned = coordinator.sendWindowUs;
    await time.advanceByMs(60_000);
    const { fates } = result(coordinator);
    expect(fates).toMatchObject({ planned: 8, underOneSecond: 4, lost: 4 });
    expect(lostOf(fates, true)).toBe(unaccountedOf(fates));
    expect(planned.endUs - planned.startUs).toBe(4_000_000);
  });
});
