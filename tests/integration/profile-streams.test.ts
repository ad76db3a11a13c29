/**
 * Streams and client results against the real hub-sample's test hubs (--EnableTestHubs true,
 * RealShapeHubs.cs) with the built runner: aspnetcore's UploadHub.StreamEcho with {stream}
 * (deliver "stream", both directions), a server stream Repeat("{message}"), UploadWords({stream})
 * delivering Word to the caller, and Azure's ClientResultSample (GetMessage("{target}") and
 * GetMessageFromCaller(), answered with {message}). SignalR streams and client results work over
 * every transport: each case runs on all three, the protocols spread across them. Exact counts
 * from the arguments, verdict pass, exit 0; a stream of ints (StreamingHub's Counter) refused
 * before the run with exit 3 and a sentence that says why; an answer under the wrong client
 * method counted lost, every one, with the hub's words, never a pass. Profiles are written here.
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
  dir = await mkdtemp(path.join(os.tmpdir(), 'live-bench-streams-'));
}, 60_000);

afterAll(async () => {
  await hub?.stop();
});

const INTERVAL_MS = 250;
const DURATION_SEC = 2;
/** Each sender's slots: one every 250 ms over 2 s. */
const SENDS = (DURATION_SEC * 1_000) / INTERVAL_MS;
const CONNECTIONS = 4;
/** Every connection sends (echo's plan and send to connection's derangement), one reception each. */
const PLANNED = CONNECTIONS * SENDS;

const PROFILES = {
  streamEcho: { name: 'stream echo', send: { method: 'StreamEcho', args: ['{stream}'] }, deliver: 'stream' },
  repeat: { name: 'repeat', send: { method: 'Repeat', args: ['{message}'] }, deliver: 'stream' },
  upload: { name: 'upload words', send: { method: 'UploadWords', args: ['{stream}'] }, receive: { method: 'Word', arg: 0 }, deliver: 'self' },
  askTarget: { name: 'ask the target', send: { method: 'GetMessage', args: ['{target}'] }, deliver: 'return', answer: { method: 'GetMessage', with: '{message}' } },
  askCaller: { name: 'ask the caller', send: { method: 'GetMessageFromCaller', args: [] }, deliver: 'return', answer: { method: 'GetMessage', with: '{message}' } },
  counter: { name: 'counter', send: { method: 'Counter', args: [3, 10] }, deliver: 'stream' },
  wrongAnswer: { name: 'answers the wrong method', send: { method: 'GetMessage', args: ['{target}'] }, deliver: 'return', answer: { method: 'Wrong', with: '{message}' } },
} satisfies Record<string, HubProfile>;

type ProfileName = keyof typeof PROFILES;

const TRANSPORTS = [['WebSockets', 'messagepack'], ['ServerSentEvents', 'json'], ['LongPolling', 'messagepack']] as const;

async function runProfile(profile: ProfileName, hubPath: string, transport: string, protocol: string): Promise<{ run: CliRun; result: RunResult | null }> {
  const profilePath = path.join(dir, `${profile}.json`);
  await writeFile(profilePath, JSON.stringify(PROFILES[profile]));
  const jsonPath = path.join(dir, `${profile}-${transport}-${protocol}.json`);
  const run = await liveBench(['--endpoint', `${hub.httpUrl}${hubPath}`, '--hub-profile', profilePath, '--connections', String(CONNECTIONS),
    '--transport', transport, '--protocol', protocol, '--interval-ms', String(INTERVAL_MS), '--duration', String(DURATION_SEC),
    '--warmup', '0', '--drain-s', '10', '--workers', '1', '--quiet', '--json', jsonPath]);
  const text = await readFile(jsonPath, 'utf8').catch(() => null);
  return { run, result: text === null ? null : parseRunResult(text) };
}

/** The profile on every transport (the protocols spread across them). */
function onEveryTransport(profile: ProfileName, hubPath: string) {
  return TRANSPORTS.map(([transport, protocol]) => runProfile(profile, hubPath, transport, protocol));
}

function expectPass({ run, result }: { run: CliRun; result: RunResult | null }, label: string): RunResult {
  expect(run.code, `${label}: ${run.stderr}`).toBe(0);
  expect(result, label).not.toBeNull();
  expectAccounting(result!, PLANNED);
  expect(result!.totals, label).toMatchObject({ sent: PLANNED, received: PLANNED, duplicated: 0, unsolicited: 0, foreign: 0 });
  expect(result!.fates.lost, label).toBe(0);
  expect(result!.errorSamples, label).toEqual([]);
  expect(result!.verdict.status, label).toBe('pass');
  return result!;
}

describe('streams against /streamhub', () => {
  it('StreamEcho({stream}) and Repeat("{message}") as deliver "stream": each item carrying the text a reception, on every transport', async () => {
    const runs = await Promise.all([...onEveryTransport('streamEcho', '/streamhub'), ...onEveryTransport('repeat', '/streamhub')]);
    runs.forEach((run, i) => {
      const label = `${i < 3 ? 'StreamEcho' : 'Repeat'} over ${TRANSPORTS[i % 3]!.join('/')}`;
      const result = expectPass(run, label);
      expect(result.config).toMatchObject({ scenario: 'echo', transport: TRANSPORTS[i % 3]![0], protocol: TRANSPORTS[i % 3]![1] });
      // Measured to each item's arrival: more than nothing, well under the slot.
      expect(result.latency.p50Us, label).toBeGreaterThan(0);
      expect(result.latency.p50Us, label).toBeLessThan(INTERVAL_MS * 1_000);
    });
    expect(runs[0]!.run.stdout).toContain('stream echo profile: StreamEcho → the items of its stream over WebSockets (messagepack)');
  }, 90_000);

  it('UploadWords({stream}) delivering Word to the caller: one stream per connection, each item a send, on every transport', async () => {
    const runs = await Promise.all(onEveryTransport('upload', '/streamhub'));
    runs.forEach((run, i) => expectPass(run, `UploadWords over ${TRANSPORTS[i]!.join('/')}`));
  }, 90_000);

  it('Counter, a stream of ints, is refused before the run: exit 3 in seconds, the sentence saying why', async () => {
    const { run, result } = await runProfile('counter', '/streamhub', 'WebSockets', 'json');
    expect(run.code).toBe(3);
    expect(run.elapsedMs).toBeLessThan(15_000);
    expect(run.stderr).toContain('did not accept Counter(…) as a stream of the tool\'s messages: Counter\'s stream yields numbers (its first item: 0); a stream whose items are not text cannot carry the tool\'s message.');
    expect(result!.outcome).toMatchObject({ kind: 'failed', code: 'hubRefused' });
    expect(result!.fates.planned).toBe(0);
    expect(result!.diagnosis).toMatchObject({ cause: 'hubMethodRefused', side: 'setup' });
    expect(run.stdout).toContain('Why (the set-up): The hub refused the method Counter: ');
  }, 60_000);
});

describe('client results against /clientresulthub', () => {
  it('GetMessage("{target}") on send to connection\'s derangement and GetMessageFromCaller() on echo\'s: every answer back to its caller, on every transport', async () => {
    const runs = await Promise.all([...onEveryTransport('askTarget', '/clientresulthub'), ...onEveryTransport('askCaller', '/clientresulthub')]);
    runs.forEach((run, i) => {
      const label = `${i < 3 ? 'GetMessage' : 'GetMessageFromCaller'} over ${TRANSPORTS[i % 3]!.join('/')}`;
      const result = expectPass(run, label);
      expect(result.config.scenario, label).toBe(i < 3 ? 'sendToConnection' : 'echo');
      // The caller's completion waits for another round trip (the hub asks, the client answers).
      expect(result.latency.p50Us, label).toBeGreaterThan(0);
    });
    expect(runs[0]!.run.stdout).toContain('ask the target profile: GetMessage → its return value, answering GetMessage over WebSockets (messagepack)');
  }, 90_000);

  it('an answer under a client method the hub does not ask: every call sent and lost with the hub\'s words, never a pass', async () => {
    const { run, result } = await runProfile('wrongAnswer', '/clientresulthub', 'WebSockets', 'json');
    expect(run.code).not.toBe(0);
    expect(result!.outcome.kind).toBe('finished');
    expect(result!.totals).toMatchObject({ sent: PLANNED, received: 0 });
    expect(result!.fates).toMatchObject({ planned: PLANNED, lost: PLANNED });
    expect(Object.values(result!.fates.notSent).reduce((sum, n) => sum + n, 0)).toBe(0);
    expect(result!.errorSamples).toEqual([{
      kind: 'send',
      count: PLANNED,
      message: expect.stringMatching(/^GetMessage failed: .*HubException: Client didn't provide a result\. \(the hub asked this connection a client method it does not answer: the profile answers Wrong;/),
    }]);
    expect(result!.verdict.status).toBe('fail');
  }, 60_000);
});
