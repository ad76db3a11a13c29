// Hub profiles (core/profiles): every field and placeholder checked with errors that name the
// field, bad JSON placed by line and column, the built-in profiles, and what each delivery plans.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  absentPerSend, BUILT_IN_PROFILES, bindArgs, checkHubProfile, DELIVER_KINDS, defaultShape, jsonFault, messageReader, parseHubProfile,
  receptionsPerSend, shapeFits, shapeProblems, takesConnectionValues, tokenUser, userProblems, type HubProfile,
} from '../../core/profiles/index.ts';
import { validateRunConfig } from '../../core/run-config/index.ts';

const CHAT_ROOM = {
  name: 'chat room',
  join: { method: 'JoinRoom', args: ['{group}'] },
  send: { method: 'SendToRoom', args: ['{group}', 'bench-{connection}', '{message}'] },
  receive: { method: 'ReceiveMessage', arg: 1 },
  deliver: 'group',
};

const errorsOf = (value: unknown) => {
  const result = checkHubProfile(value);
  return result.ok ? [] : result.errors;
};
const withField = (patch: Record<string, unknown>) => ({ ...CHAT_ROOM, ...patch });

describe('parseHubProfile', () => {
  it('reads the issue\'s chat room profile as written', () => {
    const result = parseHubProfile(JSON.stringify(CHAT_ROOM, null, 2));
    expect(result).toEqual({ ok: true, profile: CHAT_ROOM });
  });

  it('places bad JSON by line and column and says what was expected', () => {
    const result = parseHubProfile('{\n  "name": "chat",\n  "deliver": "all",\n}');
    expect(result.ok).toBe(false);
    expect(!result.ok && result.errors).toEqual(['The profile is not valid JSON at line 4, column 1: expected a property name in double quotes.']);
    expect(jsonFault('{"a": tru}')).toEqual({ line: 1, column: 7, expected: expect.stringContaining('a value') });
    expect(jsonFault('{"a": 1} x')).toMatchObject({ line: 1, column: 10, expected: 'the end of the document' });
    expect(jsonFault('{"a": "x\ny"}')).toMatchObject({ line: 1, column: 9 });
    expect(jsonFault('[1, 2')).toMatchObject({ expected: "',' or ']' after the array item" });
    expect(jsonFault('{"a": 1, "b": [true, null, -1.5e3, "\\u00e9"]}')).toBeNull();
  });

  it('refuses an empty document and a document far too long', () => {
    expect(parseHubProfile('  ')).toMatchObject({ ok: false, errors: [expect.stringContaining('empty')] });
    expect(parseHubProfile(`{"name": "${'x'.repeat(20_000)}"}`)).toMatchObject({ ok: false, errors: [expect.stringContaining("20,012 characters long")] });
  });
});

describe('checkHubProfile: every field', () => {
  it('refuses what is not an object', () => {
    expect(errorsOf([])).toEqual([expect.stringContaining('must be a JSON object')]);
    expect(errorsOf('chat')).toEqual([expect.stringContaining('but is a string')]);
  });

  it('names unknown fields', () => {
    expect(errorsOf(withField({ recieve: {} }))).toEqual(['recieve: not a profile field; the fields are name, join, leave, send, receive, deliver, answer.']);
    expect(errorsOf(withField({ send: { method: 'SendToRoom', args: ['{group}', '{message}'], arg: 1 } }))).toEqual([expect.stringMatching(/^send\.arg: not a field/)]);
  });

  it('name: required, trimmed, bounded', () => {
    expect(errorsOf(withField({ name: '' }))).toEqual([expect.stringMatching(/^name: required/)]);
    expect(errorsOf(withField({ name: 3 }))).toEqual([expect.stringMatching(/^name: required.*but is 3/)]);
    expect(errorsOf(withField({ name: 'x'.repeat(81) }))).toEqual(['name: 81 characters; at most 80.']);
    expect(checkHubProfile(withField({ name: '  chat  ' }))).toMatchObject({ ok: true, profile: { name: 'chat' } });
  });

  it('deliver: one of the kinds', () => {
    expect(errorsOf(withField({ deliver: 'everyone' }))).toEqual([`deliver: must be one of ${DELIVER_KINDS.join(', ')}, but is "everyone".`]);
    expect(errorsOf(withField({ deliver: undefined }))[0]).toMatch(/^deliver: .*but is missing/);
  });

  it('send: required, with a method name of C#\'s shape and at most 16 arguments', () => {
    expect(errorsOf(withField({ send: undefined }))).toEqual([expect.stringMatching(/^send: must be an object/)]);
    expect(errorsOf(withField({ send: { args: ['{message}'] } }))).toEqual([expect.stringMatching(/^send\.method: required/)]);
    expect(errorsOf(withField({ send: { method: 'Send To', args: ['{message}'] } }))).toEqual([expect.stringMatching(/^send\.method: "Send To" is not a method name/)]);
    expect(errorsOf(withField({ send: { method: 'M'.repeat(129), args: ['{message}'] } }))).toEqual([expect.stringMatching(/^send\.method: 129 characters/)]);
    expect(errorsOf(withField({ send: { method: 'Send', args: '{message}' } }))).toEqual([expect.stringMatching(/^send\.args: must be an array/)]);
    const many = Array.from({ length: 17 }, (_, i) => (i === 0 ? '{message}' : i));
    expect(errorsOf(withField({ send: { method: 'Send', args: many } }))).toEqual(['send.args: 17 arguments; at most 16.']);
  });

  it('join and leave: optional hub calls, args default to none; join required for group deliveries', () => {
    const { join: _join, ...noJoin } = CHAT_ROOM;
    expect(errorsOf(noJoin)).toEqual([expect.stringMatching(/^join: required with deliver "group"/)]);
    expect(checkHubProfile(withField({ leave: { method: 'LeaveRoom' } }))).toMatchObject({ ok: true, profile: { leave: { method: 'LeaveRoom', args: [] } } });
    expect(errorsOf(withField({ leave: 'LeaveRoom' }))).toEqual([expect.stringMatching(/^leave: must be an object/)]);
    expect(errorsOf(withField({ join: { method: '1Join', args: [] } }))).toEqual([expect.stringMatching(/^join\.method: "1Join" is not a method name/)]);
  });

  it('receive: a method and an index or a path into an object argument', () => {
    expect(errorsOf(withField({ receive: undefined }))).toEqual([expect.stringMatching(/^receive: required/)]);
    expect(errorsOf(withField({ receive: { method: 'ReceiveMessage', arg: -1 } }))).toEqual([expect.stringMatching(/^receive\.arg: .*but is -1/)]);
    expect(errorsOf(withField({ receive: { method: 'ReceiveMessage', arg: 'text' } }))).toEqual([expect.stringMatching(/^receive\.arg: .*but is "text"/)]);
    expect(errorsOf(withField({ receive: { method: 'ReceiveMessage', arg: 16 } }))).toHaveLength(1);
    expect(errorsOf(withField({ receive: { method: 'Receive Message', arg: 1 } }))).toEqual([expect.stringMatching(/^receive\.method:/)]);
    expect(errorsOf(withField({ receive: { method: 'ReceiveMessage', arg: 1, from: 0 } }))).toEqual([expect.stringMatching(/^receive\.from: not a field/)]);
    expect(checkHubProfile(withField({ receive: { method: 'ReceiveMessage', arg: '1.text' } })).ok).toBe(true);
  });

  it('receive is the return value with deliver "return", and must then be absent', () => {
    const echoBack = { name: 'echo back', send: { method: 'Echo', args: ['{message}'] }, deliver: 'return' };
    expect(checkHubProfile(echoBack)).toEqual({ ok: true, profile: echoBack });
    expect(errorsOf({ ...echoBack, receive: { method: 'X', arg: 0 } })).toEqual([expect.stringMatching(/^receive: not used with deliver "return"/)]);
  });

  it('reports every problem at once', () => {
    expect(errorsOf({ name: '', send: { method: 'X', args: [] }, deliver: 'nobody' })).toHaveLength(4);
  });
});

describe('checkHubProfile: every placeholder', () => {
  const send = (args: unknown[], deliver = 'group') => errorsOf(withField({ send: { method: 'Send', args }, deliver }));

  it('names a misspelt placeholder and lists the real ones', () => {
    expect(send(['{group}', 'bench', '{mesage}', '{message}'])).toEqual(['send.args[2]: "{mesage}" is not a placeholder; use {message}, {connection}, {group}, {target}, {user}, {time}, {stream}, {users}, {groups}, {excluded}, or {env:NAME} for a value from the runner\'s environment.']);
    expect(send(['{group}', { user: '{usr}', text: '{message}' }])).toEqual([expect.stringMatching(/^send\.args\[1\]\.user: "\{usr\}" is not a placeholder/)]);
  });

  it('{message}: exactly once in send.args, as a whole argument, nowhere else', () => {
    expect(send(['{group}'])).toEqual([expect.stringMatching(/^send\.args: \{message\} is missing/)]);
    expect(send(['{group}', '{message}', ['{message}']])).toEqual([expect.stringMatching(/^send\.args: \{message\} appears 2 times/)]);
    expect(send(['{group}', 'says {message}'])).toEqual(expect.arrayContaining([expect.stringMatching(/^send\.args\[1\]: "says \{message\}": \{message\} must be the whole argument/)]));
    expect(errorsOf(withField({ join: { method: 'JoinRoom', args: ['{group}', '{message}'] } }))).toEqual([expect.stringMatching(/^join\.args\[1\]: \{message\} goes in send\.args only/)]);
    expect(checkHubProfile(withField({ send: { method: 'Send', args: ['{group}', { text: '{message}' }] } })).ok).toBe(true);
  });

  it('{group}: only with group deliveries', () => {
    expect(send(['{group}', '{message}'], 'all')).toEqual([
      expect.stringMatching(/^send\.args\[0\]: \{group\} is only known with deliver "group", "groupOthers", "groups" or "groupExcept" \(deliver is "all"\)/),
      expect.stringMatching(/^join\.args\[0\]: \{group\}/),
    ]);
    expect(errorsOf({ name: 'x', join: { method: 'Join', args: ['{group}'] }, send: { method: 'Send', args: ['{message}'] }, receive: { method: 'R', arg: 0 }, deliver: 'others' }))
      .toEqual([expect.stringMatching(/^join\.args\[0\]: \{group\}/)]);
    expect(send(['{group}', '{message}'], 'groupOthers')).toEqual([]);
  });

  it('{target}: only in send.args with deliver "target"', () => {
    const target = (args: unknown[], deliver: string) => errorsOf({ name: 'dm', send: { method: 'SendTo', args }, receive: { method: 'R', arg: 0 }, deliver });
    expect(target(['{target}', '{message}'], 'target')).toEqual([]);
    expect(target(['{target}', '{message}'], 'self')).toEqual([expect.stringMatching(/^send\.args\[0\]: \{target\} is only known in send\.args with deliver "target"/)]);
    expect(errorsOf({ name: 'dm', join: { method: 'J', args: ['{target}'] }, send: { method: 'SendTo', args: ['{target}', '{message}'] }, receive: { method: 'R', arg: 0 }, deliver: 'target' }))
      .toEqual([expect.stringMatching(/^join\.args\[0\]: \{target\}/)]);
  });

  it('{connection}, {user} and {time}: anywhere', () => {
    expect(send(['{group}', 'bench-{connection}', '{user}', '{time}', '{message}'])).toEqual([]);
    expect(errorsOf(withField({ join: { method: 'JoinRoom', args: ['{group}', '{user}', '{connection}'] } }))).toEqual([]);
  });

  it('{user}: checked against the run\'s tokens at run start', () => {
    const profile = checkHubProfile(withField({ send: { method: 'SendToRoom', args: ['{group}', '{user}', '{message}'] } }));
    expect(profile.ok).toBe(true);
    if (!profile.ok) return;
    const jwt = (claims: object) => `h.${btoa(JSON.stringify(claims)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_')}.s`;
    expect(userProblems(profile.profile, [])).toEqual([expect.stringContaining('uses {user}, the user named by the connection\'s access token, but the run has no token')]);
    expect(userProblems(profile.profile, [jwt({ sub: 'ann' }), 'opaque-token'])).toEqual([expect.stringContaining('1 of the 2 access tokens name no user')]);
    expect(userProblems(profile.profile, [jwt({ name: 'ann' })])).toEqual([]);
    expect(userProblems(BUILT_IN_PROFILES.echo, [])).toEqual([]);
    expect(userProblems(profile.profile, ['opaque-token'])[0]).not.toContain('opaque-token');
    expect(tokenUser(jwt({ unique_name: 'bob', sub: 'b-1' }))).toBe('bob');
    expect(tokenUser(jwt({ sub: 'b-1' }))).toBe('b-1');
    expect(tokenUser(jwt({ exp: 1 }))).toBeNull();
    expect(tokenUser(null)).toBeNull();
  });
});

describe('binding the templates', () => {
  it('fills the fixed placeholders once and the message and time per send', () => {
    const args = bindArgs({ method: 'SendToRoom', args: ['{group}', 'bench-{connection}', { by: '{user}', at: 't{time}' }, '{time}', '{message}', 7] }, { connection: 3, group: 'r1-group-0', target: null, user: 'ann' });
    expect(args(1_700_000_000_000_001, 'MSG')).toEqual(['r1-group-0', 'bench-3', { by: 'ann', at: 't1700000000000001' }, 1_700_000_000_000_001, 'MSG', 7]);
    expect(bindArgs({ method: 'S', args: ['{target}', '{message}'] }, { connection: 0, group: null, target: 'abc', user: null })(0, 'm')).toEqual(['abc', 'm']);
  });

  it('says whether a call takes a connection\'s values, so a call that takes none is bound once for all', () => {
    expect(takesConnectionValues({ method: 'Echo', args: ['{time}', '{message}'] })).toBe(false);
    expect(takesConnectionValues({ method: 'S', args: ['t{time}', 7, null, { at: ['{time}'], text: '{message}' }] })).toBe(false);
    for (const name of ['connection', 'group', 'target', 'user']) {
      expect(takesConnectionValues({ method: 'S', args: ['{message}', `x-{${name}}`] })).toBe(true);
      expect(takesConnectionValues({ method: 'S', args: [{ deep: [`{${name}}`] }] })).toBe(true);
    }
    // Each built-in's send: only those that name a group or a target take a connection's values.
    for (const profile of Object.values(BUILT_IN_PROFILES)) {
      expect(takesConnectionValues(profile.send)).toBe(JSON.stringify(profile.send.args).match(/\{(connection|group|target|user)\}/) !== null);
    }
  });

  it('reads the message from an index or a path', () => {
    expect(messageReader(1)(['ann', 'hello'])).toBe('hello');
    expect(messageReader('1.text')(['ann', { text: 'hello' }])).toBe('hello');
    expect(messageReader('0.a.b')([{ a: { b: 'deep' } }])).toBe('deep');
    expect(messageReader('1.text')(['ann', 'plain'])).toBeUndefined();
    expect(messageReader(2)(['ann'])).toBeUndefined();
  });
});

describe('the built-in profiles', () => {
  it('are valid profiles of the bundled contract, each on its own shape', () => {
    for (const [shape, profile] of Object.entries(BUILT_IN_PROFILES)) {
      expect(checkHubProfile(profile), shape).toEqual({ ok: true, profile });
      expect(shapeFits(profile.deliver, shape)).toBe(true);
      expect(profile.receive).toEqual({ method: 'Measure', arg: 1 });
    }
    expect(BUILT_IN_PROFILES.smallGroup.send).toEqual({ method: 'GroupBroadcast', args: ['{group}', '{time}', '{message}'] });
    expect(BUILT_IN_PROFILES.sendToConnection.deliver).toBe('target');
  });
});

describe('what each delivery plans', () => {
  const counts = { connections: 20, groupMembers: 10, listedReceivers: 6 };

  it('receptions per send come from the configured counts', () => {
    const perKind = Object.fromEntries(DELIVER_KINDS.map((kind) => [kind, receptionsPerSend(kind, counts)]));
    expect(perKind).toEqual({ self: 1, return: 1, stream: 1, target: 1, all: 20, others: 19, group: 10, groupOthers: 9, groupExcept: 9, user: 6, users: 6, groups: 6 });
    expect(receptionsPerSend('others', { connections: 1, groupMembers: 0, listedReceivers: 0 })).toBe(0);
  });

  it('receptions owed to absent receivers leave the sender out when it is not a receiver', () => {
    const absent = { pool: 3, senderAbsent: true, targetAbsent: false };
    expect(absentPerSend('all', 20, absent)).toBe(3);
    expect(absentPerSend('others', 19, absent)).toBe(2);
    expect(absentPerSend('others', 19, { ...absent, senderAbsent: false })).toBe(3);
    expect(absentPerSend('groupOthers', 1, { pool: 5, senderAbsent: false, targetAbsent: false })).toBe(1);
    expect(absentPerSend('self', 1, absent)).toBe(0);
    expect(absentPerSend('target', 1, { ...absent, targetAbsent: true })).toBe(1);
  });

  it('each delivery runs on the shape that gives its senders, groups or targets', () => {
    const send = { method: 'Send', args: ['{message}'] };
    expect(DELIVER_KINDS.map((deliver) => defaultShape({ deliver, send }))).toEqual(
      ['echo', 'broadcast', 'broadcast', 'smallGroup', 'smallGroup', 'sendToConnection', 'echo', 'broadcast', 'broadcast', 'smallGroup', 'smallGroup', 'echo']);
    expect(shapeFits('group', 'bigGroup')).toBe(true);
    expect(shapeFits('all', 'echo')).toBe(false);
    const chat = checkHubProfile(CHAT_ROOM);
    expect(chat.ok && shapeProblems(chat.profile as HubProfile, 'broadcast')).toEqual([expect.stringContaining('deliver "group" runs as smallGroup or bigGroup')]);
  });
});

describe('a run configured with a profile', () => {
  const endpointUrl = 'http://127.0.0.1:5180/chathub';

  it('keeps the profile, read from its text or as an object, and runs it on the default shape of its delivery', () => {
    const fromText = validateRunConfig({ endpointUrl, hubProfile: JSON.stringify(CHAT_ROOM), connections: 20 });
    expect(fromText).toMatchObject({ ok: true, config: { scenario: 'smallGroup', hubProfile: CHAT_ROOM } });
    const fromObject = validateRunConfig({ endpointUrl, hubProfile: CHAT_ROOM, scenario: 'bigGroup', connections: 20 });
    expect(fromObject).toMatchObject({ ok: true, config: { scenario: 'bigGroup' } });
    expect(validateRunConfig({ endpointUrl })).toMatchObject({ ok: true, config: { scenario: 'echo', hubProfile: null } });
  });

  it('refuses a shape that does not fit its delivery, and a bad profile with the field named', () => {
    const misfit = validateRunConfig({ endpointUrl, hubProfile: CHAT_ROOM, scenario: 'echo' });
    expect(misfit).toMatchObject({ ok: false, errors: [expect.stringContaining('Scenario echo does not fit the profile "chat room"')] });
    const bad = validateRunConfig({ endpointUrl, hubProfile: '{"name": "x", "deliver": "all"' });
    expect(bad).toMatchObject({ ok: false, errors: [expect.stringMatching(/^Hub profile: The profile is not valid JSON at line 1, column 31: expected .,. or .}./)] });
  });
});

describe('the examples in profiles/', () => {
  const folder = new URL('../../profiles/', import.meta.url);
  const files = readdirSync(folder).filter((file) => file.endsWith('.json'));

  it('are valid profiles', () => {
    expect(files.length).toBeGreaterThanOrEqual(10);
    for (const file of files) expect(parseHubProfile(readFileSync(new URL(file, folder), 'utf8')), file).toMatchObject({ ok: true });
  });

  it('include the bundled contract\'s five scenarios, exactly as built in', () => {
    const bench = { 'bench-echo.json': 'echo', 'bench-broadcast.json': 'broadcast', 'bench-small-group.json': 'smallGroup', 'bench-big-group.json': 'bigGroup', 'bench-send-to-connection.json': 'sendToConnection' } as const;
    for (const [file, shape] of Object.entries(bench)) {
      expect(parseHubProfile(readFileSync(new URL(file, folder), 'utf8')), file).toEqual({ ok: true, profile: BUILT_IN_PROFILES[shape] });
    }
  });
});
