/**
 * The tool's text found wherever a real hub puts it, against the hub-sample's test hubs
 * (--EnableTestHubs true) with the built runner: aspnetcore Chat's `$"{name}: {message}"`
 * (/wrapchathub Send), an appended `" (echo from server)"` (EchoBack), a return value
 * `"Echo: " + message` (Echo), an object message whose member is `message` under JSON and
 * `Message` under MessagePack (/objectchathub) read by one profile, and a text the hub cuts
 * (SendTruncated: all arrived, all altered, said in the summary). A profile reading the wrong
 * argument of the tutorial's ReceiveMessage(user, message) fails in seconds, exit 3, naming the
 * argument the text is in. Profiles are written here, as temp files. Exact counts from the arguments.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRunResult, type RunResult } from '../../core/result/result.ts';
import type { HubProfile } from '../../core/profiles/index.ts';
import { startHub, type RunningHub } from '../support/hub-process.ts';
import { liveBench, type CliRun } from '../support/live-bench.ts';
import { expectAccounting } from '../support/accounting.ts';

let hub: RunningHub;
let dir: string;

beforeAll(async () => {
  hub = await startHub({ extraArgs: ['--EnableTestHubs', 'true'] });
  dir = await mkdtemp(path.join(os.tmpdir(), 'live-bench-profile-text-'));
}, 60_000);

afterAll(async () => {
  await hub?.stop();
});

const INTERVAL_MS = 250;
const DURATION_SEC = 2;
/** Each sender's slots: one every 250 ms over 2 s. */
const SENDS = (DURATION_SEC * 1_000) / INTERVAL_MS;
const CONNECTIONS = 4;
/** deliver "all" on the broadcast plan: 2 senders, every connection receives. */
const TO_ALL = 2 * SENDS * CONNECTIONS;
/** deliver "self" and "return" on the echo plan: every connection sends, and receives its own. */
const TO_SELF = CONNECTIONS * SENDS;

const WRAP_CHAT: HubProfile = { name: 'wrapping chat', send: { method: 'Send', args: ['bench-{connection}', '{message}'] }, receive: { method: 'Send', arg: 0 }, deliver: 'all' };
const OBJECT_CHAT: HubProfile = { name: 'object chat', send: { method: 'SendMessage', args: ['bench-{connection}', '{message}'] }, receive: { method: 'ReceiveMessage', arg: '0.message' }, deliver: 'all' };
const ECHO_BACK: HubProfile = { name: 'echo from server', send: { method: 'EchoBack', args: ['{message}'] }, receive: { method: 'Echo', arg: 0 }, deliver: 'self' };
const ECHO_RETURN: HubProfile = { name: 'echo returned', send: { method: 'Echo', args: ['{message}'] }, deliver: 'return' };
const TRUNCATED: HubProfile = { name: 'truncated', send: { method: 'SendTruncated', args: ['{message}'] }, receive: { method: 'Truncated', arg: 0 }, deliver: 'self' };
/** The chat tutorial's hub calls ReceiveMessage(user, message): argument 0 is the user's name. */
const WRONG_ARG: HubProfile = { name: 'chat read at the name', send: { method: 'SendMessage', args: ['bench-{connection}', '{message}'] }, receive: { method: 'ReceiveMessage', arg: 0 }, deliver: 'all' };

interface ProfileRun {
  hubPath: string;
  profile: HubProfile;
  protocol: 'json' | 'messagepack';
  transport: 'WebSockets' | 'ServerSentEvents' | 'LongPolling';
  args?: string[];
}

async function run({ hubPath, profile, protocol, transport, args = [] }: ProfileRun): Promise<{ run: CliRun; result: RunResult | null }> {
  const name = `${profile.name.replace(/\W+/g, '-')}-${protocol}-${transport}`;
  const profilePath = path.join(dir, `${name}.json`);
  const jsonPath = path.join(dir, `${name}-result.json`);
  await writeFile(profilePath, JSON.stringify(profile));
  const cli = await liveBench(['--endpoint', `${hub.httpUrl}${hubPath}`, '--hub-profile', profilePath, '--connections', String(CONNECTIONS), '--interval-ms', String(INTERVAL_MS),
    '--duration', String(DURATION_SEC), '--warmup', '0', '--drain-s', '10', '--workers', '1', '--transport', transport, '--protocol', protocol, '--quiet', '--json', jsonPath, ...args]);
  const text = await readFile(jsonPath, 'utf8').catch(() => null);
  return { run: cli, result: text === null ? null : parseRunResult(text) };
}

function expectExact({ run: cli, result }: { run: CliRun; result: RunResult | null }, planned: number): RunResult {
  expect(cli.code, cli.stderr).toBe(0);
  expect(result).not.toBeNull();
  expectAccounting(result!, planned);
  expect(result!.totals).toMatchObject({ received: planned, duplicated: 0, altered: 0, unsolicited: 0, foreign: 0 });
  expect(result!.fates.lost).toBe(0);
  expect(result!.verdict.status).toBe('pass');
  return result!;
}

describe('the text found where real hubs put it', () => {
  it('wrapped in the hub\'s words ($"{name}: {message}", " (echo from server)", "Echo: " + message) and in an object by one path, on JSON and MessagePack: exact, not altered', async () => {
    // Runs on one hub's Clients.All would hear each other (foreign): the two protocols go one after the other.
    const [wrapJson, objectJson, echoBack, echoReturn] = await Promise.all([
      run({ hubPath: '/wrapchathub', profile: WRAP_CHAT, protocol: 'json', transport: 'WebSockets' }),
      run({ hubPath: '/objectchathub', profile: OBJECT_CHAT, protocol: 'json', transport: 'ServerSentEvents' }),
      run({ hubPath: '/wrapchathub', profile: ECHO_BACK, protocol: 'messagepack', transport: 'WebSockets' }),
      run({ hubPath: '/wrapchathub', profile: ECHO_RETURN, protocol: 'json', transport: 'LongPolling' }),
    ]);
    const [wrapMsgpack, objectMsgpack] = await Promise.all([
      run({ hubPath: '/wrapchathub', profile: WRAP_CHAT, protocol: 'messagepack', transport: 'LongPolling' }),
      run({ hubPath: '/objectchathub', profile: OBJECT_CHAT, protocol: 'messagepack', transport: 'WebSockets' }),
    ]);
    for (const one of [wrapJson, wrapMsgpack, objectJson, objectMsgpack]) expectExact(one!, TO_ALL);
    expect(wrapJson!.run.stdout).toContain('Messages: sent 16, received 64, duplicated 0\n');
    expectExact(echoBack, TO_SELF);
    expectExact(echoReturn, TO_SELF);
  }, 120_000);

  it('a text the hub cuts (10 characters off its end): every one arrived and every one altered, said in the summary', async () => {
    const [json, msgpack] = await Promise.all([
      run({ hubPath: '/wrapchathub', profile: TRUNCATED, protocol: 'json', transport: 'WebSockets' }),
      run({ hubPath: '/wrapchathub', profile: TRUNCATED, protocol: 'messagepack', transport: 'LongPolling' }),
    ]);
    for (const { run: cli, result } of [json, msgpack]) {
      expect(cli.code, cli.stderr).toBe(0);
      expectAccounting(result!, TO_SELF);
      // The probe's text is its header alone: cut by 10 characters it is no text of the tool (unsolicited).
      expect(result!.totals).toMatchObject({ received: TO_SELF, altered: TO_SELF, unsolicited: 1 });
      expect(result!.fates.lost).toBe(0);
      expect(result!.verdict.status).toBe('pass');
      expect(cli.stdout).toContain(`Messages: sent ${TO_SELF}, received ${TO_SELF}, duplicated 0, altered ${TO_SELF} (arrived, but the hub cut or changed the text: it is not the size sent), unsolicited 1`);
    }
  }, 120_000);
});

describe('a profile that reads the wrong place', () => {
  it('the tutorial\'s ReceiveMessage read at argument 0: failed in seconds, exit 3, naming argument 1, the same sentence in the JSON\'s diagnosis', async () => {
    const profilePath = path.join(dir, 'wrong-arg.json');
    const jsonPath = path.join(dir, 'wrong-arg-result.json');
    await writeFile(profilePath, JSON.stringify(WRONG_ARG));
    const cli = await liveBench(['--endpoint', `${hub.httpUrl}/chathub`, '--hub-profile', profilePath, '--connections', String(CONNECTIONS), '--interval-ms', String(INTERVAL_MS),
      '--duration', '60', '--workers', '1', '--quiet', '--json', jsonPath]);
    expect(cli.code, cli.stderr).toBe(3);
    expect(cli.elapsedMs).toBeLessThan(15_000);
    const result = parseRunResult(await readFile(jsonPath, 'utf8'));
    const sentence = /^ReceiveMessage was called (\d+) times, never with this run's text in argument 0; the first call carried "bench-\d"; it is in argument 1: set receive\.arg to 1\.$/;
    expect(result.outcome).toMatchObject({ kind: 'failed', code: 'textNotFound', reason: expect.stringMatching(sentence) });
    const calls = Number(sentence.exec(result.outcome.reason!)![1]);
    // Every call of ReceiveMessage: the hub's welcome to each connection, and every delivery since.
    expect(calls).toBe(result.totals.receiveCalls);
    expect(calls).toBe(result.totals.unsolicited);
    expect(calls).toBeGreaterThan(CONNECTIONS);
    expect(result.diagnosis).toMatchObject({ cause: 'textNotFound', side: 'setup', sentence: result.outcome.reason, advice: 'Set receive.arg to 1 in the profile and run again.' });
    expect(cli.stderr).toContain(`nothing could be measured: ${result.outcome.reason}`);
    expect(cli.stdout).toContain(`Why (the set-up): ${result.outcome.reason}`);
    expect(result.verdict.status).not.toBe('pass');
    // What the stop left unsent is the mismatch's, never the client's falling behind.
    expect(result.fates.notSent.clientBehind).toBe(0);
    expect(result.fates.notSent.runStopped).toBeGreaterThan(0);
  }, 60_000);
});
