/** The form's "Your hub" choice: the profile checked as it is typed beside the field, Start refused
 *  with the same sentences, the shape the profile allows, and the run configured with the profile. */
import { describe, expect, it } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';
import ConfigForm from '../../src/components/ConfigForm.svelte';
import { answerCheckedOptions } from '../support/happy-dom-select.ts';
import type { RunConfig } from '../../core/run-config/index.ts';

const chatRoom = {
  name: 'chat room',
  join: { method: 'JoinRoom', args: ['{group}'] },
  send: { method: 'SendToRoom', args: ['{group}', 'bench-{connection}', '{message}'] },
  receive: { method: 'ReceiveMessage', arg: 1 },
  deliver: 'group',
};

answerCheckedOptions();

function render() {
  history.replaceState(null, '', '/');
  const started: RunConfig[] = [];
  const target = document.createElement('div');
  document.body.append(target);
  const component = mount(ConfigForm, { target, props: { defaultEndpointUrl: 'http://127.0.0.1:5180/chat', running: false, onstart: (config: RunConfig) => started.push(config) } });
  flushSync();
  const find = <T extends HTMLElement = HTMLElement>(testId: string) => target.querySelector<T>(`[data-testid="${testId}"]`);
  const items = (testId: string) => [...(find(testId)?.querySelectorAll('li') ?? [])].map((li) => li.textContent ?? '');
  const choose = (select: HTMLSelectElement, value: string) => {
    select.value = value;
    select.dispatchEvent(new Event('change', { bubbles: true }));
    flushSync();
  };
  const type = (text: string) => {
    const area = find<HTMLTextAreaElement>('hub-profile-text')!;
    area.value = text;
    area.dispatchEvent(new Event('input', { bubbles: true }));
    flushSync();
  };
  const start = () => {
    find('start')!.click();
    flushSync();
  };
  const scenario = target.querySelector<HTMLSelectElement>('select[name=scenario]')!;
  return { target, started, find, items, choose, type, start, scenario, done: () => { unmount(component); target.remove(); } };
}

describe('Your hub', () => {
  it('is a choice beside the five scenarios that opens a labelled profile editor with examples', () => {
    const view = render();
    // The serverless mode's two come after it, in a group of their own (the page only says how to run them).
    expect([...view.scenario.options].map((o) => o.textContent)).toEqual(['Echo', 'Broadcast', 'Send to small groups', 'Send to big groups', 'Send to connection', 'Your hub', 'Broadcast through the REST API', 'Send to user through the REST API']);
    expect(view.scenario.querySelector('optgroup')?.label).toBe('Serverless mode (REST API): with the runner');
    expect(view.find('hub-profile')).toBeNull();
    view.choose(view.scenario, 'yourHub');
    const area = view.find<HTMLTextAreaElement>('hub-profile-text')!;
    expect(area.closest('label')!.textContent).toContain('Hub profile (JSON)');
    expect(view.find('hub-profile-load')!.textContent).toBe('Load from file…');
    expect(view.find<HTMLInputElement>('hub-profile-file')!.accept).toBe('.json,application/json');
    const examples = [...view.find<HTMLSelectElement>('hub-profile-examples')!.options].map((o) => o.textContent);
    // The documents in profiles/, each once: the chat tutorial's hub, request/response, the bundled contract.
    expect(examples).toEqual(expect.arrayContaining(['chat: SendMessage to all', 'chat: SendMessageToOthers', 'chat rooms', 'request/response: Echo returns the message', 'Echo (bundled contract)']));
    expect(new Set(examples).size).toBe(examples.length);
    // Nothing is held against an editor not yet typed in.
    expect(view.find('hub-profile-errors')).toBeNull();
    expect(area.getAttribute('aria-invalid')).toBeNull();
    view.done();
  });

  it('says what is wrong as it is typed, beside the field, and Start refuses with the same sentences', () => {
    const view = render();
    view.choose(view.scenario, 'yourHub');
    view.type('{ "name": "chat",\n  "send": { "method": "SendMessage", "args": ["{mesage}"] }, }');
    const area = view.find<HTMLTextAreaElement>('hub-profile-text')!;
    expect(view.items('hub-profile-errors')).toEqual(['Hub profile: The profile is not valid JSON at line 2, column 62: expected a property name in double quotes.']);
    expect(area.getAttribute('aria-invalid')).toBe('true');
    expect(area.getAttribute('aria-describedby')).toBe('hub-profile-errors');

    view.type('{ "name": "chat", "send": { "method": "Send Message", "args": ["{mesage}"] }, "receive": { "method": "ReceiveMessage", "arg": 1 }, "deliver": "everyone" }');
    const typed = view.items('hub-profile-errors');
    expect(typed).toEqual([
      'Hub profile: deliver: must be one of self, all, others, group, groupOthers, target, return, user, users, groups, groupExcept, stream, but is "everyone".',
      'Hub profile: send.method: "Send Message" is not a method name; use letters, digits and _ as in C# (e.g. "SendMessage").',
      'Hub profile: send.args[0]: "{mesage}" is not a placeholder; use {message}, {connection}, {group}, {target}, {user}, {time}, {stream}, {users}, {groups}, {excluded}, or {env:NAME} for a value from the runner\'s environment.',
    ]);
    view.start();
    expect(view.started).toEqual([]);
    expect(view.items('config-errors')).toEqual(typed);
    view.done();
  });

  it('refuses Start with an empty editor, outlined, instead of running the bundled contract', () => {
    const view = render();
    view.choose(view.scenario, 'yourHub');
    view.start();
    expect(view.started).toEqual([]);
    expect(view.items('config-errors')).toEqual(['Hub profile: The profile is empty. Paste or load a JSON document such as profiles/chat-all.json.']);
    expect(view.find('hub-profile-text')!.getAttribute('aria-invalid')).toBe('true');
    expect(view.find('hub-profile-text')!.getAttribute('aria-describedby')).toBe('config-errors');
    view.done();
  });

  it('offers small or big groups for a group profile, says which runs otherwise, and runs the one chosen', () => {
    const view = render();
    view.choose(view.scenario, 'yourHub');
    view.type(JSON.stringify(chatRoom, null, 2));
    expect(view.find('hub-profile-errors')).toBeNull();
    expect(view.find('hub-profile-about')!.textContent).toContain('chat room profile: SendToRoom → ReceiveMessage, to the group');
    expect(view.find('hub-profile-about')!.textContent).toContain('Without a choice it runs as send to small groups');
    const shape = view.find<HTMLSelectElement>('hub-profile-shape')!;
    expect([...shape.options].map((o) => o.textContent)).toEqual(['Send to small groups (default)', 'Send to big groups']);
    // The group fields of the shape are offered under Advanced.
    expect(view.target.querySelector('input[name=groupSize]')!.getAttribute('placeholder')).toBe('10');
    view.choose(shape, 'bigGroup');
    expect(view.target.querySelector('input[name=groupSize]')!.getAttribute('placeholder')).toBe('connections / 10');
    view.start();
    expect(view.items('config-errors')).toEqual([]);
    expect(view.started).toHaveLength(1);
    expect(view.started[0]!.scenario).toBe('bigGroup');
    expect(view.started[0]!.hubProfile).toEqual(chatRoom);
    // The page's link carries the profile and its shape.
    expect(new URLSearchParams(location.search).get('hubProfile')).toBe(JSON.stringify(chatRoom));
    expect(new URLSearchParams(location.search).get('scenario')).toBe('bigGroup');
    view.done();
  });

  it('says the one shape a direct-message profile runs as, with no choice to make', () => {
    const view = render();
    view.choose(view.scenario, 'yourHub');
    view.choose(view.find<HTMLSelectElement>('hub-profile-examples')!, 'bench-send-to-connection');
    expect(view.find<HTMLTextAreaElement>('hub-profile-text')!.value).toContain('"SendToConnection"');
    expect(view.find<HTMLSelectElement>('hub-profile-examples')!.value).toBe('');
    expect(view.find('hub-profile-shape')).toBeNull();
    expect(view.find('hub-profile-runs-as')!.textContent).toBe('Runs as send to connection: every connection sends to another one, none to itself.');
    view.start();
    expect(view.started[0]!.scenario).toBe('sendToConnection');
    expect(view.started[0]!.hubProfile!.send.method).toBe('SendToConnection');
    view.done();
  });

  it('opens a shared link on Your hub with its profile and shape', () => {
    history.replaceState(null, '', `/?connections=20&scenario=bigGroup&hubProfile=${encodeURIComponent(JSON.stringify(chatRoom))}`);
    const target = document.createElement('div');
    const component = mount(ConfigForm, { target, props: { defaultEndpointUrl: 'http://127.0.0.1:5180/chat', running: false, onstart: () => {} } });
    flushSync();
    expect(target.querySelector<HTMLSelectElement>('select[name=scenario]')!.value).toBe('yourHub');
    // A valid profile opens as one line with Edit, so the form stays low.
    expect(target.querySelector('[data-testid=hub-profile-text]')).toBeNull();
    expect(target.querySelector('[data-testid=hub-profile-closed]')!.textContent).toContain('chat room profile: SendToRoom → ReceiveMessage, to the group (send to big groups)');
    target.querySelector<HTMLButtonElement>('[data-testid=hub-profile-edit]')!.click();
    flushSync();
    expect(JSON.parse(target.querySelector<HTMLTextAreaElement>('[data-testid=hub-profile-text]')!.value)).toEqual(chatRoom);
    expect(target.querySelector<HTMLSelectElement>('[data-testid=hub-profile-shape]')!.value).toBe('bigGroup');
    unmount(component);
    history.replaceState(null, '', '/?hubProfileLeftOut=padded');
    const again = mount(ConfigForm, { target, props: { defaultEndpointUrl: 'http://127.0.0.1:5180/chat', running: false, onstart: () => {} } });
    flushSync();
    expect(target.querySelector('[data-testid=hub-profile-note]')!.textContent).toMatch(/hub profile "padded", too long for a link to carry: paste or load that profile below/);
    unmount(again);
    history.replaceState(null, '', '/');
  });
});
