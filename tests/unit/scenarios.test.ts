/**
 * Each scenario on a fake clock and a fake hub that routes like the hub-sample: who sends, with
 * which arguments, to whom, and the exact expected and received counts.
 */
import { describe, expect, it } from 'vitest';
import { validateRunConfig, type RunConfig } from '../../core/run-config.ts';
import { runResult } from '../../core/run-result.ts';
import { fakeRun } from '../support/fake-run.ts';

function config(overrides: Partial<RunConfig>): RunConfig {
  const result = validateRunConfig({ endpointUrl: 'http://fake/signalrbench', sendIntervalMs: 100, durationSec: 1, ...overrides });
  if (!result.ok) throw new Error(result.errors.join('\n'));
  return result.config;
}

async function runToEnd(runConfig: RunConfig, options = { deliveryDelayMs: 3 }) {
  const run = fakeRun(runConfig, options);
  run.coordinator.start();
  await run.time.advanceByMs(30_000);
  expect(run.coordinator.phase).toBe('done');
  const { fates } = runResult(run.coordinator, new Date(0), 'test');
  return { ...run, totals: run.coordinator.aggregator.totals(), fates, lost: fates.lost };
}

describe('scenarios on a fake hub', () => {
  it('broadcast: the 2 default senders are spread across workers, every connection receives every send', async () => {
    const { hub, totals, fates, lost } = await runToEnd(config({ scenario: 'broadcast', connections: 10, workers: 2 }));
    const senders = hub.connections.map((c, i) => (c.sent.length > 0 ? i : -1)).filter((i) => i >= 0);
    expect(senders).toEqual([0, 5]);
    expect(hub.connections[0]!.sent[0]!.method).toBe('Broadcast');
    expect({ ...totals, planned: fates.planned }).toMatchObject({ sent: 20, planned: 200, received: 200, duplicated: 0 });
    expect(lost).toBe(0);
  });

  it('small groups: everyone joins its group of 10 and sends GroupBroadcast(group, ts, payload) to it', async () => {
    const { hub, totals, fates, lost } = await runToEnd(config({ scenario: 'smallGroup', connections: 30, workers: 3 }));
    expect(hub.connections.map((c) => [...c.groups][0])).toEqual(Array.from({ length: 30 }, (_, i) => `group-${Math.floor(i / 10)}`));
    const first = hub.connections[12]!.sent[0]!;
    expect(first.method).toBe('GroupBroadcast');
    expect(first.args[0]).toBe('group-1');
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

  it('a connection that cannot join its group is counted, and its group expects one member fewer', async () => {
    // The fake hub refuses JoinGroup for the first connection.
    const run = fakeRun(config({ scenario: 'smallGroup', connections: 10, workers: 1 }), { deliveryDelayMs: 3, failJoin: new Set([0]) });
    run.coordinator.start();
    await run.time.advanceByMs(30_000);
    const { aggregator } = run.coordinator;
    expect(aggregator.errorCounts().join).toBe(1);
    expect(aggregator.errorSamples()[0]!.message).toContain('JoinGroup("group-0") failed');
    // 10 senders, 9 members joined: 10 x 10 sends x 9 recipients.
    expect(aggregator.totals()).toMatchObject({ sent: 100, received: 900 });
    expect(aggregator.fates().planned).toBe(900);
  });
});
