/**
 * Secrets in hub profiles: {env:NAME} read by the runner from its environment at start (a NAME
 * unset refused, naming NAME and never a value), the value handed to the engines with the run's
 * credentials and never kept (the configuration, its links and the document keep the
 * placeholder), error texts scrubbed of it; the page refuses {env:…} beside the field, having no
 * environment; a literal that looks like a key warned about, naming the field, never the value.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseCliArgs } from '../../cli/args.ts';
import { checkHubProfile, envNames, envPlaces, isSecretKey, looksLikeKey, missingEnv, pageEnvProblems, secretWarnings, type HubProfile } from '../../core/profiles/index.ts';
import { configToQuery, queryToProfile } from '../../core/run-config/config-url.ts';
import { credentialsSummary, scrubSecrets, type Credentials } from '../../core/run-config/credentials.ts';
import { validateRunConfig } from '../../core/run-config/config.ts';
import { RunCoordinator, type WorkerPort } from '../../core/execution/coordinator.ts';
import type { FromWorker } from '../../core/execution/worker-messages.ts';
import { BenchEngine } from '../../workers/engine/bench-engine.ts';
import type { ConnectionFactory } from '../../workers/engine/connection.ts';
import { ownHubInput, YOUR_HUB } from '../../src/lib/own-hub.ts';
import { classifyPlainly, fakeHub } from '../support/fake-connections.ts';
import { FakeTime } from '../support/fake-time.ts';

const ROOM_KEY = 'q8Zr-room-key-value-77';
/** A room whose join takes a key: the value must never be kept or printed. */
const KEYED: HubProfile = {
  name: 'keyed rooms',
  join: { method: 'JoinGroup', args: ['{group}', '{env:ROOM_KEY}'] },
  send: { method: 'GroupBroadcast', args: ['{group}', '{time}', '{message}'] },
  receive: { method: 'Measure', arg: 1 },
  deliver: 'group',
};

describe('{env:NAME} in a profile', () => {
  it('is read in any string of a call\'s arguments; a NAME a shell cannot name is refused', () => {
    expect(checkHubProfile(KEYED).ok).toBe(true);
    const inside = { ...KEYED, send: { method: 'GroupBroadcast', args: ['{group}', { auth: 'Bearer {env:API_TOKEN}' }, '{time}', '{message}'] } };
    expect(checkHubProfile(inside).ok).toBe(true);
    expect(envNames(inside)).toEqual(['ROOM_KEY', 'API_TOKEN']);
    expect(envPlaces(inside)).toEqual([{ field: 'join.args[1]', name: 'ROOM_KEY' }, { field: 'send.args[1].auth', name: 'API_TOKEN' }]);
    const bad = checkHubProfile({ ...KEYED, join: { method: 'JoinGroup', args: ['{group}', '{env:room-key}'] } });
    expect(bad.ok ? [] : bad.errors).toEqual([expect.stringMatching(/^join\.args\[1\]: "\{env:room-key\}" does not name an environment variable; write \{env:NAME\}/)]);
  });

  it('is refused in an answer, which the runner never fills: the field and the reason named', () => {
    const answered: HubProfile = { name: 'asked', send: { method: 'GetMessage', args: ['{target}'] }, deliver: 'return', answer: { method: 'GetMessage', with: { text: '{message}', key: '{env:ANSWER_KEY}' } } };
    const read = checkHubProfile(answered);
    expect(read.ok ? [] : read.errors).toEqual(['answer.with.key: "{env:ANSWER_KEY}": {env:NAME} is read for join, send and leave arguments only; an answer holds "{message}", the text the tool answers with, and literals.']);
  });

  it('missing: unset and empty told apart, each NAME once, where it is first named', () => {
    const twice = { ...KEYED, send: { method: 'GroupBroadcast', args: ['{group}', '{env:ROOM_KEY}', '{env:OTHER}', '{time}', '{message}'] } };
    expect(missingEnv(twice, { ROOM_KEY: '' })).toEqual([
      { place: { field: 'join.args[1]', name: 'ROOM_KEY' }, empty: true },
      { place: { field: 'send.args[2]', name: 'OTHER' }, empty: false },
    ]);
    expect(missingEnv(twice, { ROOM_KEY: 'x', OTHER: 'y' })).toEqual([]);
  });
});

describe('the runner reads {env:NAME} at start', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'live-bench-profile-secrets-'));
  const profileFile = path.join(dir, 'keyed.json');
  writeFileSync(profileFile, JSON.stringify(KEYED));
  const parse = () => parseCliArgs(['--endpoint', 'http://h/signalrbench', '--hub-profile', profileFile, '--connections', '4']);
  afterEach(() => {
    delete process.env.ROOM_KEY;
  });

  it('unset or empty: refused naming the file, the field and NAME, never a value', () => {
    const unset = parse();
    expect(unset.ok === false && unset.errors).toEqual([`--hub-profile ${profileFile}: join.args[1]: {env:ROOM_KEY} reads the environment variable ROOM_KEY, which is not set. Export it before starting the runner (ROOM_KEY=… live-bench …), or write the value in place of {env:ROOM_KEY} if it is no secret.`]);
    process.env.ROOM_KEY = '';
    const empty = parse();
    expect(empty.ok === false && empty.errors).toEqual([expect.stringContaining('ROOM_KEY, which is empty.')]);
  });

  it('set: the value goes with the credentials only; the configuration, its link and the summary keep the placeholder', () => {
    process.env.ROOM_KEY = ROOM_KEY;
    const parsed = parse();
    expect(parsed.ok).toBe(true);
    if (parsed.ok !== true) return;
    expect(parsed.options.credentials.profileEnv).toEqual([['ROOM_KEY', ROOM_KEY]]);
    expect(parsed.options.config.hubProfile?.join?.args).toEqual(['{group}', '{env:ROOM_KEY}']);
    expect(JSON.stringify(parsed.options.config)).not.toContain(ROOM_KEY);
    const link = configToQuery(parsed.options.config);
    expect(link).not.toContain(ROOM_KEY);
    const linked = queryToProfile(`?${link}`);
    expect(linked && 'text' in linked ? linked.text : '').toContain('{env:ROOM_KEY}');
    expect(credentialsSummary(parsed.options.credentials)).toBe('profile values from $ROOM_KEY');
    expect(parsed.options.warnings).toEqual([]);
  });

  it('a literal key in the profile: a warning naming the file and field, never the value; the run is not refused', () => {
    const literal = 'dGhpc0lzQVJlYWxseVNlY3JldEtleTEyMzQ1Njc4OQ';
    const keyFile = path.join(dir, 'literal.json');
    writeFileSync(keyFile, JSON.stringify({ ...KEYED, join: { method: 'JoinGroup', args: ['{group}', { roomKey: 'open sesame' }, literal] } }));
    const parsed = parseCliArgs(['--endpoint', 'http://h/signalrbench', '--hub-profile', keyFile, '--connections', '4']);
    expect(parsed.ok).toBe(true);
    if (parsed.ok !== true) return;
    expect(parsed.options.warnings).toEqual([
      expect.stringMatching(new RegExp(`^--hub-profile ${keyFile}: join\\.args\\[1\\]\\.roomKey is under "roomKey", a secret's name, .*write \\{env:NAME\\} there instead`)),
      expect.stringMatching(new RegExp(`^--hub-profile ${keyFile}: join\\.args\\[2\\] looks like a key \\(a long random text\\)`)),
    ]);
    expect(parsed.options.warnings.join(' ')).not.toContain(literal);
    expect(parsed.options.warnings.join(' ')).not.toContain('open sesame');
  });
});

describe('what looks like a secret', () => {
  it('a long random text (hex, base64, a JWT), not words, names or runs of one letter', () => {
    for (const key of ['9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08', 'dGhpc0lzQVJlYWxseVNlY3JldEtleTEyMzQ1Njc4OQ==', 'sk_live_51HqLyjWDarjtT1zdp7dcXaZ', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U']) {
      expect(looksLikeKey(key), key).toBe(true);
    }
    for (const plain of ['hello', 'a-long-but-ordinary-room-name', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 'ReceiveMessageFromTheServer', '2026-11-28T21:22:45.000Z', 'bench-{connection}']) {
      expect(looksLikeKey(plain), plain).toBe(false);
    }
  });

  it('a key named like a secret\'s place, by its last word', () => {
    for (const key of ['key', 'apiKey', 'api_key', 'APIKEY', 'roomPassword', 'secret', 'accessToken', 'x-api-key', 'pwd']) expect(isSecretKey(key), key).toBe(true);
    for (const key of ['monkey', 'keyboard', 'user', 'message', 'tokens_left', 'room']) expect(isSecretKey(key), key).toBe(false);
  });

  it('placeholders are no literal: {env:NAME} under "password" and "Bearer {env:TOKEN}" are what is asked for', () => {
    expect(secretWarnings({ send: { method: 'S', args: [{ password: '{env:PW}', token: 'Bearer {env:T}', user: '{user}' }, '{message}'] } })).toEqual([]);
    expect(secretWarnings({ send: { method: 'S', args: [{ password: 'hunter2' }, '{message}'] } })).toEqual([expect.stringMatching(/^send\.args\[0\]\.password is under "password"/)]);
  });
});

describe('the page has no environment', () => {
  it('refuses {env:NAME} beside the field and at Start, saying why and what to do', () => {
    expect(pageEnvProblems(KEYED)).toEqual([
      'join.args[1]: {env:ROOM_KEY} is read from the runner\'s environment, and a page has none. Run this profile with the runner (ROOM_KEY=… npx live-bench --hub-profile <file> …), which keeps only the placeholder; or, for a value that is no secret, write it in place of {env:ROOM_KEY}.',
    ]);
    const form = ownHubInput({ scenario: YOUR_HUB, hubProfile: JSON.stringify(KEYED), profileShape: '' });
    expect(form.refusals).toEqual([`Hub profile: ${pageEnvProblems(KEYED)[0]}`]);
    expect(ownHubInput({ scenario: YOUR_HUB, hubProfile: JSON.stringify({ ...KEYED, join: { method: 'JoinGroup', args: ['{group}'] } }), profileShape: '' }).refusals).toEqual([]);
  });

  it('refuses a delivery to users without a token naming users', () => {
    const toUsers = { name: 'to users', send: { method: 'SendToUsers', args: ['{users}', '{message}'] }, receive: { method: 'R', arg: 0 }, deliver: 'users' };
    expect(ownHubInput({ scenario: YOUR_HUB, hubProfile: JSON.stringify(toUsers), profileShape: '' }).refusals).toEqual([expect.stringMatching(/^Hub profile: The profile "to users" delivers "users", .*but the run has no token/)]);
  });
});

describe('error texts never carry a value', () => {
  it('scrubSecrets hides the profile\'s values as it hides tokens', () => {
    const credentials: Credentials = { accessTokens: [], headers: [], query: [], profileEnv: [['ROOM_KEY', ROOM_KEY]] };
    expect(scrubSecrets(`JoinGroup failed: wrong key ${ROOM_KEY} (${encodeURIComponent(ROOM_KEY)})`, credentials)).toBe('JoinGroup failed: wrong key [hidden] ([hidden])');
  });

  /** A run on the fake hub whose `failing`-th JoinGroup (1: the probe's) throws an error quoting the key it was given. */
  async function keyedRun(failing: number) {
    const config = validateRunConfig({ endpointUrl: 'http://fake/hub', scenario: 'smallGroup', connections: 4, workers: 1, durationSec: 1, sendIntervalMs: 500, warmupSec: 0, hubProfile: KEYED });
    if (!config.ok) throw new Error(config.errors.join());
    const time = new FakeTime();
    const hub = fakeHub(time, { deliveryDelayMs: 2 });
    const joinedWith: unknown[] = [];
    // A hub that refuses one connection's key, quoting it, as a careless hub does.
    const connect: ConnectionFactory = (options) => {
      const connection = hub.factory(options);
      const invoke = connection.invoke.bind(connection);
      connection.invoke = async (method, ...args) => {
        if (method === 'JoinGroup') {
          joinedWith.push(args[1]);
          // The probe's (the first) cannot bind: the run is refused; a later one is that connection's.
          if (joinedWith.length === failing) throw new Error(`${failing === 1 ? 'Failed to invoke \'JoinGroup\' due to an error on the server. ' : ''}HubException: the key ${String(args[1])} is not this room's`);
        }
        return invoke(method, ...args);
      };
      return connection;
    };
    let handler: (message: FromWorker) => void = () => {};
    const engine = new BenchEngine({ clock: time, timers: time, connect, classify: classifyPlainly, post: (m) => handler(m) });
    const port: WorkerPort = { post: (m) => engine.handle(m), onMessage: (h) => (handler = h), terminate: () => void engine.finish() };
    const coordinator = new RunCoordinator(config.config, [port], time, time, { credentials: { accessTokens: [], headers: [], query: [], profileEnv: [['ROOM_KEY', ROOM_KEY]] } });
    coordinator.start();
    await time.advanceByMs(20_000);
    expect(coordinator.phase).toBe('done');
    expect(joinedWith).toContain(ROOM_KEY);
    return coordinator;
  }

  it('a run: the hub gets the value; a join the hub refuses quoting it is counted with the value hidden', async () => {
    const coordinator = await keyedRun(2);
    const samples = coordinator.aggregator.errorSamples();
    expect(samples.map((s) => s.message).join('\n')).toContain('the key [hidden] is not this room\'s');
    expect(JSON.stringify(samples)).not.toContain(ROOM_KEY);
  });

  it('a run: the probe\'s refusal quoting the value fails the run with it hidden', async () => {
    const coordinator = await keyedRun(1);
    expect(coordinator.outcome).toMatchObject({ kind: 'failed', code: 'hubRefused' });
    expect(JSON.stringify(coordinator.outcome)).toContain('[hidden]');
    expect(JSON.stringify(coordinator.outcome)).not.toContain(ROOM_KEY);
  });
});
