/**
 * The deliveries to lists and users against the hub-sample's /listhub (Clients.Groups,
 * Clients.GroupExcept) and /userhub (Clients.User, Clients.Users behind [Authorize], the token's
 * sub as the user), driven by the examples in profiles/ through the built runner: exact counts
 * worked out by hand from the arguments, verdict pass, exit 0, transports and protocols spread.
 * Each refusal of what cannot work exits 2 in seconds naming the field. A profile's {env:NAME}
 * runs with the value (two variables that must agree for anything to arrive) and the JSON, the
 * HTML report, what the runner prints and the hub's log keep only the placeholder; a variable
 * not set exits 2 naming it.
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
  // /userhub is mapped only with --RequireAuth; /listhub takes anyone.
  hub = await startHub({ extraArgs: ['--EnableTestHubs', 'true', '--RequireAuth', 'true'] });
  dir = await mkdtemp(path.join(os.tmpdir(), 'live-bench-deliveries-'));
}, 60_000);

afterAll(async () => {
  await hub?.stop();
});

const INTERVAL_MS = 250;
const DURATION_SEC = 2;
/** Each sender's slots: one every 250 ms over 2 s. */
const SENDS = (DURATION_SEC * 1_000) / INTERVAL_MS;

async function tokenFile(name: string, users: string[]): Promise<string> {
  const tokens: string[] = [];
  for (const user of users) {
    const response = await fetch(`${hub.httpUrl}/testhubs/token?user=${user}&seconds=600`, { method: 'POST' });
    expect(response.status).toBe(200);
    tokens.push((await response.text()).replace(/^"|"$/g, ''));
  }
  const file = path.join(dir, name);
  await writeFile(file, `${tokens.join('\n')}\n`);
  return file;
}

async function run(name: string, hubPath: string, profile: string, args: string[]): Promise<{ run: CliRun; result: RunResult | null; jsonPath: string; htmlPath: string }> {
  const jsonPath = path.join(dir, `${name}.json`);
  const htmlPath = path.join(dir, `${name}.html`);
  const cli = await liveBench(['--endpoint', `${hub.httpUrl}${hubPath}`, '--hub-profile', profile, '--interval-ms', String(INTERVAL_MS),
    '--duration', String(DURATION_SEC), '--warmup', '0', '--drain-s', '10', '--workers', '1', '--quiet', '--json', jsonPath, '--html', htmlPath, ...args]);
  const text = await readFile(jsonPath, 'utf8').catch(() => null);
  return { run: cli, result: text === null ? null : parseRunResult(text), jsonPath, htmlPath };
}

function expectPass({ run: cli, result }: { run: CliRun; result: RunResult | null }, planned: number): RunResult {
  expect(cli.code, cli.stderr).toBe(0);
  expect(result).not.toBeNull();
  expectAccounting(result!, planned);
  expect(result!.totals.received).toBe(planned);
  expect(result!.totals.duplicated).toBe(0);
  expect(result!.totals.unsolicited).toBe(0);
  expect(result!.fates.lost).toBe(0);
  expect(result!.verdict.status).toBe('pass');
  return result!;
}

describe('lists of groups and a group but the sender (/listhub)', () => {
  it('groups and groupExcept: each send reaches what the group plan and the lists give', async () => {
    const [twoGroups, threeGroups, except] = await Promise.all([
      run('groups-2', '/listhub', 'profiles/list-groups.json', ['--connections', '10', '--group-size', '5', '--transport', 'WebSockets', '--protocol', 'messagepack']),
      run('groups-3', '/listhub', 'profiles/list-groups.json', ['--connections', '9', '--group-size', '3', '--transport', 'LongPolling', '--protocol', 'json']),
      run('group-except', '/listhub', 'profiles/group-except.json', ['--connections', '10', '--group-size', '5', '--transport', 'ServerSentEvents', '--protocol', 'json']),
    ]);
    // 2 groups of 5 (0-4, 5-9), every member sends to its group and the next: the other is the
    // next one's, so each send reaches all 10.
    expectPass(twoGroups, 10 * SENDS * 10);
    // 3 groups of 3: each send reaches its own group and the next, 6 connections.
    expectPass(threeGroups, 9 * SENDS * 6);
    // Groups of 5 but the sender: 4.
    const exceptResult = expectPass(except, 10 * SENDS * 4);
    expect(exceptResult.config.hubProfile?.deliver).toBe('groupExcept');
    expect(except.run.stdout).toContain('SendToGroupExcept → ReceiveMessage, to the group but the excluded');
  }, 90_000);
});

describe('users (/userhub, a token per user)', () => {
  it('user and users: each send reaches every connection of the users it names', async () => {
    // Connection i takes token i mod n.
    const [abc, abac] = await Promise.all([tokenFile('abc.txt', ['ann', 'bob', 'cy']), tokenFile('abac.txt', ['ann', 'bob', 'ann', 'cy'])]);
    const [user, users] = await Promise.all([
      run('user', '/userhub', 'profiles/to-user.json', ['--connections', '7', '--senders', '3', '--access-token-file', abc, '--transport', 'LongPolling', '--protocol', 'messagepack']),
      run('users', '/userhub', 'profiles/to-users.json', ['--connections', '6', '--access-token-file', abac, '--transport', 'WebSockets', '--protocol', 'json']),
    ]);
    // 3 senders of 7, spread: 0, 3 and 5. Tokens ann, bob, cy: 0 and 3 are ann's (ann has 0, 3,
    // 6: 3 connections), 5 is cy's (2 and 5: 2).
    expectPass(user, SENDS * (3 + 3 + 2));
    // Broadcast's 2 senders of 6: 0 and 3. Tokens ann, bob, ann, cy: ann has 0, 2, 4; bob 1, 5;
    // cy 3. Sender 0 (ann) names ann and the next user after its token, bob: 5. Sender 3 (cy)
    // names cy and, around, ann: 4.
    expectPass(users, SENDS * (5 + 4));
    expect(users.run.stderr).toContain('4 tokens set (one per user, by connection)');
  }, 90_000);
});

describe('refused before the run, exit 2 in seconds naming the field', () => {
  it('target without {target}, a list delivery without its list, groupExcept without {excluded}, others with one connection, users without tokens', async () => {
    const write = async (name: string, profile: object) => {
      const file = path.join(dir, name);
      await writeFile(file, JSON.stringify(profile));
      return file;
    };
    const noTarget = await write('no-target.json', { name: 'answers the caller', send: { method: 'SendMessage', args: ['{message}'] }, receive: { method: 'ReceiveMessage', arg: 0 }, deliver: 'target' });
    const noGroups = await write('no-groups.json', { name: 'groups without a list', join: { method: 'JoinGroup', args: ['{group}'] }, send: { method: 'SendToGroups', args: ['{group}', '{message}'] }, receive: { method: 'ReceiveMessage', arg: 0 }, deliver: 'groups' });
    const noExcluded = await write('no-excluded.json', { name: 'except nobody', join: { method: 'JoinGroup', args: ['{group}'] }, send: { method: 'SendToGroupExcept', args: ['{group}', [], '{message}'] }, receive: { method: 'ReceiveMessage', arg: 0 }, deliver: 'groupExcept' });
    const refusals = await Promise.all([
      liveBench(['--endpoint', `${hub.httpUrl}/listhub`, '--hub-profile', noTarget, '--connections', '4']),
      liveBench(['--endpoint', `${hub.httpUrl}/listhub`, '--hub-profile', noGroups, '--connections', '4']),
      liveBench(['--endpoint', `${hub.httpUrl}/listhub`, '--hub-profile', noExcluded, '--connections', '4']),
      liveBench(['--endpoint', `${hub.httpUrl}/chathub`, '--hub-profile', 'profiles/chat-others.json', '--connections', '1']),
      liveBench(['--endpoint', `${hub.httpUrl}/userhub`, '--hub-profile', 'profiles/to-users.json', '--connections', '4']),
    ]);
    const said = [
      `--hub-profile ${noTarget}: send.args: deliver "target" needs {target}, but send.args has none`,
      `--hub-profile ${noGroups}: send.args: deliver "groups" needs {groups}, but send.args has none`,
      `--hub-profile ${noExcluded}: send.args: deliver "groupExcept" needs {excluded}, but send.args has none`,
      'Hub profile: deliver: "others" with 1 connection runs for nothing: each send goes to every connection but its sender, and there is no other.',
      '--hub-profile profiles/to-users.json: The profile "to users: SendToUsers reaches the sender\'s user and the next" delivers "users", to the users named by the connections\' access tokens, but the run has no token.',
    ];
    refusals.forEach((refusal, i) => {
      expect(refusal.code, refusal.stderr).toBe(2);
      expect(refusal.elapsedMs).toBeLessThan(10_000);
      expect(refusal.stderr).toContain(said[i]);
      expect(refusal.stderr).toContain('nothing was run');
    });
  }, 60_000);
});

describe('{env:NAME}: a value from the runner\'s environment, never kept', () => {
  const ROOM = 'Zq7-private-room-4f81c2d9e0';
  /** Joins the room one variable names and sends to the room another names: anything arrives only
   *  when both were read and agree. Runs as broadcast: 2 senders, every connection receives. */
  const SECRET_ROOM = {
    name: 'a room named by the environment',
    join: { method: 'JoinGroup', args: ['{env:BENCH_ROOM}'] },
    send: { method: 'SendToGroups', args: [['{env:BENCH_ROOM_AGAIN}'], '{message}'] },
    receive: { method: 'ReceiveMessage', arg: 0 },
    deliver: 'all',
  };

  it('runs with the value; the JSON, the HTML, what was printed and the hub\'s log keep the placeholder; a variable not set exits 2 naming it', async () => {
    const file = path.join(dir, 'secret-room-profile.json');
    await writeFile(file, JSON.stringify(SECRET_ROOM));
    process.env.BENCH_ROOM = ROOM;
    process.env.BENCH_ROOM_AGAIN = ROOM;
    let ran: Awaited<ReturnType<typeof run>>;
    let missing: CliRun;
    try {
      ran = await run('secret-room', '/listhub', file, ['--connections', '4', '--transport', 'WebSockets', '--protocol', 'messagepack']);
      delete process.env.BENCH_ROOM_AGAIN;
      missing = await liveBench(['--endpoint', `${hub.httpUrl}/listhub`, '--hub-profile', file, '--connections', '4']);
    } finally {
      delete process.env.BENCH_ROOM;
      delete process.env.BENCH_ROOM_AGAIN;
    }
    // The value was read: the room joined is the room sent to, so every send reaches all 4.
    const result = expectPass(ran, 2 * SENDS * 4);
    expect(ran.run.stderr).toContain('profile values from $BENCH_ROOM, $BENCH_ROOM_AGAIN');
    expect(result.config.hubProfile?.join?.args).toEqual(['{env:BENCH_ROOM}']);
    const json = await readFile(ran.jsonPath, 'utf8');
    const html = await readFile(ran.htmlPath, 'utf8');
    expect(json).toContain('{env:BENCH_ROOM_AGAIN}');
    expect(html).toContain('{env:BENCH_ROOM}');
    for (const [what, text] of [['json', json], ['html', html], ['stdout', ran.run.stdout], ['stderr', ran.run.stderr], ['hub log', hub.output()]] as const) {
      expect(text.includes(ROOM), what).toBe(false);
    }
    expect(missing.code, missing.stderr).toBe(2);
    expect(missing.elapsedMs).toBeLessThan(10_000);
    expect(missing.stderr).toContain(`--hub-profile ${file}: send.args[0][0]: {env:BENCH_ROOM_AGAIN} reads the environment variable BENCH_ROOM_AGAIN, which is not set.`);
    expect(missing.stderr.includes(ROOM)).toBe(false);
  }, 60_000);
});
