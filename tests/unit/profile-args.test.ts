// --hub-profile <file>: read and checked before anything runs, every problem naming the file and
// the field; --scenario then names the plan only where the delivery has a choice.
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCliArgs, USAGE } from '../../cli/args.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'live-bench-profile-args-'));
const file = (name: string, text: string) => {
  const where = path.join(dir, name);
  writeFileSync(where, text);
  return where;
};
const errorsOf = (...args: string[]) => {
  const parsed = parseCliArgs(['--endpoint', 'http://h/chathub', ...args]);
  return parsed.ok === false ? parsed.errors : [];
};
const jwt = (claims: object) => `h.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.s`;

describe('--hub-profile', () => {
  it('reads the profile into the run configuration, on the default plan of its delivery', () => {
    const parsed = parseCliArgs(['--endpoint', 'http://h/chathub', '--hub-profile', 'profiles/chat-rooms.json', '--connections', '20']);
    expect(parsed.ok).toBe(true);
    if (parsed.ok !== true) return;
    expect(parsed.options.config).toMatchObject({ scenario: 'smallGroup', hubProfile: { name: 'chat rooms', deliver: 'group', join: { method: 'JoinRoom' } } });
    const big = parseCliArgs(['--endpoint', 'http://h/chathub', '--hub-profile', 'profiles/chat-rooms.json', '--scenario', 'bigGroup', '--connections', '20']);
    expect(big.ok === true && big.options.config.scenario).toBe('bigGroup');
  });

  it('names the file and the field of every problem', () => {
    expect(errorsOf('--hub-profile', path.join(dir, 'missing.json'))).toEqual([expect.stringMatching(/^--hub-profile .*missing\.json cannot be read \(no such file\)/)]);
    expect(errorsOf('--hub-profile', dir)).toEqual([expect.stringContaining('cannot be read (it is a folder)')]);
    const typo = file('typo.json', '{"name": "chat", "send": {"method": "SendMessage", "args": ["x", "{mesage}", "{message}"]}, "receive": {"method": "ReceiveMessage", "arg": 1}, "deliver": "all"}');
    expect(errorsOf('--hub-profile', typo)).toEqual([`--hub-profile ${typo}: send.args[1]: "{mesage}" is not a placeholder; use {message}, {connection}, {group}, {target}, {user}, {time}, {stream}, {users}, {groups}, {excluded}, or {env:NAME} for a value from the runner's environment.`]);
    const broken = file('broken.json', '{\n  "name": "chat"\n  "deliver": "all"\n}');
    expect(errorsOf('--hub-profile', broken)).toEqual([`--hub-profile ${broken}: The profile is not valid JSON at line 3, column 3: expected ',' or '}' after the property value.`]);
  });

  it('refuses a plan that does not fit the delivery, and other options are still checked', () => {
    expect(errorsOf('--hub-profile', 'profiles/chat-all.json', '--scenario', 'echo')).toEqual([expect.stringContaining('Scenario echo does not fit the profile "chat: SendMessage to all": deliver "all" runs as broadcast')]);
    const errors = errorsOf('--hub-profile', path.join(dir, 'missing.json'), '--connections', '0');
    expect(errors).toHaveLength(2);
    expect(errors[1]).toMatch(/^Connections must be/);
  });

  it('{user}: refused without a token naming a user, accepted with one', () => {
    expect(errorsOf('--hub-profile', 'profiles/chat-authorized.json')).toEqual([expect.stringMatching(/^--hub-profile profiles\/chat-authorized\.json: The profile "chat as the token's user" uses \{user\}.*but the run has no token/)]);
    const opaque = 'opaque-secret-token';
    const refused = errorsOf('--hub-profile', 'profiles/chat-authorized.json', '--access-token', opaque);
    expect(refused).toEqual([expect.stringContaining('1 of the 1 access tokens name no user')]);
    expect(refused.join(' ')).not.toContain(opaque);
    expect(errorsOf('--hub-profile', 'profiles/chat-authorized.json', '--access-token', jwt({ sub: 'ann' }))).toEqual([]);
  });

  it('is in --help, with what --scenario then means', () => {
    expect(USAGE).toContain('--hub-profile <file>');
    expect(USAGE).toMatch(/with --hub-profile, the plan its delivery runs on/);
  });
});
