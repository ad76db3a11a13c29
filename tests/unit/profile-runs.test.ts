/**
 * Hub profiles through the engine on a fake clock and a fake hub: a return value as the
 * reception, the hub's own messages counted apart, and a hub that lacks the profile's methods or
 * never calls its receive method, named.
 */
import { describe, expect, it } from 'vitest';
import { validateRunConfig, type RunConfig } from '../../core/run-config/config.ts';
import { runResult } from '../../core/result/document.ts';
import type { HubProfile } from '../../core/profiles/index.ts';
import type { FakeHubOptions } from '../support/fake-connections.ts';
import { fakeRun } from '../support/fake-run.ts';

function config(hubProfile: HubProfile, overrides: Partial<RunConfig> = {}): RunConfig {
  const result = validateRunConfig({ endpointUrl: 'http://fake/somehub', sendIntervalMs: 100, durationSec: 1, connections: 4, workers: 2, hubProfile, ...overrides });
  if (!result.ok) throw new Error(result.errors.join('\n'));
  return result.config;
}

async function runToEnd(runConfig: RunConfig, options: FakeHubOptions = { deliveryDelayMs: 3 }, afterConnectMs = 0, atConnect?: (run: ReturnType<typeof fakeRun>) => void) {
  const run = fakeRun(runConfig, options);
  run.coordinator.start();
  if (atConnect) {
    await run.time.advanceByMs(afterConnectMs);
    atConnect(run);
  }
  await run.time.advanceByMs(30_000);
  expect(run.coordinator.phase).toBe('done');
  return { ...run, result: runResult(run.coordinator, new Date(0), 'test') };
}

const RETURN: HubProfile = { name: 'request/response', send: { method: 'EchoReturn', args: ['{message}'] }, deliver: 'return' };
const SELF: HubProfile = { name: 'echo on Measure', send: { method: 'Echo', args: ['{time}', '{message}'] }, receive: { method: 'Measure', arg: 1 }, deliver: 'self' };

describe('a profile run on a fake hub', () => {
  it('deliver "return": each completion is the reception, measured to completion, counted exactly', async () => {
    const { result, hub } = await runToEnd(config(RETURN));
    // Each worker's first connection also made the probe's call.
    expect(hub.connections.map((c) => c.sent.length)).toEqual([11, 10, 11, 10]);
    expect(hub.connections.every((c) => c.sent.every((s) => s.method === 'EchoReturn'))).toBe(true);
    expect(result.fates.planned).toBe(40);
    expect(result.totals).toMatchObject({ sent: 40, received: 40, unsolicited: 0, duplicated: 0 });
    // The fake hub completes 3 ms after the call.
    expect(result.latency.p50Us).toBeGreaterThanOrEqual(3_000);
    expect(result.latency.p50Us).toBeLessThan(5_000);
    expect(result.verdict.status).toBe('pass');
    expect(result.config.hubProfile).toEqual(RETURN);
  });

  it('deliver "return": a completion that never comes is lost, never counted', async () => {
    const { result } = await runToEnd(config(RETURN), { deliveryDelayMs: 3, drop: (connection, n) => connection === 1 && n < 3 });
    expect(result.fates).toMatchObject({ planned: 40, lost: 3 });
    expect(result.verdict.status).toBe('fail');
  });

  it('the hub\'s own messages on the receive method are unsolicited, never arrivals', async () => {
    const { result } = await runToEnd(config(SELF), { deliveryDelayMs: 3 }, 200, (run) => {
      for (const connection of run.hub.connections) connection.call('Measure', 'server', 'welcome');
      run.hub.connections[0]!.call('Measure', 'ann', { text: 'hello' });
    });
    expect(result.totals).toMatchObject({ received: 40, unsolicited: 5, foreign: 0 });
    expect(result.fates.planned).toBe(40);
    expect(result.verdict.status).toBe('pass');
  });

  it('a receive method the hub never calls fails the run, naming the method', async () => {
    const { result } = await runToEnd(config({ ...SELF, receive: { method: 'ReceiveMessage', arg: 1 } }));
    expect(result.totals.sent).toBe(40);
    expect(result.outcome).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/^the hub never called ReceiveMessage: 40 messages were sent/) });
    expect(result.verdict.status).toBe('fail');
  });

  it('a send or join method the hub lacks is named before the run, with the profile', async () => {
    const send = await runToEnd(config({ ...SELF, send: { method: 'SendMessage', args: ['{message}'] } }), { deliveryDelayMs: 3, missingMethods: new Set(['SendMessage']) });
    expect(send.result.outcome).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/did not accept SendMessage\(…\): .*Method does not exist\. The hub profile "echo on Measure" sends with SendMessage/) });
    expect(send.result.fates.planned).toBe(0);
    const room: HubProfile = { name: 'rooms', join: { method: 'JoinRoom', args: ['{group}'] }, send: { method: 'GroupBroadcast', args: ['{group}', '{time}', '{message}'] }, receive: { method: 'Measure', arg: 1 }, deliver: 'group' };
    const join = await runToEnd(config(room, { connections: 10, workers: 1 }), { deliveryDelayMs: 3, missingMethods: new Set(['JoinRoom']) });
    expect(join.result.outcome).toMatchObject({ kind: 'failed', reason: expect.stringContaining('did not accept JoinRoom(…)') });
    expect(join.hub.connections.every((c) => c.sent.length === 0)).toBe(true);
  });

  it('a connection the hub closes under the probe\'s call is counted closed, never read as a method the hub lacks', async () => {
    const run = await runToEnd(config(SELF, { workers: 1 }), { deliveryDelayMs: 3, closeUnderCall: new Set([0]) });
    expect(run.result.outcome.kind).toBe('finished');
    expect(run.result.errorSamples.map((s) => s.message).join('\n')).not.toMatch(/did not accept/);
    expect(run.result.totals.disconnects).toBe(1);
    // The closed connection's slots still came due: never sent, so the run cannot pass.
    expect(run.result.fates.notSent.disconnected).toBeGreaterThan(0);
    expect(run.result.verdict.status).toBe('fail');
  });

  it('deliver "groupOthers": each send plans every configured member but the sender', async () => {
    // The fake's GroupBroadcast reaches the sender too: that copy is not planned, and shows as counted beyond the plan.
    const others: HubProfile = { name: 'room others', join: { method: 'JoinGroup', args: ['{group}'] }, send: { method: 'GroupBroadcast', args: ['{group}', '{time}', '{message}'] }, receive: { method: 'Measure', arg: 1 }, deliver: 'groupOthers' };
    const { result } = await runToEnd(config(others, { connections: 10, workers: 1 }));
    // One small group of 10, every member sends 10 times, 9 receivers each.
    expect(result.fates.planned).toBe(900);
    expect(result.fates.overCount).toBe(100);
  });
});
