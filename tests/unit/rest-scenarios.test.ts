/**
 * The serverless mode's scenarios, restBroadcast and restSendToUser, as pure plans and as the
 * engine's REST sender: who sends and what each slot plans, from the configuration alone; what a
 * REST call's status makes of its message; one token per URL, signed again before it expires;
 * and the runner's connection-string options, every refusal naming the option or the part and
 * none of them the key.
 */
import { describe, expect, it } from 'vitest';
import { plannedOfShare } from '../../core/accounting/index.ts';
import { planScenario, type ScenarioPlan } from '../../core/plan/index.ts';
import { runReceivers, REST_PROFILES } from '../../core/profiles/index.ts';
import { DEFAULTS, validateRunConfig, type RunConfig } from '../../core/run-config/index.ts';
import { mayHaveSent, restFailureOf, restUserId, type ServerlessCredentials } from '../../core/serverless/index.ts';
import { RestSends, restProbe, type RestPost, type TokenSigner } from '../../workers/engine/rest-sends.ts';
import { restScenario } from '../../workers/scenarios/rest-scenario.ts';
import type { Scenario, SendSpec } from '../../workers/scenarios/scenario.ts';
import type { GoMessage } from '../../core/execution/index.ts';
import { serverlessOf } from '../../cli/serverless-args.ts';
import { FakeTime } from '../support/fake-time.ts';
import { classifyPlainly, fakeHub } from '../support/fake-connections.ts';
import { BenchEngine } from '../../workers/engine/bench-engine.ts';
import { RunCoordinator, type WorkerPort } from '../../core/execution/coordinator.ts';
import type { FromWorker } from '../../core/execution/worker-messages.ts';
import { runResult } from '../../core/result/document.ts';

const KEY = 'rest-unit-key-Zm9vYmFyLXNlY3JldC1hY2Nlc3Mta2V5';
const SERVERLESS: ServerlessCredentials = { endpoint: 'http://127.0.0.1:5310', clientEndpoint: 'http://127.0.0.1:5310', hub: 'benchhub', accessKey: KEY };

function plan(scenario: RunConfig['scenario'], connections: number, senders: number | null = null): ScenarioPlan {
  const planned = planScenario({ scenario, connections, senders, groupSize: null, groupCount: null });
  if (!planned.ok) throw new Error(planned.errors.join(' '));
  return planned.plan;
}

function config(overrides: Partial<RunConfig>): RunConfig {
  const checked = validateRunConfig({ ...DEFAULTS, endpointUrl: 'http://127.0.0.1:5310/client/?hub=benchhub', ...overrides });
  if (!checked.ok) throw new Error(checked.errors.join(' '));
  return checked.config;
}

describe('the REST scenarios plan from the configuration', () => {
  it("restBroadcast: the guide's 2 senders by default (its 2 inbound messages a second), each slot to every connection", () => {
    const p = plan('restBroadcast', 1_000);
    expect(p.senderCount).toBe(2);
    expect([...Array(1_000).keys()].filter((i) => p.isSender(i))).toEqual([0, 500]);
    expect(p.sendersHeardBy(7)).toBe(2);
    const receivers = runReceivers({ deliver: REST_PROFILES.restBroadcast.deliver, connections: 1_000, plan: p, tokenUsers: [] });
    expect(receivers.perSlot(0)).toBe(1_000);
    expect(receivers.perSlot(1)).toBe(0);
    expect(plan('restBroadcast', 1_000, 4).senderCount).toBe(4);
  });

  it('restSendToUser: every connection sends, one reception each, and needs two connections', () => {
    const p = plan('restSendToUser', 10);
    expect(p.senderCount).toBe(10);
    expect(p.sendersHeardBy(3)).toBe(1);
    expect(runReceivers({ deliver: REST_PROFILES.restSendToUser.deliver, connections: 10, plan: p, tokenUsers: [] }).perSlot(4)).toBe(1);
    const one = planScenario({ scenario: 'restSendToUser', connections: 1, senders: null, groupSize: null, groupCount: null });
    expect(one.ok).toBe(false);
    if (!one.ok) expect(one.errors[0]).toContain("each sends to another connection's user");
  });

  it('plans exact receptions per second: 10 connections, 3 s at 1 s, broadcast 2 x 3 x 10 and send to user 10 x 3', () => {
    const window = { runStartUs: 0, sendStartUs: 1_000_000, sendEndUs: 4_000_000, warmupEndUs: 1_000_000 };
    const sum = (m: Map<number, number>) => [...m.values()].reduce((a, b) => a + b, 0);
    expect(sum(plannedOfShare(config({ scenario: 'restBroadcast', connections: 10 }), { firstIndex: 0, count: 10 }, window))).toBe(60);
    expect(sum(plannedOfShare(config({ scenario: 'restSendToUser', connections: 10 }), { firstIndex: 0, count: 10 }, window))).toBe(30);
  });

  it('refuses a hub profile (the tool names the target) and, for send to user, skipping negotiation (targets are told by hub ids)', () => {
    const withProfile = validateRunConfig({ ...DEFAULTS, endpointUrl: 'http://h/client/?hub=benchhub', scenario: 'restBroadcast', hubProfile: '{"name":"x","send":{"method":"Send","args":["{message}"]},"receive":{"method":"R","arg":0},"deliver":"all"}' });
    expect(withProfile.ok).toBe(false);
    if (!withProfile.ok) expect(withProfile.errors.join(' ')).toContain('The scenario restBroadcast sends by the REST API, not by hub methods');
    const skipped = validateRunConfig({ ...DEFAULTS, endpointUrl: 'http://h/client/?hub=benchhub', scenario: 'restSendToUser', skipNegotiation: true });
    expect(skipped.ok).toBe(false);
    if (!skipped.ok) expect(skipped.errors.join(' ')).toContain('Send to user through the REST API tells the targets that opened by their hub ids');
  });
});

describe("a REST call's status", () => {
  const cases: [number | null, string | null, boolean | null][] = [
    [202, null, null], [200, null, null],
    [400, 'badRequest', false], [401, 'badKey', false], [403, 'forbidden', false], [404, 'noSuchHub', false], [413, 'tooLarge', false], [429, 'throttled', false],
    [500, 'serviceError', true], [503, 'serviceError', true], [418, 'otherStatus', false], [null, 'noAnswer', true],
  ];
  for (const [status, code, maySent] of cases) {
    it(`${status ?? 'no answer'}: ${code ?? 'taken'}${maySent === null ? '' : maySent ? ', may have been sent' : ', never sent'}`, () => {
      const failure = restFailureOf(status);
      expect(failure?.code ?? null).toBe(code);
      if (failure) expect(mayHaveSent(failure)).toBe(maySent);
    });
  }
});

/** A poster that answers each call with the next status (or fails as node:http does for null), recording the calls. */
function fakePost(statuses: (number | null)[], body = '') {
  const calls: { url: string; authorization: string; body: string }[] = [];
  const post: RestPost = async (url, request) => {
    calls.push({ url, authorization: request.headers.authorization!, body: new TextDecoder().decode(request.body) });
    const status = statuses.length > 1 ? statuses.shift()! : statuses[0]!;
    if (status === null) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5310'), { code: 'ECONNREFUSED' });
    return { status, text: status === 202 ? '' : body };
  };
  return { post, calls };
}

function sender(statuses: (number | null)[], body = '') {
  const time = new FakeTime();
  const signed: string[] = [];
  const signer: TokenSigner = {
    rest: async (url) => {
      signed.push(url);
      return `token-${signed.length}`;
    },
    client: async (url, _key, user) => `client-${user}-${url}`,
  };
  const fake = fakePost(statuses, body);
  const wire = { sent: 0, received: 0 };
  const rest = new RestSends(SERVERLESS, 'run00001', { clock: time, timers: time, signer, restPost: fake.post, scrub: (text) => text.split(KEY).join('[hidden]'), wire });
  return { rest, time, signed, calls: fake.calls, wire };
}

function send(rest: RestSends, url: string): Promise<{ written: boolean; maySent?: boolean; text?: string }> {
  return new Promise((resolve) => rest.send(url, 'Measure', [1, 'text'], () => resolve({ written: true }), (maySent, text) => resolve({ written: false, maySent, text })));
}

describe("the engine's REST sender", () => {
  it('posts the body to the URL with a bearer token, one token per URL until a quarter of its minute is left', async () => {
    const { rest, time, signed, calls, wire } = sender([202]);
    const url = rest.urlOf({ kind: 'user', targetIndex: 7 });
    expect(url).toBe(`http://127.0.0.1:5310/api/v1/hubs/benchhub/users/${restUserId('run00001', 7)}`);
    for (let i = 0; i < 3; i++) expect(await send(rest, url)).toEqual({ written: true });
    expect(calls[0]).toEqual({ url, authorization: 'Bearer token-1', body: '{"target":"Measure","arguments":[1,"text"]}' });
    // Each body is what this client sent the service: the wire figures (the tier panel's "in").
    expect(wire).toEqual({ sent: 3 * '{"target":"Measure","arguments":[1,"text"]}'.length, received: 0 });
    expect(signed).toEqual([url]);
    await time.advanceByMs(44_000);
    await send(rest, url);
    expect(signed).toHaveLength(1);
    await time.advanceByMs(2_000);
    await send(rest, url);
    expect(signed).toEqual([url, url]);
    expect(calls.at(-1)!.authorization).toBe('Bearer token-2');
  });

  it('a 401 is never sent, named with the service\'s words; the URL says {user}, never a key it echoed', async () => {
    const { rest } = sender([401], `401: bad signature for key ${KEY}`);
    const result = await send(rest, rest.urlOf({ kind: 'user', targetIndex: 3 }));
    expect(result.written).toBe(false);
    expect(result.maySent).toBe(false);
    expect(result.text).toBe("REST API POST http://127.0.0.1:5310/api/v1/hubs/benchhub/users/{user} answered 401: the service did not take the token signed with the connection string's AccessKey (another key, or a key rotated in the portal). Copy the connection string again from the Keys blade. It said: 401: bad signature for key [hidden]");
  });

  it('a 503 or no answer may have been sent; a 404 names the hub and --azure-hub', async () => {
    expect(await send(sender([503]).rest, 'http://127.0.0.1:5310/api/v1/hubs/benchhub')).toMatchObject({ written: false, maySent: true });
    const unanswered = await send(sender([null]).rest, 'http://127.0.0.1:5310/api/v1/hubs/benchhub');
    expect(unanswered).toMatchObject({ written: false, maySent: true });
    expect(unanswered.text).toContain('got no answer (connect ECONNREFUSED 127.0.0.1:5310)');
    const missing = await send(sender([404]).rest, 'http://127.0.0.1:5310/api/v1/hubs/benchhub');
    expect(missing).toMatchObject({ written: false, maySent: false });
    expect(missing.text).toContain("the service has no hub 'benchhub' there");
    expect(missing.text).toContain('--azure-hub');
  });

  it('probes with a call to a user no connection is, and mints each connection its own user', async () => {
    const { rest, calls } = sender([202]);
    expect(await rest.probe()).toBeNull();
    expect(calls[0]!.url).toBe('http://127.0.0.1:5310/api/v1/hubs/benchhub/users/run00001-probe');
    const tokens = await rest.clientTokens(4, 2);
    expect([...tokens]).toEqual([[4, 'client-run00001-user-4-http://127.0.0.1:5310/client/?hub=benchhub'], [5, 'client-run00001-user-5-http://127.0.0.1:5310/client/?hub=benchhub']]);
    rest.stop();
  });

  it('a probe nothing answered, with no connection open, leaves the verdict to the connects; an answer names the key or hub even then', async () => {
    const config = { scenario: 'restBroadcast' as const };
    const recorded = () => {
      const errors: string[] = [];
      return { errors, stats: { recordError: (_kind: string, text: string) => void errors.push(text) } };
    };
    const unanswered = recorded();
    expect(await restProbe(sender([null]).rest, config, unanswered.stats, false)).toBeNull();
    expect(unanswered.errors).toEqual([]);
    const stillUnanswered = recorded();
    expect(await restProbe(sender([null]).rest, config, stillUnanswered.stats, true)).toContain('ECONNREFUSED');
    expect(stillUnanswered.errors).toHaveLength(1);
    const wrongKey = recorded();
    const refusal = await restProbe(sender([401], 'invalid signature').rest, config, wrongKey.stats, false);
    expect(refusal).toContain('401');
    expect(wrongKey.errors).toEqual([refusal]);
  });

  it('mints the client tokens again at half their hour, into the same map, until stopped', async () => {
    const time = new FakeTime();
    let minted = 0;
    const signer: TokenSigner = { rest: async () => 'r', client: async (_url, _key, user) => `client-${user}-${++minted}` };
    const rest = new RestSends(SERVERLESS, 'run00001', { clock: time, timers: time, signer, restPost: fakePost([202]).post, scrub: (text) => text });
    const tokens = await rest.clientTokens(0, 2);
    expect(tokens.get(1)).toBe('client-run00001-user-1-2');
    await time.advanceByMs(1_799_000);
    expect(tokens.get(1)).toBe('client-run00001-user-1-2');
    await time.advanceByMs(1_000);
    expect(tokens.get(1)).toBe('client-run00001-user-1-4');
    rest.stop();
    expect(time.pendingTimers).toBe(0);
    await time.advanceByMs(3_600_000);
    expect(minted).toBe(4);
  });
});

describe('restSendToUser sends each slot to the user of its derangement target', () => {
  const spec: SendSpec = { method: 'Measure', args: (time, text) => [time, text], recipients: 1, absent: 0, awaitsReturn: false };
  const base = { sendSpec: () => spec, probe: () => [{ method: 'Measure', args: spec.args, role: 'send' }] } as unknown as Scenario;
  const go = { targets: ['id-b', null], targetIndices: [5, 9] } as unknown as GoMessage;
  const pooled = (index: number) => ({ index }) as Parameters<Scenario['sendSpec']>[0];

  it('to the target user, the REST API its probe; a broadcast to the hub', () => {
    const { rest } = sender([202]);
    const toUser = restScenario(base, 'restSendToUser', rest);
    expect(toUser.sendSpec(pooled(0), 0, go)!.rest).toBe(rest.urlOf({ kind: 'user', targetIndex: 5 }));
    expect(toUser.probe(pooled(0))).toEqual([]);
    expect(restScenario(base, 'restBroadcast', rest).sendSpec(pooled(0), 0, go)!.rest).toBe('http://127.0.0.1:5310/api/v1/hubs/benchhub');
  });
});

describe("the runner's connection-string options", () => {
  const GOOD = `Endpoint=http://127.0.0.1:5310;AccessKey=${KEY};Version=1.0;`;
  const run = (v: Parameters<typeof serverlessOf>[0], env: Record<string, string> = {}, file = '') => {
    const errors: string[] = [];
    const result = serverlessOf(v, errors, env, () => {
      if (file === '') throw Object.assign(new Error('nope'), { code: 'ENOENT' });
      return file;
    });
    for (const error of errors) expect(error).not.toContain(KEY.slice(0, 8));
    return { result, errors };
  };

  it('reads the string from a variable or a file, and the client URL becomes the endpoint', () => {
    expect(run({ 'azure-connection-string-env': 'AZ' }, { AZ: GOOD }).result).toEqual({ serverless: SERVERLESS, clientUrl: 'http://127.0.0.1:5310/client/?hub=benchhub' });
    expect(run({ 'azure-connection-string-file': 'f', 'azure-hub': 'ChatHub' }, {}, `\n${GOOD}\n`).result?.clientUrl).toBe('http://127.0.0.1:5310/client/?hub=ChatHub');
  });

  it('a REST scenario without one is refused saying what to pass', () => {
    const { errors } = run({ scenario: 'restSendToUser' });
    expect(errors).toEqual([expect.stringMatching(/^Send to user through the REST API sends through Azure SignalR Service's REST API, which needs the service's connection string: pass --azure-connection-string-env <VARIABLE> .* or --azure-connection-string-file <file>/)]);
  });

  it('refuses every bad source or string naming the option or the part, never the key', () => {
    expect(run({ 'azure-connection-string-env': 'AZ' }).errors).toEqual([expect.stringContaining('the environment variable AZ is not set')]);
    expect(run({ 'azure-connection-string-file': '/nowhere' }).errors).toEqual([expect.stringContaining('--azure-connection-string-file /nowhere cannot be read (ENOENT)')]);
    expect(run({ 'azure-connection-string-env': 'A', 'azure-connection-string-file': 'f' }).errors[0]).toContain('both given');
    expect(run({ 'azure-connection-string-env': 'AZ' }, { AZ: `Endpoint=http://127.0.0.1:5310;${KEY};Version=1.0;` }).errors).toEqual([expect.stringMatching(/^The connection string in \$AZ: Part 2 of the Azure SignalR connection string is not Name=value/)]);
    expect(run({ 'azure-connection-string-env': 'AZ' }, { AZ: 'Endpoint=http://127.0.0.1:5310;Version=1.0;' }).errors[0]).toContain('has no AccessKey');
    expect(run({ 'azure-connection-string-env': 'AZ', 'azure-hub': 'no-such/hub' }, { AZ: GOOD }).errors[0]).toContain("The hub name 'no-such/hub' is not one Azure SignalR Service takes");
    expect(run({ 'azure-connection-string-env': 'AZ', endpoint: ['http://x/signalrbench'], 'access-token': 't' }, { AZ: GOOD }).errors).toEqual([
      expect.stringContaining('--endpoint is given with an Azure SignalR connection string'),
      expect.stringContaining("--access-token is given with an Azure SignalR connection string, whose AccessKey signs each connection's token"),
    ]);
  });
});

describe('the engine accounts for REST sends as for every send', () => {
  it('a taken call arrives, a 401 is never sent (writeFailed), a 503 is sent and lost: planned is what the arguments say', async () => {
    const time = new FakeTime();
    const hub = fakeHub(time, { deliveryDelayMs: 3 });
    const runConfig = config({ scenario: 'restSendToUser', connections: 4, workers: 1, sendIntervalMs: 100, durationSec: 1 });
    const signer: TokenSigner = { rest: async () => 'rest-token', client: async (_url, _key, user) => `client-${user}` };
    let calls = 0;
    // The REST API: a send to a user reaches that user's connection (its run-wide index ends the user id).
    const restPost: RestPost = async (url, request) => {
      const user = /\/users\/([^/]+)$/.exec(url)?.[1] ?? '';
      if (user.endsWith('-probe')) return { status: 202, text: '' };
      const n = calls++;
      if (n === 5) return { status: 401, text: '401: not this key' };
      if (n === 7) return { status: 503, text: '' };
      const { arguments: [ts, text] } = JSON.parse(new TextDecoder().decode(request.body)) as { arguments: [number, string] };
      const target = hub.connections[Number(/-user-(\d+)$/.exec(user)![1])]!;
      time.setTimeout(() => target.deliver(ts, text), 3);
      return { status: 202, text: '' };
    };
    let handler: (message: FromWorker) => void = () => {};
    const engine = new BenchEngine({ clock: time, timers: time, connect: hub.factory, classify: classifyPlainly, post: (m) => handler(m), signer, restPost });
    const port: WorkerPort = { post: (m) => engine.handle(m), onMessage: (h) => (handler = h), terminate: () => void engine.finish() };
    const coordinator = new RunCoordinator(runConfig, [port], time, time, { credentials: { accessTokens: [], headers: [], query: [], serverless: SERVERLESS } });
    coordinator.start();
    await time.advanceByMs(30_000);
    expect(coordinator.phase).toBe('done');
    const fates = runResult(coordinator, new Date(0), 'test').fates;
    expect(fates).toMatchObject({ planned: 40, underOneSecond: 38, notSent: { writeFailed: 1 }, lost: 1, overCount: 0 });
    expect(coordinator.aggregator.errorSamples().map((sample) => sample.message)).toEqual([
      expect.stringMatching(/^REST API POST http:\/\/127\.0\.0\.1:5310\/api\/v1\/hubs\/benchhub\/users\/\{user\} answered 401: .* It said: 401: not this key$/),
      expect.stringMatching(/answered 503: the service failed the call; its message may have reached some receivers\.$/),
    ]);
    // No hub method was called: every send went through the REST API.
    expect(hub.connections.map((c) => c.sent.length)).toEqual([0, 0, 0, 0]);
  });
});
