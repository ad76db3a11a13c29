/** A serverless scenario on the run form: refused beside Start (which stays off, with its reason),
 *  the runner's command for the form's setup (the connection string by its variable's name), the
 *  docs page and the guide's section; back to a default-mode scenario, Start runs again. */
import { describe, expect, it } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';
import ConfigForm from '../../src/components/ConfigForm.svelte';
import type { RunConfig } from '../../core/run-config/index.ts';
import { serverlessRefusal } from '../../src/lib/serverless-refusal.ts';
import { answerCheckedOptions } from '../support/happy-dom-select.ts';

answerCheckedOptions();

function render(search: string) {
  history.replaceState(null, '', `/${search}`);
  const started: RunConfig[] = [];
  const target = document.createElement('div');
  document.body.append(target);
  const component = mount(ConfigForm, { target, props: { defaultEndpointUrl: 'http://127.0.0.1:5180/signalrbench', running: false, onstart: (config: RunConfig) => started.push(config) } });
  flushSync();
  const find = (testId: string) => target.querySelector<HTMLElement>(`[data-testid="${testId}"]`);
  const text = (testId: string) => (find(testId)?.textContent ?? '').replace(/\s+/g, ' ').trim();
  const set = (name: string, value: string) => {
    const element = target.querySelector<HTMLSelectElement | HTMLInputElement>(`[name="${name}"]`)!;
    element.value = value;
    element.dispatchEvent(new Event(element instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
    flushSync();
  };
  const submit = () => {
    target.querySelector('form')!.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
    flushSync();
  };
  return { target, find, text, set, submit, started, done: () => { unmount(component); target.remove(); } };
}

describe('a serverless scenario on the run form', () => {
  it('broadcast through the REST API: said beside a Start that stays off with the reason, and the runner\'s command for this setup', () => {
    const view = render('?scenario=restBroadcast&connections=1000&sendIntervalMs=500&messageBytes=1024&durationSec=60');
    const refusal = view.find('serverless-refusal');
    expect(refusal?.dataset.scenario).toBe('restBroadcast');
    expect(view.text('serverless-refusal-why')).toBe(
      "This page does not start Broadcast through the REST API: its sends are REST API calls signed with your service's AccessKey, and a page must not hold that key.",
    );
    expect(view.text('serverless-command')).toBe(
      'npx live-bench --scenario restBroadcast --azure-connection-string-env SIGNALR_CONNECTION_STRING --azure-hub benchhub --connections 1000 --interval-ms 500 --message-bytes 1024 --duration 60',
    );
    // Past one machine: agents led by the runner, through the control hub beside this page.
    expect(view.find('serverless-agents')?.hasAttribute('open')).toBe(false);
    expect(view.text('serverless-lead-command')).toBe(
      `npx live-bench --lead --agents 2 --control ${location.origin}/control --scenario restBroadcast --azure-connection-string-env SIGNALR_CONNECTION_STRING --azure-hub benchhub --connections 1000 --interval-ms 500 --message-bytes 1024 --duration 60`,
    );
    const start = view.find('start') as HTMLButtonElement;
    expect(start.disabled).toBe(true);
    expect(start.getAttribute('aria-describedby')).toBe(refusal?.id);
    expect(start.title).toBe("Start is off for Broadcast through the REST API: this page cannot hold the AccessKey it needs; run it with the runner's command.");
    // This browser's 255 WebSockets say nothing of a run it does not start: no limit notice for 1,000.
    expect(view.find('browser-limit')).toBeNull();
    // The button and the form's buttons sit beside it: the refusal is the element before them.
    expect(refusal?.nextElementSibling?.classList.contains('buttons')).toBe(true);
    // Enter in a field submits the form: nothing starts, and nothing is written to the address.
    view.submit();
    expect(view.started).toEqual([]);
    expect(location.search).toBe('?scenario=restBroadcast&connections=1000&sendIntervalMs=500&messageBytes=1024&durationSec=60');
    view.done();
  });

  it('links the docs page (carried in the bundle, opened in a tab of its own) and the guide\'s Serverless mode section', () => {
    const view = render('?scenario=restSendToUser');
    const docs = view.find('serverless-docs') as HTMLAnchorElement;
    expect(docs.textContent).toBe('How to run it (docs/serverless.md)');
    expect(docs.href).toMatch(/^blob:/);
    expect(docs.target).toBe('_blank');
    expect((view.find('serverless-guide') as HTMLAnchorElement).href).toBe('https://learn.microsoft.com/azure/azure-signalr/signalr-concept-performance#serverless-mode');
    view.done();
  });

  it('follows the form: a typed figure changes the command, a non-number is left to the runner, a scenario of the default mode starts again', () => {
    const view = render('?scenario=restSendToUser&connections=200');
    view.set('connections', '120');
    view.set('messageBytes', 'lots');
    view.set('transport', 'ServerSentEvents');
    expect(view.text('serverless-command')).toBe(
      'npx live-bench --scenario restSendToUser --azure-connection-string-env SIGNALR_CONNECTION_STRING --azure-hub benchhub --transport ServerSentEvents --connections 120 --interval-ms 1000 --duration 30',
    );
    view.set('scenario', 'echo');
    view.set('messageBytes', '2048');
    view.set('transport', 'WebSockets');
    expect(view.find('serverless-refusal')).toBeNull();
    const start = view.find('start') as HTMLButtonElement;
    expect(start.disabled).toBe(false);
    expect(start.hasAttribute('aria-describedby')).toBe(false);
    start.click();
    flushSync();
    expect(view.started.map((config) => [config.scenario, config.connections])).toEqual([['echo', 120]]);
    view.done();
  });

  it('refuses in every mode: a comparison starts nothing either, its button off with the same reason', () => {
    history.replaceState(null, '', '/?scenario=restBroadcast&senders=4');
    const compared: RunConfig[] = [];
    const target = document.createElement('div');
    document.body.append(target);
    const modes = [{ id: 'compare', label: 'Compare transports', action: 'Compare', choosesTransport: true, run: (config: RunConfig) => compared.push(config) }];
    const component = mount(ConfigForm, { target, props: { defaultEndpointUrl: 'http://127.0.0.1:5180/signalrbench', running: false, onstart: () => {}, modes } });
    flushSync();
    target.querySelector<HTMLButtonElement>('[data-testid="mode-compare"]')!.click();
    flushSync();
    const compare = target.querySelector<HTMLButtonElement>('[data-testid="compare-start"]')!;
    expect(compare.disabled).toBe(true);
    expect(compare.getAttribute('aria-describedby')).toBe('serverless-refusal');
    expect(target.querySelector('[data-testid="serverless-command"]')?.textContent).toBe(
      'npx live-bench --scenario restBroadcast --azure-connection-string-env SIGNALR_CONNECTION_STRING --azure-hub benchhub --connections 20 --interval-ms 1000 --message-bytes 2048 --duration 30 --senders 4',
    );
    target.querySelector('form')!.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
    flushSync();
    expect(compared).toEqual([]);
    unmount(component);
    target.remove();
  });

  it('names no scenario of the default mode', () => {
    const fields = { transport: 'WebSockets', protocol: 'json', connections: '10', sendIntervalMs: '1000', messageBytes: '2048', durationSec: '30', senders: '' };
    expect(['echo', 'broadcast', 'smallGroup', 'bigGroup', 'sendToConnection', 'your-hub'].map((scenario) => serverlessRefusal({ ...fields, scenario }, 'http://127.0.0.1:5180/control'))).toEqual([null, null, null, null, null, null]);
  });
});
