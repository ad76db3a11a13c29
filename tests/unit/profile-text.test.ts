/**
 * The tool's text found wherever a hub puts it: at the start of a string, after a prefix, before
 * a suffix, inside an object by a path in either protocol's casing, inside a return value; another
 * run's text inside a string; a text the hub cut or changed counted as arrived and altered; and a
 * receive method called, never with this run's text where the profile reads it, named in seconds
 * with what the first call carried and where the text is instead.
 */
import { describe, expect, it } from 'vitest';
import { findPayloadHeader, locateText, PayloadBuilder, readPayloadHeader, textIntact, type FoundHeader } from '../../workers/engine/payload.ts';
import { ScenarioRunner } from '../../workers/engine/scenario-runner.ts';
import { WorkerStats } from '../../workers/engine/worker-stats.ts';
import type { PooledConnection } from '../../workers/engine/connection-pool.ts';
import type { Scenario } from '../../workers/scenarios/scenario.ts';
import { callSample, messageReader, SAMPLE_CHARS, type HubProfile } from '../../core/profiles/index.ts';
import { scrubSecrets } from '../../core/run-config/credentials.ts';
import { validateRunConfig, type RunConfig } from '../../core/run-config/config.ts';
import { runResult } from '../../core/result/document.ts';
import { TEXT_NOT_FOUND_AFTER_MS } from '../../core/execution/coordinator.ts';
import { CAUSE_LABELS, diagnose, docsAnchorOf, sideOf, textNotFoundSentence } from '../../core/diagnosis/index.ts';
import { evidenceOfRun } from '../../core/result/run-evidence.ts';
import { runSummary } from '../../core/report/run-summary.ts';
import { emptyErrorCounts, emptyTotals } from '../../core/execution/worker-messages.ts';
import { emptyFates } from '../../core/accounting/fates.ts';
import { createLatencyHistogram, summarizeLatency } from '../../core/latency/index.ts';
import { FakeTime } from '../support/fake-time.ts';
import { fakeRun } from '../support/fake-run.ts';

const RUN = 'k3f9x0qa';
const OTHER = 'zz99aa11';
const BYTES = 256;
const text = (sender: number, seq: number, runId = RUN, bytes = BYTES) => new PayloadBuilder(bytes, runId).build({ sender, seq, sendLagUs: 12, plannedUs: 1_764_000_000_000_000 });
const found = (): FoundHeader => ({ sender: -1, seq: -1, sendLagUs: -1, plannedUs: -1, at: -1, headEnd: -1 });

describe('finding the text in a string', () => {
  it('at offset 0, as sent: the same reading as the header reader, where it starts and ends', () => {
    const t = text(7, 42);
    const into = found();
    expect(findPayloadHeader(t, RUN, into)).toBe('ours');
    expect(into).toEqual({ sender: 7, seq: 42, sendLagUs: 12, plannedUs: 1_764_000_000_000_000, at: 0, headEnd: t.indexOf('|') + 1 });
    const numbers = { sender: 0, seq: 0, sendLagUs: 0, plannedUs: 0 };
    expect(readPayloadHeader(t, RUN, numbers)).toBe('ours');
    expect(numbers).toEqual({ sender: 7, seq: 42, sendLagUs: 12, plannedUs: 1_764_000_000_000_000 });
  });

  it('after a prefix, before a suffix, or both (aspnetcore Chat, UploadHub.Echo, EchoBack)', () => {
    const t = text(3, 9);
    for (const [wrapped, at] of [[`bench-3: ${t}`, 9], [`Echo: ${t}`, 6], [`${t} (echo from server)`, 0], [`From abc: ${t} (echo)`, 10]] as const) {
      const into = found();
      expect(findPayloadHeader(wrapped, RUN, into), wrapped.slice(0, 20)).toBe('ours');
      expect(into).toMatchObject({ sender: 3, seq: 9, at });
    }
  });

  it('past a false start: the run id and a colon that open no header, then the text', () => {
    const t = text(1, 2);
    const into = found();
    expect(findPayloadHeader(`${RUN}: said ${t}`, RUN, into)).toBe('ours');
    expect(into).toMatchObject({ sender: 1, seq: 2, at: RUN.length + 7 });
  });

  it('another run\'s text, at the start or inside a string, is foreign; a string of neither is none', () => {
    const into = found();
    expect(findPayloadHeader(text(4, 5, OTHER), RUN, into)).toBe('foreign');
    expect(into).toMatchObject({ sender: 4, seq: 5, at: 0 });
    expect(findPayloadHeader(`bench-4: ${text(4, 6, OTHER)}`, RUN, into)).toBe('foreign');
    expect(into).toMatchObject({ sender: 4, seq: 6, at: 9 });
    // This run's text is looked for first: it wins over another's in the same string (one that
    // starts with a text of the tool is that text's, read at once).
    expect(findPayloadHeader(`bench: ${text(1, 1, OTHER)} and ${text(2, 2)}`, RUN, into)).toBe('ours');
    expect(into).toMatchObject({ sender: 2, seq: 2 });
    for (const none of ['welcome', 'bench-3: hello: how are you', `${RUN}:`, 'a:b:c:d|', 42, null, undefined, { message: text(1, 1) }]) {
      expect(findPayloadHeader(none, RUN, found()), String(none)).toBe('none');
    }
  });
});

describe('a text the hub cut or changed (altered)', () => {
  const intact = (payload: string, bytes = BYTES) => {
    const into = found();
    expect(findPayloadHeader(payload, RUN, into)).toBe('ours');
    return textIntact(payload, into, bytes);
  };

  it('as sent, or wrapped in the hub\'s words, is intact', () => {
    const t = text(3, 9);
    expect(t).toHaveLength(BYTES);
    for (const payload of [t, `bench-3: ${t}`, `${t} (echo from server)`, `Echo: ${t}!`]) expect(intact(payload), payload.slice(0, 12)).toBe(true);
  });

  it('cut (SendTruncated: 10 characters less), lengthened, or with other characters is altered', () => {
    const t = text(3, 9);
    expect(intact(t.slice(0, -10))).toBe(false);
    expect(intact(`${t.slice(0, -10)} (echo from server)`)).toBe(false);
    expect(intact(`${t}xxxx`)).toBe(false);
    const bar = t.indexOf('|') + 1;
    expect(intact(`${t.slice(0, bar)}${t.slice(bar).toUpperCase()}`)).toBe(false);
    expect(intact(`${t.slice(0, bar)}${'y'.repeat(BYTES - bar)}`)).toBe(false);
    // A character changed at the padding's middle (one of the points read).
    const middle = bar + 9 * Math.floor((BYTES - bar) / 17);
    expect(intact(`${t.slice(0, middle)}-${t.slice(middle + 1)}`)).toBe(false);
  });

  it('a text that is all header (a size smaller than it) is intact unless padding follows it', () => {
    const t = text(3, 9, RUN, 10);
    expect(t.endsWith('|')).toBe(true);
    expect(intact(t, 10)).toBe(true);
    expect(intact(`${t} (echo)`, 10)).toBe(true);
    expect(intact(`${t}x`, 10)).toBe(false);
  });
});

describe('reading the place a profile names', () => {
  it('an object\'s member in either protocol\'s casing (JSON message, MessagePack Message), the name as written first', () => {
    const read = messageReader('0.message');
    expect(read([{ user: 'ann', message: 'json' }])).toBe('json');
    expect(read([{ User: 'ann', Message: 'msgpack' }])).toBe('msgpack');
    expect(read([{ User: 'ann', Message: 'again' }])).toBe('again');
    expect(read([{ MESSAGE: 'upper', message: 'exact' }])).toBe('exact');
    expect(read([{ user: 'ann' }])).toBeUndefined();
    expect(read(['plain'])).toBeUndefined();
    expect(messageReader('1.Text.Body')(['x', { text: { body: 'deep' } }])).toBe('deep');
  });

  it('where this run\'s text is in a call, for naming a wrong place: an argument, or a path as receive.arg takes it', () => {
    const t = text(1, 1);
    expect(locateText(['bench-3', t], RUN)).toBe(1);
    expect(locateText([{ user: 'bench-3', message: `Echo: ${t}` }], RUN)).toBe('0.message');
    expect(locateText([1_764_000_000_000_000, { Payload: { Items: ['a', t] } }], RUN)).toBe('1.Payload.Items.1');
    expect(locateText(['bench-3', text(1, 1, OTHER)], RUN)).toBeNull();
    expect(locateText([], RUN)).toBeNull();
  });

  it('what a call carried, quoted: at most 40 characters, the run\'s secrets and key-like words hidden', () => {
    expect(callSample('bench-3: hello', (t) => t)).toBe('bench-3: hello');
    const long = callSample(`bench-3: ${text(1, 1)}`, (t) => t);
    expect(long).toHaveLength(SAMPLE_CHARS);
    expect(long.endsWith('…')).toBe(true);
    expect(callSample({ user: 'ann', n: 1 }, (t) => t)).toBe('{"user":"ann","n":1}');
    expect(callSample(undefined, (t) => t)).toBe('undefined');
    const token = 'sekret-token-of-the-run-1234';
    expect(callSample(`key ${token}`, (t) => scrubSecrets(t, { accessTokens: [token], headers: [], query: [] }))).toBe('key [hidden]');
    expect(callSample('room Zx81kQ2mP9vLr4TbN7aWc3Yd', (t) => t)).toBe('room [hidden]');
  });
});

/** One connection's receive path through the engine's own ScenarioRunner, on a fake clock. */
function receiver(profile: HubProfile, messageBytes = BYTES) {
  const time = new FakeTime();
  const stats = new WorkerStats();
  stats.startRun(time.nowUs());
  const receive = profile.receive!;
  const scenario = { profile, builtIn: false, receive: { method: receive.method, read: messageReader(receive.arg) }, prepare: async () => [], probe: () => [], sendSpec: () => null } as unknown as Scenario;
  let handler: (...args: unknown[]) => void = () => {};
  const connection = { on: (_method: string, h: (...args: unknown[]) => void) => (handler = h) };
  const pooled = { index: 0, connection, state: 'open' } as unknown as PooledConnection;
  const runner = new ScenarioRunner({ clock: time, timers: time, stats, messageBytes, sendIntervalMs: 1_000, totalConnections: 1, warmupSec: 0, runId: RUN, sendersHeardBy: () => 4 } as never, scenario);
  runner.listen(pooled);
  const go = (atUs: number) => runner.start([], { type: 'go', sendStartUs: atUs, sendEndUs: atUs + 10_000_000, warmupEndUs: atUs, absentReceivers: 0, absentMembers: [], targets: [] });
  return { time, stats, call: (...args: unknown[]) => handler(...args), go };
}

const CHAT: HubProfile = { name: 'chat', send: { method: 'Send', args: ['bench-{connection}', '{message}'] }, receive: { method: 'Send', arg: 0 }, deliver: 'all' };

describe('the receive path', () => {
  it('a wrapped text arrives, not altered; a cut one arrives altered; every call is counted', () => {
    const { stats, call } = receiver(CHAT);
    call(`bench-0: ${text(0, 0)}`);
    call(`${text(1, 0)} (echo from server)`);
    call(text(2, 0).slice(0, -10));
    call(`bench-2: ${text(2, 1).slice(0, -10)}`);
    expect(stats.totals).toMatchObject({ received: 4, altered: 2, unsolicited: 0, receiveCalls: 4 });
    expect(stats.textless).toBeNull();
  });

  it('an object message in either casing through one profile', () => {
    const { stats, call } = receiver({ ...CHAT, receive: { method: 'ReceiveMessage', arg: '0.message' } });
    call({ user: 'bench-0', message: text(0, 0) });
    call({ User: 'bench-1', Message: text(1, 0) });
    expect(stats.totals).toMatchObject({ received: 2, altered: 0, unsolicited: 0 });
  });

  it('calls without the text where the profile reads it: what the first carried (the first while sending) and where the text is', () => {
    const { stats, call, go, time } = receiver({ ...CHAT, receive: { method: 'Send', arg: 0 } });
    call('server', 'welcome');
    expect(stats.textless).toEqual({ calls: 1, whileSending: 0, sample: 'server', foundAt: null });
    go(time.nowUs());
    call('bench-3', text(3, 0));
    call('bench-4', text(4, 0));
    expect(stats.textless).toEqual({ calls: 3, whileSending: 2, sample: 'bench-3', foundAt: 1 });
    expect(stats.totals).toMatchObject({ received: 0, unsolicited: 3, receiveCalls: 3 });
  });
});

describe('the mismatch named', () => {
  it('in words: the calls, the place, what the first carried, and where the text is', () => {
    expect(textNotFoundSentence({ method: 'ReceiveMessage', calls: 411, place: 0, sample: 'bench-3', foundAt: 1 }))
      .toBe('ReceiveMessage was called 411 times, never with this run\'s text in argument 0; the first call carried "bench-3"; it is in argument 1: set receive.arg to 1.');
    expect(textNotFoundSentence({ method: 'ReceiveMessage', calls: 1, place: '0.text', sample: '{"user":"ann"}', foundAt: '0.message' }))
      .toBe('ReceiveMessage was called 1 time, never with this run\'s text at 0.text; the first call carried "{"user":"ann"}"; it is at 0.message: set receive.arg to "0.message".');
    expect(textNotFoundSentence({ method: 'Send', calls: 12, place: 1, sample: 'joined', foundAt: null }))
      .toBe('Send was called 12 times, never with this run\'s text in argument 1; the first call carried "joined".');
    expect(sideOf('textNotFound')).toBe('setup');
    expect(docsAnchorOf('textNotFound')).toBe('docs/diagnosis.md#text-not-found');
    expect(CAUSE_LABELS.textNotFound).toMatch(/^set-up: /);
  });

  function config(hubProfile: HubProfile, overrides: Partial<RunConfig> = {}): RunConfig {
    const result = validateRunConfig({ endpointUrl: 'http://fake/somehub', sendIntervalMs: 100, durationSec: 60, connections: 4, workers: 2, hubProfile, ...overrides });
    if (!result.ok) throw new Error(result.errors.join('\n'));
    return result.config;
  }
  // The fake hub delivers Echo(ts, payload) to the caller as Measure(ts, payload).
  const SELF: HubProfile = { name: 'echo on Measure', send: { method: 'Echo', args: ['{time}', '{message}'] }, receive: { method: 'Measure', arg: 1 }, deliver: 'self' };

  it('a profile reading the wrong argument fails in seconds, not after its 60 s, naming the argument the text is in', async () => {
    const run = fakeRun(config({ ...SELF, receive: { method: 'Measure', arg: 0 } }), { deliveryDelayMs: 3 });
    run.coordinator.start();
    await run.time.advanceByMs(5_000);
    expect(run.coordinator.phase).toBe('done');
    const result = runResult(run.coordinator, new Date(0), 'test');
    expect(result.outcome).toMatchObject({ kind: 'failed', code: 'textNotFound', textNotFound: { method: 'Measure', place: 0, foundAt: 1 } });
    const { calls, sample } = result.outcome.textNotFound!;
    // Argument 0 is the planned time, a number: quoted as it is.
    expect(sample).toMatch(/^\d{16}$/);
    expect(calls).toBe(result.totals.receiveCalls);
    expect(result.outcome.reason).toBe(`Measure was called ${calls} times, never with this run's text in argument 0; the first call carried "${sample}"; it is in argument 1: set receive.arg to 1.`);
    const diagnosis = diagnose(evidenceOfRun(result));
    expect(diagnosis).toMatchObject({ cause: 'textNotFound', side: 'setup', sentence: result.outcome.reason, advice: 'Set receive.arg to 1 in the profile and run again.' });
    expect(result.verdict.status).toBe('fail');
    run.coordinator.terminate();
  });

  it('calls that never carry the text anywhere, keeping pace with the sends: named once sending has gone on for its seconds', async () => {
    const run = fakeRun(config({ ...SELF, receive: { method: 'Notice', arg: 0 } }, { workers: 1 }), { deliveryDelayMs: 3 });
    run.coordinator.start();
    let doneAtMs = -1;
    for (let ms = 0; ms < 10_000 && doneAtMs < 0; ms += 100) {
      await run.time.advanceByMs(100);
      for (const connection of run.hub.connections) if (connection.isOpen) connection.call('Notice', 'someone joined the room');
      if (run.coordinator.phase === 'done') doneAtMs = ms;
    }
    expect(doneAtMs).toBeGreaterThan(TEXT_NOT_FOUND_AFTER_MS);
    expect(doneAtMs).toBeLessThan(TEXT_NOT_FOUND_AFTER_MS + 2_500);
    const result = runResult(run.coordinator, new Date(0), 'test');
    expect(result.outcome).toMatchObject({ kind: 'failed', code: 'textNotFound', textNotFound: { method: 'Notice', place: 0, sample: 'someone joined the room', foundAt: null } });
    expect(diagnose(evidenceOfRun(result)).advice).toMatch(/^Compare what the hub sends on it/);
    run.coordinator.terminate();
  });

  it('a few lines of another client beside this run\'s messages, or welcome messages before "go", are no mismatch', async () => {
    const run = fakeRun(config({ ...SELF, receive: { method: 'Measure', arg: 1 } }, { durationSec: 1, workers: 1 }), { deliveryDelayMs: 3 });
    run.coordinator.start();
    await run.time.advanceByMs(100);
    for (const connection of run.hub.connections) connection.call('Measure', 'server', 'welcome');
    await run.time.advanceByMs(800);
    run.hub.connections[0]!.call('Measure', 'ann', 'hello');
    await run.time.advanceByMs(30_000);
    const result = runResult(run.coordinator, new Date(0), 'test');
    expect(result.outcome.kind).toBe('finished');
    expect(result.totals).toMatchObject({ received: 40, unsolicited: 5, receiveCalls: 45 + 1 });
    // A hub that greets and then delivers nothing is no mismatch either: the loss stays the hub's to explain.
    const silent = fakeRun(config({ ...SELF, receive: { method: 'Measure', arg: 1 } }, { durationSec: 1, workers: 1 }), { deliveryDelayMs: 3, drop: () => true });
    silent.coordinator.start();
    await silent.time.advanceByMs(100);
    for (const connection of silent.hub.connections) connection.call('Measure', 'server', 'welcome');
    await silent.time.advanceByMs(30_000);
    expect(runResult(silent.coordinator, new Date(0), 'test').outcome.code).not.toBe('textNotFound');
  });
});

describe('the altered figure in the summary', () => {
  it('said beside the messages, never silently', () => {
    const input = { fates: emptyFates(), latency: summarizeLatency(createLatencyHistogram()), uncorrectedLatency: summarizeLatency(createLatencyHistogram()), connectTimes: summarizeLatency(createLatencyHistogram()), errorCounts: emptyErrorCounts(), errorSamples: [], schedule: { kept: true, lagMs: 0, missedSlots: 0, missedShare: 0, reasons: [] } };
    const summary = runSummary({ ...input, totals: { ...emptyTotals(), sent: 10, received: 10, altered: 10 } });
    expect(summary.altered).toBe('altered 10 (arrived, but the hub cut or changed the text: it is not the size sent)');
    expect(summary.messageFacts).toEqual(['sent 10', 'received 10', 'duplicated 0', summary.altered]);
    expect(runSummary({ ...input, totals: { ...emptyTotals(), sent: 10, received: 10 } }).altered).toBeNull();
  });
});
