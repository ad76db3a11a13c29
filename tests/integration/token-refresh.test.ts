/**
 * Tokens that expire: the hub-sample with --RequireAuth true mints tokens that live 8 s
 * (/testhubs/token?seconds=8; it tolerates 2 s of clock difference) and, with
 * --CloseOnTokenExpiry false, checks them on each request as ASP.NET Core's default and Azure
 * SignalR Service do; a long-polling run of 14 s, whose every poll and send carries the token,
 * outlives them. With --access-token-command
 * the runner fetches a fresh token before each expires and every message arrives; the refreshes
 * are said, and no token is printed or kept. With one token given once, the same run loses its
 * connections when the token expires: the refresh is what keeps them.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRunResult } from '../../core/result/result.ts';
import { startAgent, type RunningAgent } from '../support/agents.ts';
import { startHub, type RunningHub } from '../support/hub-process.ts';
import { liveBench } from '../support/live-bench.ts';

let hub: RunningHub;
const agents: RunningAgent[] = [];
const TOKEN_LIFE_S = 8;

beforeAll(async () => {
  // As ASP.NET Core's default and Azure SignalR Service: the token is checked on each request, no
  // connection is closed when it expires (with it closed, no token could keep a connection).
  hub = await startHub({ extraArgs: ['--RequireAuth', 'true', '--EnableTestHubs', 'true', '--CloseOnTokenExpiry', 'false'] });
}, 60_000);

afterAll(async () => {
  for (const agent of agents) agent.child.kill('SIGKILL');
  await hub?.stop();
});

/** A run of long polling longer than two token lives: 4 connections echoing every 500 ms for 14 s. */
const longRun = (jsonPath: string) => ['--endpoint', `${hub.httpUrl}/signalrbench`, '--transport', 'LongPolling', '--connections', '4', '--workers', '2', '--interval-ms', '500', '--duration', '14', '--warmup', '0', '--json', jsonPath, '--quiet'];

/** A command that prints a fresh 8 s token from the hub-sample, as a user's `az account get-access-token` would. */
const tokenCommand = () => {
  const script = `fetch('${hub.httpUrl}/testhubs/token?user=refresh-user&seconds=${TOKEN_LIFE_S}', { method: 'POST' }).then((r) => r.text()).then((t) => process.stdout.write(t))`;
  return `"${process.execPath}" -e "${script}"`;
};

describe('--access-token-command against tokens that expire', () => {
  it('a long-polling run longer than the token\'s life keeps every message: the token is fetched again before each expiry, said, never printed', async () => {
    const jsonPath = path.join(await mkdtemp(path.join(os.tmpdir(), 'token-refresh-')), 'run.json');
    const run = await liveBench([...longRun(jsonPath), '--access-token-command', tokenCommand()]);
    const json = await readFile(jsonPath, 'utf8');
    expect(run.code, run.stderr).toBe(0);
    const result = parseRunResult(json);
    expect(result.fates).toMatchObject({ planned: 112, underOneSecond: 112, lost: 0 });
    expect(run.stderr).toMatch(/live-bench: access token from --access-token-command: it expires at \d\d:\d\d:\d\d UTC, in [5-8] s; the next in \d s\./);
    // 14 s of sends after connecting, a token every 5.3 s or so: at least two refreshes.
    expect(run.stderr).toMatch(/live-bench: access token refreshed \(1\) by --access-token-command: it expires at \d\d:\d\d:\d\d UTC, in [5-8] s/);
    expect(run.stderr).toContain('access token refreshed (2)');
    // A JWT begins eyJ: none in any output or the kept result.
    expect(run.stdout + run.stderr + json).not.toContain('eyJ');
  });

  it('the same run with one token given once loses its connections when the token expires', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'token-refresh-'));
    const tokenFile = path.join(dir, 'token');
    await writeFile(tokenFile, await (await fetch(`${hub.httpUrl}/testhubs/token?user=refresh-user&seconds=${TOKEN_LIFE_S}`, { method: 'POST' })).text());
    const jsonPath = path.join(dir, 'run.json');
    const run = await liveBench([...longRun(jsonPath), '--access-token-file', tokenFile]);
    expect(run.code).not.toBe(0);
    const result = parseRunResult(await readFile(jsonPath, 'utf8'));
    expect(result.fates.planned).toBe(112);
    expect(result.fates.underOneSecond).toBeLessThan(112);
  });

  it('a profile delivering to the token\'s user runs with the command\'s token: its user is read from it at start, not refused before it exists', async () => {
    const jsonPath = path.join(await mkdtemp(path.join(os.tmpdir(), 'token-refresh-')), 'user.json');
    const run = await liveBench(['--endpoint', `${hub.httpUrl}/userhub`, '--hub-profile', 'profiles/to-user.json', '--connections', '4', '--interval-ms', '500', '--duration', '2', '--warmup', '0',
      '--workers', '1', '--json', jsonPath, '--quiet', '--access-token-command', tokenCommand()]);
    expect(run.code, run.stderr).toBe(0);
    // Broadcast's 2 senders, 4 sends each, every connection of the one user receives.
    expect(parseRunResult(await readFile(jsonPath, 'utf8')).fates).toMatchObject({ planned: 2 * 4 * 4, underOneSecond: 2 * 4 * 4, lost: 0 });
    // A --header Authorization beside the command collides with the token it gives.
    const collides = await liveBench(['--endpoint', `${hub.httpUrl}/userhub`, '--access-token-command', tokenCommand(), '--header', 'Authorization: Bearer HDRSECRET-9']);
    expect(collides.code).toBe(2);
    expect(collides.stderr).toContain('--header Authorization: the client sends the access token in it');
    expect(collides.stderr).not.toContain('HDRSECRET');
  });

  it('a command that fails, or prints nothing usable: exit 2 before connecting, its output never shown', async () => {
    const failing = await liveBench(['--endpoint', `${hub.httpUrl}/signalrbench`, '--access-token-command', 'echo SECRETISH-OUTPUT; echo SECRETISH-ERR >&2; exit 7']);
    expect(failing.code).toBe(2);
    expect(failing.stderr).toContain('live-bench: --access-token-command exited with 7 (its output is not shown: it may hold a secret); run it by hand to see why.');
    const twoWords = await liveBench(['--endpoint', `${hub.httpUrl}/signalrbench`, '--access-token-command', 'echo Bearer SECRETISH-OUTPUT']);
    expect(twoWords.code).toBe(2);
    expect(twoWords.stderr).toContain('--access-token-command printed more than one word');
    const both = await liveBench(['--endpoint', `${hub.httpUrl}/signalrbench`, '--access-token-command', 'true', '--access-token', 'x']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--access-token and --access-token-command are both ways to give the access token');
    for (const run of [failing, twoWords, both]) {
      expect(run.stdout + run.stderr).not.toContain('SECRETISH');
      expect(run.elapsedMs).toBeLessThan(3_000);
    }
  });

  it('a led run: each fresh token reaches the agent\'s threads over the control hub, every message arrives, the agent prints no token', async () => {
    const jsonPath = path.join(await mkdtemp(path.join(os.tmpdir(), 'token-refresh-')), 'run.json');
    let started: Promise<void> = Promise.resolve();
    const run = await liveBench(['--lead', '--agents', '1', '--agents-timeout', '30', ...longRun(jsonPath), '--access-token-command', tokenCommand()], (child) => {
      let said = '';
      child.stderr!.on('data', (chunk: Buffer) => {
        const before = said;
        said += chunk.toString();
        const command = /--session (\S+) --session-secret (\S+) --once/.exec(said);
        if (!command || /--session-secret/.test(before)) return;
        started = startAgent(`${hub.httpUrl}/control`, command[1]!, ['--session-secret', command[2]!, '--workers', '2', '--name', 'refreshed', '--once']).then((agent) => void agents.push(agent));
      });
    });
    await started;
    const json = await readFile(jsonPath, 'utf8');
    expect(run.code, run.stderr).toBe(0);
    expect(parseRunResult(json).fates).toMatchObject({ planned: 112, underOneSecond: 112, lost: 0 });
    expect(run.stderr).toContain('access token refreshed (2)');
    expect(await agents[0]!.exited).toBe(0);
    expect(run.stdout + run.stderr + json + agents[0]!.stdout() + agents[0]!.stderr()).not.toContain('eyJ');
  });
});
