/** Advanced → Skip negotiation: a checkbox with its one-line why, the run it starts, and a refusal
 *  said beside it as well as in the list, outlining the checkbox and the field it clashes with. */
import { describe, expect, it } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';
import ConfigForm from '../../src/components/ConfigForm.svelte';
import type { RunConfig } from '../../core/run-config/index.ts';
import { answerCheckedOptions } from '../support/happy-dom-select.ts';

answerCheckedOptions();

function render(search = '') {
  history.replaceState(null, '', `/${search}`);
  const started: RunConfig[] = [];
  const target = document.createElement('div');
  document.body.append(target);
  const component = mount(ConfigForm, { target, props: { defaultEndpointUrl: 'http://127.0.0.1:5180/signalrbench', running: false, onstart: (config: RunConfig) => started.push(config) } });
  flushSync();
  const field = <T extends HTMLElement>(name: string) => target.querySelector<T>(`[name="${name}"]`)!;
  const set = (name: string, value: string) => {
    const element = field<HTMLSelectElement>(name);
    element.value = value;
    element.dispatchEvent(new Event('change', { bubbles: true }));
    flushSync();
  };
  const click = (selector: string) => {
    target.querySelector<HTMLElement>(selector)!.click();
    flushSync();
  };
  const refusals = () => [...target.querySelectorAll('[data-testid="skip-negotiation-refusal"]')].map((element) => element.textContent);
  const invalid = () => [...target.querySelectorAll('[aria-invalid="true"]')].map((element) => element.getAttribute('name')).sort();
  return { target, field, set, click, refusals, invalid, started, done: () => { unmount(component); target.remove(); } };
}

describe('Advanced → Skip negotiation', () => {
  it('is an unticked checkbox with its why, and a ticked one starts a run that skips negotiation', () => {
    const view = render();
    const box = view.field<HTMLInputElement>('skipNegotiation');
    expect(box.type).toBe('checkbox');
    expect(box.checked).toBe(false);
    expect(box.closest('.skip')!.textContent).toMatch(/Skip negotiation\s*WebSockets only: no negotiate request per connect/);
    view.click('[name="skipNegotiation"]');
    view.click('[data-testid="start"]');
    expect(view.started.map((config) => config.skipNegotiation)).toEqual([true]);
    expect(view.refusals()).toEqual([]);
    expect(location.search).toContain('skipNegotiation=true');
    view.done();
  });

  it('with Long Polling: refused beside the checkbox and in the list, both fields outlined, nothing started', () => {
    const view = render('?skipNegotiation=true&transport=LongPolling&connections=4');
    expect(view.field<HTMLInputElement>('skipNegotiation').checked).toBe(true);
    expect(view.target.querySelector<HTMLDetailsElement>('[data-testid="advanced"]')!.open).toBe(true);
    view.click('[data-testid="start"]');
    expect(view.started).toEqual([]);
    const [refusal, ...rest] = view.refusals();
    expect(rest).toEqual([]);
    expect(refusal).toMatch(/^Skip negotiation works over WebSockets only/);
    expect(view.target.querySelector('[data-testid="config-errors"]')!.textContent).toContain(refusal);
    expect(view.invalid()).toEqual(['skipNegotiation', 'transport']);
    view.set('transport', 'WebSockets');
    view.click('[data-testid="start"]');
    expect(view.refusals()).toEqual([]);
    expect(view.started).toHaveLength(1);
    view.done();
  });

  it('with send to connection: the refusal says the connection id stays unknown', () => {
    const view = render('?skipNegotiation=true&scenario=sendToConnection');
    view.click('[data-testid="start"]');
    expect(view.refusals()).toEqual([expect.stringMatching(/connectionId is null/)]);
    expect(view.invalid()).toEqual(['skipNegotiation']);
    view.done();
  });
});
