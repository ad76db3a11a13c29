/**
 * Hub profiles against the real hub-sample's test hubs (--EnableTestHubs true) with the built
 * runner: the chat tutorial's hub and a request/response hub driven unchanged through the
 * examples in profiles/, and the bundled contract's five scenarios as profiles. Transports and
 * protocols are spread across the runs (each transport and each protocol at least once). Exact
 * counts from the arguments, verdict pass, exit 0; the chat hub's welcome messages counted as
 * unsolicited; a missing method named with exit 3 in seconds; a receive method never called
 * named in a failed run. Runs of one test go at once: each is small.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRunResult, type RunResult } from '../../core/result/result.ts';
import { startHub, type RunningHub } from '../support/hub-process.ts';
import { liveBench, type CliRun } from '../support/live-bench.ts';
import { expectAccounting } from '../support/accounting.ts';

let hub: RunningHub;
let dir: string;

beforeAll(async () => {
  hub = await startHub({ extraArgs: ['--EnableTestHubs', 'true'] });
  dir = await mkdtemp(path.join(os.tmpdir(), 'live-bench-profiles-'));
}, 60_000);

afterAll(async () => {
  await hub?.stop();
});

const INTERVAL_MS = 250;
const DURATION_SEC = 2;
/** Each sender's slots: one every 250 ms over 2 s. */
const SENDS = (DURATION_SEC * 1_000) / INTERVAL_MS;

interface ProfileRun {
  hubPath: string;
  profile: string;
  args: string[];
}

async function runProfile({ hubPath, profile, args }: ProfileRun): Promise<{ run: CliRun; result: RunResult | null }> {
  const jsonPath = path.join(dir, `${path.basename(profile, '.json')}-${hubPath.slice(1)}.json`);
  const run = await liveBench(['--endpoint', `${hub.httpUrl}${hubPath}`, '--hub-profile', `profiles/${profile}`, '--interval-ms', String(INTERVAL_MS),
    '--duration', String(DURATION_SEC), '--warmup', '0', '--drain-s', '10', '--workers', '1', '--quiet', '--json', jsonPath, ...args]);
  const text = await readFile(jsonPath, 'utf8').catch(() => null);
  return { run, result: text === null ? null : parseRunResult(text) };
}

function expectPass({ run, result }: { run: CliRun; result: RunResult | null }, planned: number): RunResult {
  expect(run.code, run.stderr).toBe(0);
  expect(result).not.toBeNull();
  expectAccounting(result!, planned);
  expect(result!.totals.received).toBe(planned);
  expect(result!.totals.duplicated).toBe(0);
  expect(result!.fates.lost).toBe(0);
  expect(result!.verdict.status).toBe('pass');
  return result!;
}

describe('the examples in profiles/ against hubs of their shape', () => {
  it('the chat tutorial\'s hub (all, others, rooms) and a request/response hub: exact counts, welcome messages apart', async () => {
    const [all, others, rooms, requests] = await Promise.all([
      runProfile({ hubPath: '/chathub', profile: 'chat-all.json', args: ['--connections', '4', '--transport', 'WebSockets', '--protocol', 'messagepack'] }),
      runProfile({ hubPath: '/chathub', profile: 'chat-others.json', args: ['--connections', '4', '--transport', 'ServerSentEvents', '--protocol', 'json'] }),
      runProfile({ hubPath: '/chathub', profile: 'chat-rooms.json', args: ['--connections', '10', '--group-size', '5', '--transport', 'LongPolling', '--protocol', 'messagepack'] }),
      runProfile({ hubPath: '/requesthub', profile: 'request-response.json', args: ['--connections', '4', '--transport', 'WebSockets', '--protocol', 'json'] }),
    ]);
    // all: broadcast's 2 senders, every one of the 4 connections receives; others: all but the sender.
    const allResult = expectPass(all, 2 * SENDS * 4);
    expect(all.run.stdout).toContain('chat: SendMessage to all profile: SendMessage → ReceiveMessage, to everyone over WebSockets (messagepack)');
    expect(allResult.config.hubProfile?.name).toBe('chat: SendMessage to all');
    expectPass(others, 2 * SENDS * 3);
    // Rooms: 2 rooms of 5, every member sends, every member receives.
    expectPass(rooms, 10 * SENDS * 5);
    // Every connection was greeted once with ReceiveMessage("server", "welcome"): never an arrival.
    for (const [{ result }, connections] of [[all, 4], [others, 4], [rooms, 10]] as const) expect(result!.totals.unsolicited).toBe(connections);
    expect(all.run.stdout).toContain('unsolicited 4 (the hub\'s own messages or another client\'s');
    // The service carried them too: the tier lines say its real outbound rate beside the tool's.
    expect(all.run.stdout).toMatch(/^  The hub also delivered [\d,]+ messages of its own a second .*not counted above: the service's outbound was [\d,]+ msg\/s; counted with them, (the smallest fitting tier is Unit\d+|no tier fits)\.$/m);
    // Request/response: every connection invokes, each completion is the reception.
    const request = expectPass(requests, 4 * SENDS);
    expect(request.totals.unsolicited).toBe(0);
    expect(requests.run.stdout).not.toContain('The hub also delivered');
    expect(request.totals.sent).toBe(4 * SENDS);
  }, 60_000);

  it('the bundled contract\'s five scenarios as profiles: the same exact counts as built in', async () => {
    const [echo, broadcast, small, big, direct] = await Promise.all([
      runProfile({ hubPath: '/signalrbench', profile: 'bench-echo.json', args: ['--connections', '4', '--transport', 'ServerSentEvents'] }),
      runProfile({ hubPath: '/signalrbench', profile: 'bench-broadcast.json', args: ['--connections', '5', '--transport', 'WebSockets'] }),
      runProfile({ hubPath: '/signalrbench', profile: 'bench-small-group.json', args: ['--connections', '10', '--group-size', '5', '--transport', 'LongPolling'] }),
      runProfile({ hubPath: '/signalrbench', profile: 'bench-big-group.json', args: ['--scenario', 'bigGroup', '--connections', '20', '--protocol', 'messagepack'] }),
      runProfile({ hubPath: '/signalrbench', profile: 'bench-send-to-connection.json', args: ['--connections', '4', '--transport', 'LongPolling', '--protocol', 'messagepack'] }),
    ]);
    expectPass(echo, 4 * SENDS);
    expectPass(broadcast, 2 * SENDS * 5);
    expectPass(small, 10 * SENDS * 5);
    // Big groups of 20 connections: 10 groups of 2, all 20 send (at most 40 do).
    expectPass(big, 20 * SENDS * 2);
    expectPass(direct, 4 * SENDS);
    for (const { result } of [echo, broadcast, small, big, direct]) expect(result!.totals.unsolicited).toBe(0);
  }, 60_000);
});

describe('a profile that does not fit the hub', () => {
  it('a send or join method the hub lacks: exit 3 in seconds, naming it; a receive method never called: failed, exit 3, naming it as the set-up\'s', async () => {
    const misnamed = path.join(dir, 'misnamed.json');
    await writeFile(misnamed, JSON.stringify({ name: 'chat, misnamed', send: { method: 'SendMessage', args: ['bench-{connection}', '{message}'] }, receive: { method: 'MessageReceived', arg: 1 }, deliver: 'all' }));
    const neverJson = path.join(dir, 'never-called.json');
    const [missing, missingJoin, neverCalled] = await Promise.all([
      liveBench(['--endpoint', `${hub.httpUrl}/requesthub`, '--hub-profile', 'profiles/chat-all.json', '--connections', '2', '--duration', '60', '--quiet']),
      liveBench(['--endpoint', `${hub.httpUrl}/requesthub`, '--hub-profile', 'profiles/chat-rooms.json', '--connections', '10', '--duration', '60', '--quiet']),
      liveBench(['--endpoint', `${hub.httpUrl}/chathub`, '--hub-profile', misnamed, '--connections', '2', '--interval-ms', '500', '--duration', '1', '--workers', '1', '--quiet', '--json', neverJson]),
    ]);
    expect(missing.code).toBe(3);
    expect(missing.elapsedMs).toBeLessThan(15_000);
    expect(missing.stderr).toMatch(/did not accept SendMessage\(…\): .*Method does not exist\. The hub profile "chat: SendMessage to all" sends with SendMessage/);
    expect(missingJoin.code).toBe(3);
    expect(missingJoin.elapsedMs).toBeLessThan(15_000);
    expect(missingJoin.stderr).toMatch(/did not accept JoinRoom\(…\): .*Method does not exist\. The hub profile "chat rooms" joins with JoinRoom/);
    expect(neverCalled.code).toBe(3);
    expect(neverCalled.stderr).toContain('nothing could be measured: the hub never called MessageReceived: 4 messages were sent and none came back on it');
    const result = parseRunResult(await readFile(neverJson, 'utf8'));
    expect(result.diagnosis).toMatchObject({ cause: 'profileMismatch', side: 'setup' });
    expect(neverCalled.stdout).toContain(`Why (the set-up): ${result.diagnosis!.sentence}`);
    expect(result.outcome).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/^the hub never called MessageReceived/) });
    // The welcome messages came on ReceiveMessage, which this profile does not listen to.
    expect(result.totals).toMatchObject({ sent: 4, received: 0, unsolicited: 0 });
    expect(result.fates).toMatchObject({ planned: 8, lost: 8 });
  }, 60_000);
});
