/** The form outlines the fields each problem names (core/run-config/config.ts ConfigProblem), never by
 *  reading the sentence: a problem of two settings outlines both, and a folded field unfolds Advanced. */
import { describe, expect, it } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';
import ConfigForm from '../../src/components/ConfigForm.svelte';
import { answerCheckedOptions } from '../support/happy-dom-select.ts';

answerCheckedOptions();

function render() {
  history.replaceState(null, '', '/');
  const target = document.createElement('div');
  document.body.append(target);
  const component = mount(ConfigForm, { target, props: { defaultEndpointUrl: 'http://127.0.0.1:5180/signalrbench', running: false, onstart: () => {} } });
  flushSync();
  const field = <T extends HTMLElement>(name: string) => target.querySelector<T>(`[name="${name}"]`)!;
  const set = (name: string, value: string) => {
    const element = field<HTMLInputElement | HTMLSelectElement>(name);
    element.value = value;
    element.dispatchEvent(new Event(element instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
    flushSync();
  };
  const start = () => {
    target.querySelector<HTMLElement>('[data-testid="start"]')!.click();
    flushSync();
  };
  const invalid = () => [...target.querySelectorAll('[aria-invalid="true"]')].map((element) => element.getAttribute('name')).sort();
  const advanced = () => target.querySelector<HTMLDetailsElement>('[data-testid="advanced"]')!.open;
  return { set, start, invalid, advanced, done: () => { unmount(component); target.remove(); } };
}

describe('the form outlines the fields a problem names', () => {
  it('Server-Sent Events with MessagePack: both choices outlined, Advanced stays folded', () => {
    const view = render();
    // Within what the browser holds over http:// (6 per origin, 2 kept free), so only the pair is at fault.
    view.set('connections', '4');
    view.set('transport', 'ServerSentEvents');
    view.set('protocol', 'messagepack');
    view.start();
    expect(view.invalid()).toEqual(['protocol', 'transport']);
    expect(view.advanced()).toBe(false);
    view.done();
  });

  it('more Server-Sent Events than the browser holds: the start refusal outlines the connections', () => {
    const view = render();
    view.set('connections', '50');
    view.set('transport', 'ServerSentEvents');
    view.start();
    expect(view.invalid()).toEqual(['connections']);
    view.done();
  });

  it('more workers than connections: both outlined, and Advanced unfolds to show the workers', () => {
    const view = render();
    view.set('connections', '2');
    view.set('workers', '4');
    view.start();
    expect(view.invalid()).toEqual(['connections', 'workers']);
    expect(view.advanced()).toBe(true);
    view.done();
  });
});
