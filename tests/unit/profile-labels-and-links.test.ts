/** A run of a hub profile names it wherever its scenario is named, and a link carries the
 *  profile while it fits and says so when it does not. */
import { describe, expect, it } from 'vitest';
import { configToQuery, leftOutProfileNote, linkProfileNote, MAX_LINK_PROFILE_CHARS, queryToFields, queryToProfile } from '../../core/run-config/config-url.ts';
import { validateRunConfig } from '../../core/run-config/config.ts';
import { defaultRunName, profileLabel, scenarioLabel, scenarioPhrase } from '../../core/run-config/display-names.ts';
import type { HubProfile } from '../../core/profiles/index.ts';
import { sharedLoad } from '../../core/compare/comparison.ts';
import type { RunResult } from '../../core/result/result.ts';

const chatRoom: HubProfile = {
  name: 'chat room',
  join: { method: 'JoinRoom', args: ['{group}'] },
  send: { method: 'SendToRoom', args: ['{group}', 'bench-{connection}', '{message}'] },
  receive: { method: 'ReceiveMessage', arg: 1 },
  deliver: 'group',
};

function valid(input: Record<string, unknown>) {
  const result = validateRunConfig({ endpointUrl: 'http://127.0.0.1:5180/chat', ...input });
  if (!result.ok) throw new Error(result.errors.join('\n'));
  return result.config;
}

describe('the name of a profile run', () => {
  it('says the profile, its send and receive methods and who receives', () => {
    expect(profileLabel(chatRoom)).toBe('chat room profile: SendToRoom → ReceiveMessage, to the group');
    expect(profileLabel({ name: 'lookup profile', send: { method: 'Lookup', args: ['{message}'] }, deliver: 'return' })).toBe('lookup profile: Lookup → its return value');
    expect(profileLabel({ ...chatRoom, name: 'chat', join: undefined, send: { method: 'SendMessage', args: ['u', '{message}'] }, deliver: 'others' })).toBe('chat profile: SendMessage → ReceiveMessage, to the others');
  });

  it('adds the shape only where the delivery runs on two, and keeps method names in their case in sentences', () => {
    const big = valid({ hubProfile: chatRoom, scenario: 'bigGroup', connections: 20 });
    expect(scenarioLabel(big)).toBe('chat room profile: SendToRoom → ReceiveMessage, to the group (send to big groups)');
    expect(scenarioPhrase(big)).toContain('SendToRoom');
    expect(defaultRunName(big)).toBe('chat room profile: SendToRoom → ReceiveMessage, to the group (send to big groups) · WebSockets + JSON · 20 connections');
    const plain = valid({ scenario: 'bigGroup', connections: 20 });
    expect(scenarioLabel(plain)).toBe('Send to big groups');
    expect(scenarioPhrase(plain)).toBe('send to big groups');
  });
});

describe('a comparison of profile runs', () => {
  it('names the profile as the shared load, and tells two profiles apart even under one name', () => {
    const config = valid({ hubProfile: chatRoom, connections: 20 });
    const run = (c: typeof config) => ({ config: c }) as RunResult;
    expect(sharedLoad([run(config), run(config)])).toBe('chat room profile: SendToRoom → ReceiveMessage, to the group (send to small groups) · 20 connections · 2,048 B every 1,000 ms · 30 s');
    const otherRoom = valid({ hubProfile: { ...chatRoom, send: { ...chatRoom.send, args: ['{group}', 'someone', '{message}'] } }, connections: 20 });
    expect(sharedLoad([run(config), run(otherRoom)])).toBeNull();
    expect(sharedLoad([run(config), run(valid({ scenario: 'smallGroup', connections: 20 }))])).toBeNull();
  });
});

describe('a hub profile in a link', () => {
  it('travels as its JSON and validates back to the same configuration, shape included', () => {
    const config = valid({ hubProfile: JSON.stringify(chatRoom), scenario: 'bigGroup', connections: 20 });
    const query = `?${configToQuery(config)}`;
    const linked = queryToProfile(query);
    expect(linked).toEqual({ text: JSON.stringify(chatRoom) });
    const back = validateRunConfig({ ...queryToFields(query), hubProfile: linked && 'text' in linked ? linked.text : '' });
    expect(back).toEqual({ ok: true, config });
    expect(linkProfileNote(config)).toBeNull();
  });

  it('when too long, is named as left out, and both ends are told: never dropped in silence', () => {
    const long: HubProfile = { ...chatRoom, name: 'padded', send: { method: 'SendToRoom', args: ['{group}', 'x'.repeat(MAX_LINK_PROFILE_CHARS), '{message}'] } };
    const config = valid({ hubProfile: long, connections: 20 });
    const query = `?${configToQuery(config)}`;
    expect(query).not.toContain('xxxx');
    expect(queryToProfile(query)).toEqual({ leftOut: 'padded' });
    expect(linkProfileNote(config)).toMatch(/^This page's link leaves the hub profile "padded" out: it takes 1,[0-9]{3} characters in a link, more than the 1,500 a link can safely carry\. Share the profile's JSON file/);
    expect(leftOutProfileNote('padded')).toBe('The link\'s run drives the hub profile "padded", too long for a link to carry: paste or load that profile below.');
  });

  it('a run of the bundled contract carries none', () => {
    expect(queryToProfile(`?${configToQuery(valid({ connections: 20 }))}`)).toBeNull();
  });
});
