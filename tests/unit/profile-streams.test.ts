/**
 * Streams and client results in hub profiles: the fields and their refusals (deliver "stream",
 * `{stream}`, `answer`), the shape a client result runs on, and the engine on a fake hub with the
 * hub-sample's /streamhub and /clientresulthub methods: each item carrying the text a reception,
 * one client-to-server stream per connection, a stream of numbers refused before the run, a
 * client result measured to the caller's completion, and one nobody answers counted lost.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { bindArgs, checkHubProfile, defaultShape, parseHubProfile, shapeProblems, type HubProfile } from '../../core/profiles/index.ts';
import { validateRunConfig, type RunConfig } from '../../core/run-config/config.ts';
import { runResult } from '../../core/result/document.ts';
import { profileLabel } from '../../core/run-config/index.ts';
import type { FakeHubOptions } from '../support/fake-connections.ts';
import { fakeRun } from '../support/fake-run.ts';

const errorsOf = (value: unknown) => {
  const result = checkHubProfile(value);
  return result.ok ? [] : result.errors;
};

const STREAM_ECHO: HubProfile = { name: 'stream echo', send: { method: 'StreamEcho', args: ['{stream}'] }, deliver: 'stream' };
const REPEAT: HubProfile = { name: 'repeat', send: { method: 'Repeat', args: ['{message}'] }, deliver: 'stream' };
const UPLOAD: HubProfile = { name: 'upload words', send: { method: 'UploadWords', args: ['{stream}'] }, receive: { method: 'Word', arg: 0 }, deliver: 'self' };
const ASK_TARGET: HubProfile = { name: 'client result', send: { method: 'GetMessage', args: ['{target}'] }, deliver: 'return', answer: { method: 'GetMessage', with: '{message}' } };
const ASK_CALLER: HubProfile = { name: 'client result of the caller', send: { method: 'GetMessageFromCaller', args: [] }, deliver: 'return', answer: { method: 'GetMessage', with: '{message}' } };

describe('the fields of streams and client results', () => {
  it('reads the examples of these shapes, the answer kept', () => {
    for (const file of ['stream-echo', 'stream-repeat', 'upload-words', 'client-result']) {
      const read = parseHubProfile(readFileSync(`profiles/${file}.json`, 'utf8'));
      expect(read.ok ? [] : read.errors, file).toEqual([]);
    }
    for (const profile of [STREAM_ECHO, REPEAT, UPLOAD, ASK_TARGET, ASK_CALLER]) expect(checkHubProfile(profile)).toEqual({ ok: true, profile });
    // A stream of the hub's own making (no text passed): the probe reads what it yields.
    expect(errorsOf({ name: 'counter', send: { method: 'Counter', args: [3, 10] }, deliver: 'stream' })).toEqual([]);
    // An answer inside an object.
    expect(errorsOf({ ...ASK_CALLER, answer: { method: 'GetMessage', with: { text: '{message}', from: 'bench' } } })).toEqual([]);
  });

  it('{stream}: one of {stream} and {message}, once, a whole argument of send', () => {
    const send = (args: unknown[], deliver = 'self', more: object = { receive: { method: 'Word', arg: 0 } }) => errorsOf({ name: 'x', send: { method: 'Up', args }, deliver, ...more });
    expect(send(['{stream}', '{stream}'])).toEqual(['send.args: {stream} appears 2 times; a call takes one stream of the tool\'s messages.']);
    expect(send(['{stream}', '{message}'])).toEqual(['send.args: {message} and {stream} both appear; use one: "{message}" for a call per message, "{stream}" for one stream whose items are the messages.']);
    expect(send(['words: {stream}'])).toEqual([expect.stringMatching(/^send\.args\[0\]: "words: \{stream\}": \{stream\} must be a whole argument of its own/), expect.stringMatching(/^send\.args: \{message\} is missing/)]);
    expect(send([['{stream}']])).toEqual([expect.stringMatching(/^send\.args\[0\]\[0\]: "\{stream\}": \{stream\} must be a whole argument of its own/)]);
    expect(send([])).toEqual(['send.args: {message} is missing; put "{message}" as the argument that carries the text, exactly once (or "{stream}" for a client-to-server stream of the messages).']);
    expect(errorsOf({ name: 'x', join: { method: 'Join', args: ['{stream}'] }, send: { method: 'Up', args: ['{stream}'] }, receive: { method: 'Word', arg: 0 }, deliver: 'self' }))
      .toEqual(['join.args[0]: {stream} goes in send.args only; join opens no stream.']);
    expect(send(['{stream}'], 'return', {})).toEqual([expect.stringMatching(/^send\.args\[0\]: \{stream\} cannot go with deliver "return"/)]);
  });

  it('deliver "stream": the items are the receptions, so receive is not used', () => {
    expect(errorsOf({ ...REPEAT, receive: { method: 'Word', arg: 0 } })).toEqual(['receive: not used with deliver "stream": the items of the stream the send method returns are the receptions. Remove receive.']);
  });

  it('answer: deliver "return" only, a client method, {message} once in with', () => {
    expect(errorsOf({ ...UPLOAD, answer: { method: 'GetMessage', with: '{message}' } })).toEqual([expect.stringMatching(/^answer: only with deliver "return" \(deliver is "self"\)/)]);
    expect(errorsOf({ ...ASK_CALLER, answer: 'GetMessage' })).toEqual([expect.stringMatching(/^answer: must be an object \{ "method": "GetMessage", "with": "\{message\}" \}.*but is "GetMessage"\.$/)]);
    expect(errorsOf({ ...ASK_CALLER, answer: { method: 'Get Message', with: '{message}' } })).toEqual([expect.stringMatching(/^answer\.method: "Get Message" is not a method name/)]);
    expect(errorsOf({ ...ASK_CALLER, answer: { method: 'GetMessage' } })).toEqual([expect.stringMatching(/^answer\.with: required/)]);
    expect(errorsOf({ ...ASK_CALLER, answer: { method: 'GetMessage', with: 'hello' } })).toEqual([expect.stringMatching(/^answer\.with: \{message\} is missing/)]);
    expect(errorsOf({ ...ASK_CALLER, answer: { method: 'GetMessage', with: ['{message}', '{message}'] } })).toEqual(['answer.with: {message} appears 2 times; it must appear exactly once.']);
    expect(errorsOf({ ...ASK_CALLER, answer: { method: 'GetMessage', with: { text: '{message}', to: '{target}' } } }))
      .toEqual(['answer.with.to: {target} is not known in an answer: it holds "{message}", the text the tool answers with.']);
    expect(errorsOf({ ...ASK_CALLER, answer: { method: 'GetMessage', with: '{message}', value: 1 } })).toEqual(['answer.value: not a field of answer; use method and with.']);
  });

  it('{target} in a "return" send only with an answer; without one, {message} is what returns', () => {
    const { answer: _answer, ...plain } = ASK_TARGET;
    expect(errorsOf(plain)).toEqual([
      expect.stringMatching(/^send\.args\[0\]: \{target\} is only known in send\.args with deliver "target", or "return" with an answer \(deliver is "return"\)/),
      'send.args: {message} is missing; put "{message}" as the argument that carries the text, exactly once.',
    ]);
  });

  it('a client result asked of {target} runs on send to connection\'s derangement, one of the caller on echo', () => {
    expect(defaultShape(ASK_TARGET)).toBe('sendToConnection');
    expect(defaultShape(ASK_CALLER)).toBe('echo');
    expect(defaultShape(REPEAT)).toBe('echo');
    expect(shapeProblems(ASK_TARGET, 'sendToConnection')).toEqual([]);
    expect(shapeProblems(ASK_TARGET, 'echo')).toEqual(['Scenario echo does not fit the profile "client result": deliver "return", with {target} in send.args, runs as sendToConnection. Choose that scenario, or leave it out for the default.']);
    expect(shapeProblems(ASK_CALLER, 'sendToConnection')).toEqual([expect.stringContaining('deliver "return", without {target} in send.args, runs as echo')]);
    const result = validateRunConfig({ endpointUrl: 'http://fake/hub', hubProfile: ASK_TARGET });
    expect(result.ok && result.config.scenario).toBe('sendToConnection');
    expect(profileLabel(ASK_TARGET)).toBe('client result profile: GetMessage → its return value, answering GetMessage');
  });

  it('{stream} binds to the stream the call is made with, the other arguments as usual', () => {
    const stream = { next: () => {} };
    expect(bindArgs({ method: 'Up', args: ['bench-{connection}', '{stream}', '{time}'] }, { connection: 7, group: null, target: null, user: null })(12, '', stream))
      .toEqual(['bench-7', stream, 12]);
  });
});

function config(hubProfile: HubProfile, overrides: Partial<RunConfig> = {}): RunConfig {
  const result = validateRunConfig({ endpointUrl: 'http://fake/streamhub', sendIntervalMs: 100, durationSec: 1, connections: 4, workers: 2, hubProfile, ...overrides });
  if (!result.ok) throw new Error(result.errors.join('\n'));
  return result.config;
}

async function runToEnd(runConfig: RunConfig, options: FakeHubOptions = { deliveryDelayMs: 3 }) {
  const run = fakeRun(runConfig, options);
  run.coordinator.start();
  await run.time.advanceByMs(30_000);
  expect(run.coordinator.phase).toBe('done');
  return { ...run, result: runResult(run.coordinator, new Date(0), 'test') };
}

/** 4 connections, each sending every 100 ms for 1 s. */
const PLANNED = 40;

describe('streams on a fake hub', () => {
  it('deliver "stream" with {message}: each slot its own stream, its item the reception, latency per item', async () => {
    const { result, hub } = await runToEnd(config(REPEAT));
    // Each worker's first connection also made the probe's call.
    expect(hub.connections.map((c) => c.sent.filter((s) => s.method === 'Repeat').length)).toEqual([11, 10, 11, 10]);
    expect(result.fates.planned).toBe(PLANNED);
    expect(result.totals).toMatchObject({ sent: PLANNED, received: PLANNED, duplicated: 0, unsolicited: 0 });
    expect(result.fates.lost).toBe(0);
    // The fake hub yields the item 3 ms after the call.
    expect(result.latency.p50Us).toBeGreaterThanOrEqual(3_000);
    expect(result.latency.p50Us).toBeLessThan(5_000);
    expect(result.verdict.status).toBe('pass');
  });

  it('deliver "stream": a stream that completes without its text leaves it missing', async () => {
    const { result } = await runToEnd(config(REPEAT), { deliveryDelayMs: 3, drop: (connection, n) => connection === 1 && n >= 2 && n < 5 });
    expect(result.fates).toMatchObject({ planned: PLANNED, lost: 3 });
    expect(result.totals.received).toBe(PLANNED - 3);
    expect(result.verdict.status).toBe('fail');
  });

  it('{stream} with deliver "stream": one stream per connection, each message an item, each echoed item a reception', async () => {
    const { result, hub } = await runToEnd(config(STREAM_ECHO));
    // The probe's stream on each worker's first connection, then one stream per connection for the run.
    expect(hub.connections.map((c) => c.sent.filter((s) => s.method === 'StreamEcho').length)).toEqual([2, 1, 2, 1]);
    const upload = hub.connections[1]!.sent.at(-1)!.args[0] as { items: unknown[] };
    expect(upload.items).toHaveLength(10);
    expect(result.totals).toMatchObject({ sent: PLANNED, received: PLANNED, duplicated: 0, unsolicited: 0 });
    expect(result.fates).toMatchObject({ planned: PLANNED, lost: 0 });
    // Nothing ended under the run: the streams were ended by it, after the drain.
    expect(result.errorSamples).toEqual([]);
    expect(result.verdict.status).toBe('pass');
  });

  it('{stream} with deliver "self": the stream\'s items reach the receive method', async () => {
    const { result, hub } = await runToEnd(config(UPLOAD));
    expect(hub.connections.map((c) => c.sent.filter((s) => s.method === 'UploadWords').length)).toEqual([2, 1, 2, 1]);
    expect(result.totals).toMatchObject({ sent: PLANNED, received: PLANNED, duplicated: 0 });
    expect(result.fates).toMatchObject({ planned: PLANNED, lost: 0 });
    expect(result.verdict.status).toBe('pass');
  });

  it('a stream of numbers is refused before the run, by name', async () => {
    const { result } = await runToEnd(config({ name: 'counter', send: { method: 'Counter', args: [3, 10] }, deliver: 'stream' }));
    expect(result.outcome).toMatchObject({
      kind: 'failed',
      code: 'hubRefused',
      reason: expect.stringContaining('did not accept Counter(…) as a stream of the tool\'s messages: Counter\'s stream yields numbers (its first item: 0); a stream whose items are not text cannot carry the tool\'s message. The hub profile "counter" streams with Counter'),
    });
    expect(result.fates.planned).toBe(0);
    expect(result.diagnosis).toMatchObject({ cause: 'hubMethodRefused' });
  });

  it('a stream of objects is refused before the run: a stream item is read as the text itself, with no path into it', async () => {
    const { result } = await runToEnd(config({ name: 'objects', send: { method: 'RepeatObject', args: ['{message}'] }, deliver: 'stream' }));
    expect(result.outcome).toMatchObject({ kind: 'failed', code: 'hubRefused', reason: expect.stringContaining('RepeatObject\'s stream yields objects (its first item: {"user":"bench","message":') });
    expect(result.outcome.reason).toContain('a stream whose items are not text cannot carry the tool\'s message');
    expect(result.fates.planned).toBe(0);
  });

  it('a text stream passed no {message} or {stream} is refused before the run', async () => {
    const { result } = await runToEnd(config({ name: 'fixed', send: { method: 'Repeat', args: ['hello'] }, deliver: 'stream' }));
    expect(result.outcome.reason).toContain('Repeat\'s stream yields text (its first item: "hello"), and the profile passes it neither {message} nor {stream}');
    expect(result.fates.planned).toBe(0);
  });
});

describe('client results on a fake hub', () => {
  it('asked of the target: every connection answers, the caller\'s completion is the reception, exact', async () => {
    const { result, hub } = await runToEnd(config(ASK_TARGET));
    expect(result.config.scenario).toBe('sendToConnection');
    // Every connection sends (the derangement), each GetMessage names another connection.
    hub.connections.forEach((connection, index) => {
      const asked = connection.sent.filter((s) => s.method === 'GetMessage').map((s) => s.args[0]);
      expect(asked.filter((id) => id !== `fake-${index}`)).toHaveLength(10);
    });
    expect(result.totals).toMatchObject({ sent: PLANNED, received: PLANNED, unsolicited: 0 });
    expect(result.fates).toMatchObject({ planned: PLANNED, lost: 0 });
    // Asked 3 ms after the call, answered at once, returned 3 ms later.
    expect(result.latency.p50Us).toBeGreaterThanOrEqual(6_000);
    expect(result.latency.p50Us).toBeLessThan(9_000);
    expect(result.verdict.status).toBe('pass');
  });

  it('asked of the caller: on echo\'s plan, exact', async () => {
    const { result } = await runToEnd(config(ASK_CALLER));
    expect(result.config.scenario).toBe('echo');
    expect(result.totals).toMatchObject({ sent: PLANNED, received: PLANNED });
    expect(result.verdict.status).toBe('pass');
  });

  it('a client method the tool does not answer: every call sent and lost, the hub\'s words kept, never a pass', async () => {
    const { result } = await runToEnd(config({ ...ASK_TARGET, answer: { method: 'Wrong', with: '{message}' } }));
    expect(result.outcome.kind).toBe('finished');
    expect(result.totals).toMatchObject({ sent: PLANNED, received: 0 });
    expect(result.fates).toMatchObject({ planned: PLANNED, lost: PLANNED });
    expect(result.fates.notSent.writeFailed ?? 0).toBe(0);
    expect(result.errorSamples).toEqual([expect.objectContaining({ kind: 'send', message: expect.stringContaining('GetMessage failed: An unexpected error occurred invoking \'GetMessage\' on the server. HubException: Client didn\'t provide a result. (the hub asked this connection a client method it does not answer: the profile answers Wrong;') })]);
    expect(result.verdict.status).toBe('fail');
  });

  it('an answer that never comes back is lost', async () => {
    // Connection 1 made no probe: its first 3 calls are the run's.
    const { result } = await runToEnd(config(ASK_CALLER), { deliveryDelayMs: 3, drop: (connection, n) => connection === 1 && n < 3 });
    expect(result.fates).toMatchObject({ planned: PLANNED, lost: 3 });
    expect(result.totals).toMatchObject({ sent: PLANNED, received: PLANNED - 3 });
  });
});
