/**
 * The serverless mode's scenarios end to end, with the built runner against the real hub-sample's
 * REST API (--EnableRestApi): an Azure SignalR connection string (Endpoint the hub's origin,
 * AccessKey its --RestApiKey) from an environment variable or a file; every client connects
 * straight to {endpoint}/client/?hub=benchhub with a token the runner mints (its own user), and
 * every slot is a REST API POST. Exact counts planned from the arguments; a wrong key's 401 and
 * a wrong hub's 404 named in seconds, before anything is sent; a hub without the REST API named;
 * a REST scenario without a connection string refused by name; the key in no line, JSON or HTML.
 */
import { randomInt } from 'node:crypto';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRunResult, type RunResult } from '../../core/result/result.ts';
import { startHub, type RunningHub } from '../support/hub-process.ts';
import { liveBench, type CliRun } from '../support/live-bench.ts';
import { agentCounts, startAgent } from '../support/agents.ts';
import { SESSION_CODE_ALPHABET } from '../../cli/lead-args.ts';

const KEY = 'rest-scenarios-key-Zm9vYmFyLXNlY3JldC1hY2Nlc3M';
const OTHER_KEY = 'another-rest-key-Zm9vYmFyLXNlY3JldC1hY2Nlc3M';
let hub: RunningHub;
let plain: RunningHub;
let dir: string;

beforeAll(async () => {
  [hub, plain] = await Promise.all([startHub({ extraArgs: ['--EnableRestApi', 'true', '--RestApiKey', KEY] }), startHub()]);
  dir = await mkdtemp(path.join(os.tmpdir(), 'live-bench-rest-'));
}, 60_000);

afterAll(async () => {
  await Promise.all([hub?.stop(), plain?.stop()]);
});

const connectionString = (origin: string, key = KEY) => `Endpoint=${origin};AccessKey=${key};Version=1.0;`;

/** The runner with the connection string in $AZ_SIGNALR; its JSON and HTML, and every text it left. */
async function run(name: string, text: string, args: string[]): Promise<{ cli: CliRun; result: RunResult | null; texts: string[] }> {
  const json = path.join(dir, `${name}.json`);
  const html = path.join(dir, `${name}.html`);
  const cli = await new Promise<CliRun>((resolve, reject) => {
    process.env.AZ_SIGNALR = text;
    liveBench(['--azure-connection-string-env', 'AZ_SIGNALR', '--json', json, '--html', html, '--drain-s', '5', ...args]).then(resolve, reject);
    // Read by the child at spawn; the test process keeps no copy.
    delete process.env.AZ_SIGNALR;
  });
  const files = await Promise.all([json, html].map((file) => readFile(file, 'utf8').catch(() => '')));
  return { cli, result: files[0] ? parseRunResult(files[0]) : null, texts: [cli.stdout, cli.stderr, ...files] };
}

function expectNoKey(texts: string[], ...keys: string[]): void {
  for (const text of texts) {
    for (const key of keys) {
      expect(text).not.toContain(key);
      expect(text).not.toContain(key.slice(0, 10));
    }
  }
}

describe('the REST scenarios against the hub-sample', () => {
  it('restBroadcast and restSendToUser deliver exactly what the arguments plan: 2 senders x 3 slots x 10 and 10 x 3 x 1', async () => {
    const [broadcast, toUser] = await Promise.all([
      run('broadcast', connectionString(hub.httpUrl), ['--scenario', 'restBroadcast', '--connections', '10', '--duration', '3']),
      run('to-user', connectionString(hub.httpUrl), ['--scenario', 'restSendToUser', '--connections', '10', '--duration', '3']),
    ]);
    for (const [{ cli, result, texts }, planned] of [[broadcast, 60], [toUser, 30]] as const) {
      expect(cli.code, cli.stderr).toBe(0);
      expect(result!.config.endpointUrl).toBe(`${hub.httpUrl}/client/?hub=benchhub`);
      expect(result!.fates).toMatchObject({ planned, underOneSecond: planned, late: 0, lost: 0, overCount: 0 });
      expect(result!.totals.received).toBe(planned);
      expect(result!.diagnosis!.cause).toBe('held');
      expect(cli.stderr).toContain('Azure SignalR connection string set (hub benchhub');
      expectNoKey(texts, KEY);
    }
    expect(broadcast.cli.stdout).toContain('broadcast through REST API on Unit1');
  }, 60_000);

  it("a connection string from a file, a wrong key: the REST API's 401 named within seconds, nothing sent, neither key anywhere", async () => {
    const file = path.join(dir, 'connection-string');
    await writeFile(file, `${connectionString(hub.httpUrl, OTHER_KEY)}\n`);
    const json = path.join(dir, 'bad-key.json');
    const cli = await liveBench(['--azure-connection-string-file', file, '--scenario', 'restBroadcast', '--connections', '4', '--duration', '5', '--json', json]);
    expect(cli.code).toBe(3);
    expect(cli.elapsedMs).toBeLessThan(5_000);
    const result = parseRunResult(await readFile(json, 'utf8'));
    expect(result.diagnosis!.cause).toBe('restRefused');
    expect(result.diagnosis!.sentence).toContain("refused the run's sends with HTTP 401 (1 call): it did not take the tokens signed with the connection string's AccessKey");
    expect(result.totals.sent).toBe(0);
    expect(cli.stderr).toContain(`REST API POST ${hub.httpUrl}/api/v1/hubs/benchhub/users/{user} answered 401`);
    expectNoKey([cli.stdout, cli.stderr, await readFile(json, 'utf8')], OTHER_KEY, KEY);
  }, 30_000);

  it("a hub it does not have: the REST API's 404 naming its hubs and --azure-hub", async () => {
    const { cli, result, texts } = await run('wrong-hub', connectionString(hub.httpUrl), ['--azure-hub', 'NoSuchHub', '--scenario', 'restSendToUser', '--connections', '4', '--duration', '5']);
    expect(cli.code).toBe(3);
    expect(cli.elapsedMs).toBeLessThan(5_000);
    expect(result!.diagnosis!.cause).toBe('restRefused');
    expect(result!.diagnosis!.sentence).toContain("HTTP 404 (1 call): it has no hub of that name there, or there is no REST API at that address: \"404: this hub-sample has no hub 'NoSuchHub'. Its hubs are: benchhub\"");
    expect(result!.diagnosis!.advice).toContain('--azure-hub');
    expectNoKey(texts, KEY);
  }, 30_000);

  it('a hub without the REST API: the 404 named, with --EnableRestApi in what to do', async () => {
    const { cli, result } = await run('no-rest', connectionString(plain.httpUrl), ['--scenario', 'restBroadcast', '--connections', '4', '--duration', '5']);
    expect(cli.code).toBe(3);
    expect(result!.diagnosis!.cause).toBe('restRefused');
    expect(result!.diagnosis!.advice).toContain('the hub-sample answers the REST API only with --EnableRestApi true');
  }, 30_000);
});

describe('a REST scenario in a capacity search', () => {
  it('each step plans and counts its REST sends: 10 then 20 connections sending to users, every reception, held against the serverless table', async () => {
    process.env.AZ_SIGNALR = connectionString(hub.httpUrl);
    const json = path.join(dir, 'capacity.json');
    const search = liveBench(['--azure-connection-string-env', 'AZ_SIGNALR', '--scenario', 'restSendToUser', '--find-capacity', '--ramp', 'connections', '--start', '10', '--step', '10', '--max', '20',
      '--step-duration', '3', '--settle', '1', '--json', json]);
    delete process.env.AZ_SIGNALR;
    const run = await search;
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("of Unit1's published send to user through the REST API rate (200 msg/s, current edition)");
    const text = await readFile(json, 'utf8');
    const steps = (JSON.parse(text) as { steps: { connections: number; fates: { planned: number; underOneSecond: number; lost: number } }[] }).steps;
    // Each step's slots: 3 s at 1 s, the first second settling; every connection sends one a second.
    expect(steps.map((step) => [step.connections, step.fates.planned === step.fates.underOneSecond, step.fates.lost])).toEqual([[10, true, 0], [20, true, 0]]);
    expect(steps[1]!.fates.planned).toBe(2 * steps[0]!.fates.planned);
    expectNoKey([run.stdout, run.stderr, text], KEY);
  }, 60_000);
});

describe('a REST scenario led over agents', () => {
  it("the lead's connection string reaches a headless agent in its start message, never printed: every planned reception counted", async () => {
    const code = (length: number) => Array.from({ length }, () => SESSION_CODE_ALPHABET[randomInt(SESSION_CODE_ALPHABET.length)]).join('');
    const [session, secret] = [code(16), code(20)];
    const json = path.join(dir, 'lead.json');
    process.env.AZ_SIGNALR = connectionString(hub.httpUrl);
    const lead = liveBench(['--lead', '--agents', '1', '--session', session, '--session-secret', secret, '--agents-timeout', '30', '--azure-connection-string-env', 'AZ_SIGNALR',
      '--scenario', 'restSendToUser', '--connections', '10', '--duration', '3', '--quiet', '--json', json]);
    delete process.env.AZ_SIGNALR;
    const agent = await startAgent(`${hub.httpUrl}/control`, session, ['--session-secret', secret, '--once', '--join-timeout', '20']);
    const run = await lead;
    expect(await agent.exited).toBe(0);
    expect(run.code, run.stderr).toBe(0);
    // Over a plain-http control hub the lead says what crosses it, naming no value.
    expect(run.stderr).toContain("the Azure SignalR connection string's AccessKey will cross it to the agents in plain text");
    const result = parseRunResult(await readFile(json, 'utf8'));
    expect(result.fates).toMatchObject({ planned: 30, underOneSecond: 30, lost: 0 });
    expect(agentCounts(agent.stdout())).toEqual({ opened: 10, sent: 30, planned: 30, received: 30 });
    expectNoKey([run.stdout, run.stderr, agent.stdout(), agent.stderr(), await readFile(json, 'utf8')], KEY);
  }, 60_000);
});

describe('the REST scenarios refused before the run', () => {
  it('without a connection string: exit 2, naming both options', async () => {
    const cli = await liveBench(['--endpoint', `${hub.httpUrl}/signalrbench`, '--scenario', 'restSendToUser']);
    expect(cli.code).toBe(2);
    expect(cli.elapsedMs).toBeLessThan(5_000);
    expect(cli.stderr).toContain("live-bench: Send to user through the REST API sends through Azure SignalR Service's REST API, which needs the service's connection string: pass --azure-connection-string-env <VARIABLE>");
    expect(cli.stderr).toContain('--azure-connection-string-file <file>');
  }, 30_000);

  it('a key pasted without its name: exit 2 naming the part, never a character of the key', async () => {
    const { cli } = await run('pasted', `Endpoint=${hub.httpUrl};${KEY};Version=1.0;`, ['--scenario', 'restBroadcast']);
    expect(cli.code).toBe(2);
    expect(cli.stderr).toContain('The connection string in $AZ_SIGNALR: Part 2 of the Azure SignalR connection string is not Name=value');
    expectNoKey([cli.stdout, cli.stderr], KEY);
  }, 30_000);
});
