/**
 * Each scenario on a fake clock and a fake hub that routes like the hub-sample: who sends, with
 * which arguments, to whom, and the exact expected and received counts.
 */
import { describe, expect, it } from 'vitest';
import { validateRunConfig, type RunConfig } from '../../core/run-config/config.ts';
import { PayloadBuilder } from '../../workers/engine/payload.ts';
import { runResult } from '../../core/result/document.ts';
import { arrivedOf, notSentOf, type Fates } from '../../core/accounting/fates.ts';
import type { FakeHubOptions } from '../support/fake-connections.ts';
import { fakeRun } from '../support/fake-run.ts';

function config(overrides: Partial<RunConfig>): RunConfig {
  const result = validateRunConfig({ endpointUrl: 'http://fake/signalrbench', sendIntervalMs: 100, durationSec: 1, ...overrides });
  if (!result.ok) throw new Error(result.errors.join('\n'));
  return result.config;
}

async function runToEnd(runConfig: RunConfig, options: FakeHubOptions = { deliveryDelayMs: 3 }) {
  const run = fakeRun(runConfig, options);
  run.coordinator.start();
  await run.time.advanceByMs(30_000);
  expect(run.coordinator.phase).toBe('done');
  const result = runResult(run.coordinator, new Date(0), 'test');
  const { fates } = result;
  return { ...run, result, totals: run.coordinator.aggregator.totals(), fates, lost: fates.lost };
}

/** The invariant every run keeps: nothing arrives or goes unsent beyond what was planned. */
function expectAccounted(fates: Fates): void {
  expect(arrivedOf(fates) + notSentOf(fates)).toBeLessThanOrEqual(fates.planned);
  expect(arrivedOf(fates) + notSentOf(fates) + (fates.lost ?? Number.NaN)).toBe(fates.planned);
  expect(fates.overCount).toBe(0);
}

describe('scenarios on a fake hub', () => {
  it('broadcast: the 2 default senders are spread across workers, every connection receives every send', async () => {
    const { hub, totals, fates, lost } = await runToEnd(config({ scenario: 'broadcast', connections: 10, workers: 2 }));
    const senders = hub.connections.map((c, i) => (c.sent.length > 0 ? i : -1)).filter((i) => i >= 0);
    expect(senders).toEqual([0, 5]);
    expect(hub.connections[0]!.sent[0]!.method).toBe('Broadcast');
    expect({ ...totals, planned: fates.planned }).toMatchObject({ sent: 20, planned: 200, received: 200, duplicated: 0, foreign: 0 });
    expect(lost).toBe(0);
  });

  it('every payload carries the run\'s id, and so does the run\'s JSON; each run has its own', async () => {
    const { hub, result, coordinator } = await runToEnd(config({ scenario: 'broadcast', connections: 10, workers: 2 }));
    const payload = hub.connections[0]!.sent[0]!.args[1] as string;
    expect(payload.startsWith(`${coordinator.runId}:0:0:`)).toBe(true);
    expect(payload).toHaveLength(2_048);
    expect(result.runId).toBe(coordinator.runId);
    const other = await runToEnd(config({ scenario: 'broadcast', connections: 10, workers: 2 }));
    expect(other.coordinator.runId).not.toBe(coordinator.runId);
  });

  it('small groups: everyone joins its group of 10 and sends GroupBroadcast(group, ts, payload) to it', async () => {
    const { hub, totals, fates, lost, coordinator } = await runToEnd(config({ scenario: 'smallGroup', connections: 30, workers: 3 }));
    // Group names carry the run's id: another run on the same hub has groups of its own.
    const runId = coordinator.runId;
    expect(runId).toMatch(/^[0-9a-z]{8}$/);
    expect(hub.connections.map((c) => [...c.groups][0])).toEqual(Array.from({ length: 30 }, (_, i) => `${runId}-group-${Math.floor(i / 10)}`));
    const first = hub.connections[12]!.sent[0]!;
    expect(first.method).toBe('GroupBroadcast');
    expect(first.args[0]).toBe(`${runId}-group-1`);
    expect(typeof first.args[1]).toBe('number');
    expect({ ...totals, planned: fates.planned }).toMatchObject({ sent: 300, planned: 3_000, received: 3_000 });
    expect(lost).toBe(0);
  });

  it('big groups: 10 groups, 40 senders spread 4 per group', async () => {
    const { hub, totals, fates, lost } = await runToEnd(config({ scenario: 'bigGroup', connections: 100, workers: 2 }));
    const sendersPerGroup = new Map<string, number>();
    hub.connections.forEach((c) => {
      if (c.sent.length > 0) sendersPerGroup.set([...c.groups][0]!, (sendersPerGroup.get([...c.groups][0]!) ?? 0) + 1);
    });
    expect([...sendersPerGroup.values()]).toEqual(new Array(10).fill(4));
    expect({ ...totals, planned: fates.planned }).toMatchObject({ sent: 400, planned: 4_000, received: 4_000 });
    expect(lost).toBe(0);
  });

  it('send to connection: every connection sends to exactly one other, and each is targeted once', async () => {
    const { hub, totals, fates, lost } = await runToEnd(config({ scenario: 'sendToConnection', connections: 12, workers: 3 }));
    const targets = hub.connections.map((c) => c.sent[0]!.args[0] as string);
    hub.connections.forEach((c, i) => expect(targets[i]).not.toBe(`fake-${i}`));
    expect(new Set(targets).size).toBe(12);
    expect({ ...totals, planned: fates.planned }).toMatchObject({ sent: 120, planned: 120, received: 120 });
    expect(lost).toBe(0);
  });

  it('warm-up messages are sent but left out of every figure', async () => {
    const { hub, totals, coordinator } = await runToEnd(config({ scenario: 'echo', connections: 2, workers: 1, durationSec: 2, warmupSec: 1 }));
    expect(hub.connections[0]!.sent).toHaveLength(20);
    expect(totals).toMatchObject({ sent: 20, received: 20 });
    expect(coordinator.aggregator.latency().count).toBe(20);
  });

  it('a hub without the scenario\'s method is named before the run, once per worker', async () => {
    const run = fakeRun(config({ scenario: 'echo', connections: 4, workers: 2 }), { deliveryDelayMs: 3, missingMethods: new Set(['Echo']) });
    run.coordinator.start();
    await run.time.advanceByMs(30_000);
    const { aggregator } = run.coordinator;
    expect(aggregator.errorCounts().protocol).toBe(2);
    expect(aggregator.errorSamples()[0]!.message).toMatch(/did not accept Echo\(…\): .*Method does not exist.*point the endpoint at the hub-sample/);
    expect(aggregator.errorSamples()[0]!.message).not.toContain('..');
  });

  it('probe deliveries are not counted as messages', async () => {
    const { totals, fates, coordinator } = await runToEnd(config({ scenario: 'broadcast', connections: 4, workers: 2 }));
    expect(coordinator.aggregator.errorSamples()).toEqual([]);
    expect({ ...totals, planned: fates.planned }).toMatchObject({ sent: 20, planned: 80, received: 80, duplicated: 0 });
  });

  it('a connection that cannot join its group is counted, and its group still plans every configured member', async () => {
    // The fake hub refuses JoinGroup for the first connection.
    const { coordinator, fates, totals, result } = await runToEnd(config({ scenario: 'smallGroup', connections: 10, workers: 1 }), { deliveryDelayMs: 3, failJoin: new Set([0]) });
    const { aggregator } = coordinator;
    expect(aggregator.errorCounts().join).toBe(1);
    expect(aggregator.errorSamples()[0]!.message).toContain(`JoinGroup("${coordinator.runId}-group-0") failed`);
    // 10 senders x 10 sends x 10 configured members, whoever joined; the member that did not
    // join is owed 100 of them, never sent for its absence.
    expect(fates.planned).toBe(1_000);
    expect(fates.notSent.receiverAbsent).toBe(100);
    expect(totals).toMatchObject({ sent: 100, received: 900 });
    expectAccounted(fates);
    expect(result.verdict.status).toBe('fail');
    expect(result.verdict.sentence).toContain('100 never sent');
  });
});

describe('planned from the configuration, whatever opened', () => {
  it('broadcast plans every configured receiver; the ones that never opened are owed theirs as absent', async () => {
    // One worker, so the fake hub's creation order is the run-wide index: senders 0 and 5 open,
    // receivers 3 and 7 never do.
    const { fates, totals, result } = await runToEnd(config({ scenario: 'broadcast', connections: 10, workers: 1 }), { deliveryDelayMs: 3, failStart: new Set([3, 7]) });
    // 2 senders x 10 sends x 10 configured connections.
    expect(fates.planned).toBe(200);
    expect(fates.notSent.receiverAbsent).toBe(2 * 10 * 2);
    expect(totals).toMatchObject({ sent: 20, received: 160, duplicated: 0, foreign: 0 });
    expectAccounted(fates);
    expect(fates.lost).toBe(0);
    expect(result.verdict.status).toBe('fail');
  });

  it('broadcast with a sender that never opened: its slots still plan every configured receiver', async () => {
    const { fates, totals } = await runToEnd(config({ scenario: 'broadcast', connections: 10, workers: 1 }), { deliveryDelayMs: 3, failStart: new Set([5]) });
    expect(fates.planned).toBe(200);
    // Both senders' slots owe connection 5 its receptions; sender 5's own slots reach nobody else.
    expect(fates.notSent).toMatchObject({ receiverAbsent: 20, disconnected: 90 });
    expect(totals).toMatchObject({ sent: 10, received: 90 });
    expectAccounted(fates);
  });

  it('big groups plan every configured member when a member never opened', async () => {
    const { fates, totals } = await runToEnd(config({ scenario: 'bigGroup', connections: 100, workers: 1 }), { deliveryDelayMs: 3, failStart: new Set([15]) });
    // 40 senders x 10 sends x 10 members per group; connection 15 (group 1, not a sender) is owed
    // the 4 senders of its group x 10 sends.
    expect(fates.planned).toBe(4_000);
    expect(fates.notSent.receiverAbsent).toBe(40);
    expect(totals.received).toBe(3_960);
    expectAccounted(fates);
  });

  it('send to connection gives every configured connection a target and its slots; a target that never opened is absent', async () => {
    const { hub, fates, totals, result } = await runToEnd(config({ scenario: 'sendToConnection', connections: 12, workers: 1 }), { deliveryDelayMs: 3, failStart: new Set([2, 5]) });
    expect(fates.planned).toBe(120);
    // Each connection is targeted once: the two that never opened are owed 10 receptions each.
    expect(fates.notSent.receiverAbsent).toBe(20);
    // The two that never opened still had slots: never sent, unless their target was absent too.
    const absentSenders = [2, 5].filter((i) => hub.connections[i]!.sent.length === 0).length;
    expect(absentSenders).toBe(2);
    expect(fates.notSent.disconnected).toBeGreaterThanOrEqual(10);
    expect(fates.notSent.receiverAbsent + fates.notSent.disconnected + totals.received).toBe(120);
    expectAccounted(fates);
    expect(result.verdict.status).toBe('fail');
  });

  it('a worker that could not open any of its connections: the others plan and owe them all the same', async () => {
    const { fates, totals } = await runToEnd(config({ scenario: 'broadcast', connections: 10, workers: 2 }), { deliveryDelayMs: 3, failStart: new Set([5, 6, 7, 8, 9]) });
    expect(fates.planned).toBe(200);
    expect(fates.notSent.receiverAbsent + fates.notSent.disconnected + totals.received).toBe(200);
    expect(fates.notSent.receiverAbsent).toBeGreaterThanOrEqual(50);
    expectAccounted(fates);
  });
});

describe('the accounting, checked', () => {
  it('a send delivered but counted as never written is an accounting error that fails the run, never netted against a loss', async () => {
    // Send 3 of connection 0 reaches its receiver and then fails on the client; send 5 of
    // connection 1 is lost. Netted, the two would cancel out and the run would pass.
    const { fates, result } = await runToEnd(config({ scenario: 'echo', connections: 2, workers: 1, sendIntervalMs: 1_000, durationSec: 10 }), {
      deliveryDelayMs: 3,
      deliverThenFail: (connection, n) => connection === 0 && n === 3,
      drop: (connection, n) => connection === 1 && n === 5,
    });
    expect(fates.planned).toBe(20);
    expect(fates.notSent.writeFailed).toBe(1);
    expect(arrivedOf(fates)).toBe(19);
    expect(fates.overCount).toBe(1);
    expect(fates.lost).toBe(1);
    expect(result.verdict.status).toBe('fail');
    expect(result.verdict.sentence).toMatch(/^Fail: accounting error: 1 receptions were counted beyond the plan/);
  });

  it('Measure messages of another run are counted as foreign, texts not the tool\'s as unsolicited, never as arrivals or duplicates', async () => {
    const run = fakeRun(config({ scenario: 'echo', connections: 2, workers: 1, durationSec: 2 }), { deliveryDelayMs: 3 });
    run.coordinator.start();
    await run.time.advanceByMs(1_000);
    const [first] = run.hub.connections;
    const nowUs = run.time.nowUs();
    // Another run's header (a different id), a header from before run ids, and no header.
    first!.deliver(nowUs - 1_000, new PayloadBuilder(64, 'zzzzzzzz').build({ sender: 0, seq: 0, sendLagUs: 0, plannedUs: nowUs - 1_000 }));
    first!.deliver(nowUs - 1_000, new PayloadBuilder(64, 'zzzzzzzz').build({ sender: 0, seq: 0, sendLagUs: 0, plannedUs: nowUs - 1_000 }));
    first!.deliver(nowUs - 1_000, '0:1:0|xxxxxxxx');
    first!.deliver(nowUs - 1_000, 'hello');
    await run.time.advanceByMs(30_000);
    const { fates, totals, verdict } = runResult(run.coordinator, new Date(0), 'test');
    expect(totals).toMatchObject({ foreign: 2, unsolicited: 2, duplicated: 0, received: 40 });
    expect(fates.planned).toBe(40);
    expect(fates.overCount).toBe(0);
    expect(verdict.status).toBe('pass');
    expect(run.coordinator.aggregator.errorCounts().protocol).toBe(0);
  });
});
