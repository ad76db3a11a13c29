/**
 * The runner against a protected hub: the hub-sample with --RequireAuth true (JWT bearer), real
 * hub process, the built runner. No token fails fast and says what to do; a token file of three
 * users runs with exact counts; headers and query parameters reach the hub on negotiate and on
 * the WebSocket upgrade; an Azure-style negotiate redirect is followed; no token is ever printed.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRunResult } from '../../core/result/result.ts';
import { startHub, type RunningHub } from '../support/hub-process.ts';
import { liveBench } from '../support/live-bench.ts';
import { expectAccounting } from '../support/accounting.ts';

let hub: RunningHub;
let dir: string;

beforeAll(async () => {
  hub = await startHub({ extraArgs: ['--RequireAuth', 'true', '--EnableTestHubs', 'true'] });
  dir = await mkdtemp(path.join(os.tmpdir(), 'live-bench-auth-'));
}, 60_000);

afterAll(async () => {
  await hub?.stop();
});

async function token(user: string, seconds = 600): Promise<string> {
  const response = await fetch(`${hub.httpUrl}/testhubs/token?user=${user}&seconds=${seconds}`, { method: 'POST' });
  expect(response.status).toBe(200);
  return response.text();
}

interface Seen { kind: string; header: string; query: string; user: string | null; bearer: boolean }
async function seen(): Promise<Seen[]> {
  return (await fetch(`${hub.httpUrl}/testhubs/seen`)).json() as Promise<Seen[]>;
}

const short = ['--duration', '2', '--warmup', '0', '--quiet'];

describe('the runner against a hub that requires a token', () => {
  it('without a token: exit 3 within seconds, the 401 worded with what to give', async () => {
    const run = await liveBench(['--endpoint', `${hub.httpUrl}/signalrbench`, '--connections', '200', ...short]);
    expect(run.code).toBe(3);
    // 200 planned connections: the fail-fast rule stops after the first failures.
    expect(run.elapsedMs).toBeLessThan(10_000);
    expect(run.stderr).toContain('The hub needs authentication (401 at negotiate) and no access token was given');
    expect(run.stderr).toContain('--access-token-file');
    expect(run.stdout).toMatch(/were not tried: the first 16 connects all failed and none opened/);
  });

  it('a token file of 3 users: the run passes with exact counts, each user on a third of the connections', async () => {
    const tokens = [await token('user-1'), await token('user-2'), await token('user-3')];
    const file = path.join(dir, 'tokens.txt');
    await writeFile(file, `${tokens.join('\n')}\n`);
    const jsonPath = path.join(dir, 'three-users.json');
    const before = (await seen()).length;
    const run = await liveBench(['--endpoint', `${hub.httpUrl}/signalrbench`, '--connections', '6', ...short, '--access-token-file', file, '--json', jsonPath,
      '--header', 'X-Bench-Probe: header-reached', '--query', 'probe=query-reached']);
    expect(run.stderr).not.toContain('threshold broken');
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('(3 tokens set (one per user, by connection); headers X-Bench-Probe; query probe)');
    const json = await readFile(jsonPath, 'utf8');
    const result = parseRunResult(json);
    // 6 connections echo once a second for 2 s.
    expectAccounting(result, 12);
    expect(result.totals.received).toBe(12);
    expect(result.fates.lost).toBe(0);
    const requests = (await seen()).slice(before);
    const upgrades = requests.filter((r) => r.kind === 'websocket');
    expect(upgrades).toHaveLength(6);
    expect(upgrades.map((r) => r.user).sort()).toEqual(['user-1', 'user-1', 'user-2', 'user-2', 'user-3', 'user-3']);
    // The header and the query parameter on negotiate and on the upgrade (Node can send headers there).
    expect(requests.filter((r) => r.kind === 'negotiate')).toHaveLength(6);
    for (const request of requests) expect(request).toMatchObject({ header: 'header-reached', query: 'query-reached', bearer: true });
    // Nothing printed or written holds a token, the header's value or the query's.
    for (const text of [run.stdout, run.stderr, json]) {
      for (const secret of [...tokens, 'header-reached', 'query-reached']) expect(text).not.toContain(secret);
    }
  });

  it('an expired token: exit 3 saying the token was refused', async () => {
    const expired = await token('late', -120);
    // The runner inherits this process's environment.
    process.env.BENCH_TOKEN = expired;
    const run = await liveBench(['--endpoint', `${hub.httpUrl}/signalrbench`, '--connections', '4', ...short, '--access-token-env', 'BENCH_TOKEN']).finally(() => delete process.env.BENCH_TOKEN);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('The hub refused the access token (401 at negotiate): it is expired, wrong');
    expect(run.stderr).toContain('the access token has expired');
    expect(run.stderr + run.stdout).not.toContain(expired);
  });

  it('an Azure-style negotiate answering { url, accessToken } is followed to the protected hub', async () => {
    const before = (await seen()).length;
    const run = await liveBench(['--endpoint', `${hub.httpUrl}/redirecthub`, '--connections', '4', ...short, '--json', '-']);
    expect(run.code).toBe(0);
    const result = parseRunResult(run.stdout);
    expect(result.totals.received).toBe(8);
    const upgrades = (await seen()).slice(before).filter((r) => r.kind === 'websocket');
    expect(upgrades.map((r) => r.user)).toEqual(['redirected-user', 'redirected-user', 'redirected-user', 'redirected-user']);
  });

  it('a token refused on the WebSocket upgrade after negotiate accepted it: exit 3, worded', async () => {
    // The test hub's negotiate is open and its WebSocket upgrades get 401 (hub-sample/AuthTestEndpoints.cs).
    const run = await liveBench(['--endpoint', `${hub.httpUrl}/upgraderefusedhub`, '--connections', '4', ...short, '--access-token', await token('upgrade-user')]);
    expect(run.code).toBe(3);
    // The socket's status is kept past the client library's long sentence, and names the refusal.
    expect(run.stderr).toContain('(the socket said: Unexpected server response: 401). The hub refused the WebSocket upgrade with 401/403 after negotiate accepted the client');
    expect(run.stdout).toMatch(/^Why \(the set-up\): The hub refused the access token with HTTP 401 on the WebSocket upgrade \(4 connects\)\.$/m);
    expect(run.stdout).toMatch(/^What to do: Give a fresh token for this hub .*JwtBearerEvents\.OnMessageReceived/m);
  });

  it('two ways of giving the token, an unreadable token file, a bad header: exit 2 before anything runs', async () => {
    const both = await liveBench(['--endpoint', `${hub.httpUrl}/signalrbench`, '--access-token-env', 'X', '--access-token', 'abc']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--access-token-env and --access-token are both ways to give the access token');
    expect(both.stderr).not.toContain('abc');
    const missing = await liveBench(['--endpoint', `${hub.httpUrl}/signalrbench`, '--access-token-file', path.join(dir, 'none.txt'), '--header', 'no colon']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('none.txt cannot be read (ENOENT)');
    expect(missing.stderr).toContain('--header has no colon: give each header as --header "Name: value"');
  });
});

describe('a hub profile on a chat hub behind [Authorize]', () => {
  it('{user} is each token\'s user (the hub refuses any other name): exact counts; without a token, exit 2 naming {user}', async () => {
    const file = path.join(dir, 'chat-tokens.txt');
    await writeFile(file, `${[await token('ann'), await token('bob')].join('\n')}\n`);
    const jsonPath = path.join(dir, 'chat-authorized.json');
    const [run, tokenless] = await Promise.all([
      liveBench(['--endpoint', `${hub.httpUrl}/authchathub`, '--hub-profile', 'profiles/chat-authorized.json', '--connections', '4', '--workers', '1', '--interval-ms', '500', ...short,
        '--access-token-file', file, '--json', jsonPath]),
      liveBench(['--endpoint', `${hub.httpUrl}/authchathub`, '--hub-profile', 'profiles/chat-authorized.json', ...short]),
    ]);
    expect(run.code, run.stderr).toBe(0);
    const result = parseRunResult(await readFile(jsonPath, 'utf8'));
    // Broadcast's 2 senders, 4 sends each in 2 s, to all 4 connections; a send in another name would be refused and lost.
    expectAccounting(result, 2 * 4 * 4);
    expect(result.totals).toMatchObject({ received: 32, unsolicited: 4 });
    expect(result.config.hubProfile?.name).toBe('chat as the token\'s user');
    expect(tokenless.code).toBe(2);
    expect(tokenless.stderr).toContain('--hub-profile profiles/chat-authorized.json: The profile "chat as the token\'s user" uses {user}, the user named by the connection\'s access token, but the run has no token');
  });
});

describe('the hub-sample through Azure SignalR Service, without the service', () => {
  // The service cannot be reached from here: a connection string to a port where nothing
  // listens shows the wiring (the app's negotiate is the service SDK's) and the runner's words.
  let azure: RunningHub;
  beforeAll(async () => {
    azure = await startHub({ extraArgs: ['--Azure:SignalR:ConnectionString', 'Endpoint=http://127.0.0.1:9;AccessKey=ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnop012345=;Version=1.0;'] });
  }, 60_000);
  afterAll(async () => {
    await azure?.stop();
  });

  it('negotiate is answered by the service SDK, and the runner says the app is not connected to the service', async () => {
    const negotiate = await fetch(`${azure.httpUrl}/signalrbench/negotiate?negotiateVersion=1`, { method: 'POST' });
    expect(negotiate.status).toBe(500);
    expect(await negotiate.text()).toContain('Azure SignalR Service is not connected yet');
    const run = await liveBench(['--endpoint', `${azure.httpUrl}/signalrbench`, '--connections', '20', ...short]);
    expect(run.code).toBe(3);
    expect(run.elapsedMs).toBeLessThan(10_000);
    expect(run.stderr).toContain('The app runs its hubs through Azure SignalR Service and is not connected to the service');
    expect(run.stderr).not.toContain('ABCDEFGHIJKLMNOP');
  });

  it('with --skip-negotiation the app server takes the WebSocket but cannot send over it: the run says the hub needs negotiation', async () => {
    const run = await liveBench(['--endpoint', `${azure.httpUrl}/signalrbench`, '--connections', '2', '--skip-negotiation', ...short]);
    expect(run.code).toBe(3);
    expect(run.elapsedMs).toBeLessThan(10_000);
    expect(run.stderr).toContain('a hub that runs through Azure SignalR Service accepts the WebSocket on its app server but cannot send over it: this hub needs negotiation: leave --skip-negotiation off');
  });
});

describe('a token that expires during the run', () => {
  it('the hub closes the connections; the run does not pass, and says the token may have expired', async () => {
    const short2 = await (await fetch(`${hub.httpUrl}/testhubs/token?user=brief&seconds=2`, { method: 'POST' })).text();
    const run = await liveBench(['--endpoint', `${hub.httpUrl}/signalrbench`, '--connections', '2', '--duration', '6', '--warmup', '0', '--quiet', '--drain-s', '2', '--access-token', short2]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('a hub closes a connection whose token expires');
    expect(run.stdout + run.stderr).not.toContain(short2);
  });
});
