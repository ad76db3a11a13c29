/** When the form folds and unfolds around runs on a phone: each run starts folded, after a run the
 *  form stays one line (the answer first), and Edit unfolds it for as long as the user wants it,
 *  also when the run's end comes a moment after the click (the summary shows before Start is back). */
import { afterEach, describe, expect, it } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';
import ConfigForm from '../../src/components/ConfigForm.svelte';

/** What ConfigForm.svelte folds below (its MediaQuery). */
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 720 };
/** happy-dom's own API on its window: the viewport its media queries answer for. */
const setViewport = (size: { width: number; height: number }) => (window as unknown as { happyDOM: { setViewport(size: { width: number; height: number }): void } }).happyDOM.setViewport(size);

let done = () => {};
afterEach(() => {
  done();
  setViewport(DESKTOP);
});

function render() {
  history.replaceState(null, '', '/');
  setViewport(PHONE);
  const target = document.createElement('div');
  document.body.append(target);
  const props = $state({ defaultEndpointUrl: 'http://127.0.0.1:5180/signalrbench', running: false, onstart: () => {} });
  const component = mount(ConfigForm, { target, props });
  flushSync();
  done = () => {
    unmount(component);
    target.remove();
  };
  const folded = () => target.querySelector('[data-testid="setup-folded"]') !== null;
  const setRunning = (running: boolean) => {
    props.running = running;
    flushSync();
  };
  const edit = () => {
    target.querySelector<HTMLElement>('[data-testid="setup-edit"]')!.click();
    flushSync();
  };
  return { folded, setRunning, edit };
}

describe('the form on a phone around a run', () => {
  it('folds when a run starts and stays folded after it, so the answer is the first screen', () => {
    const view = render();
    expect(view.folded()).toBe(false);
    view.setRunning(true);
    expect(view.folded()).toBe(true);
    view.setRunning(false);
    expect(view.folded()).toBe(true);
  });

  it('Edit pressed while the run is ending keeps the form open when the run ends', () => {
    const view = render();
    view.setRunning(true);
    view.edit();
    expect(view.folded()).toBe(false);
    // The run's end reaches the form after the click: the form the user opened stays open.
    view.setRunning(false);
    expect(view.folded()).toBe(false);
    // The next run starts folded again.
    view.setRunning(true);
    expect(view.folded()).toBe(true);
  });

  it('Edit after the run unfolds the form until the next run starts', () => {
    const view = render();
    view.setRunning(true);
    view.setRunning(false);
    view.edit();
    expect(view.folded()).toBe(false);
    view.setRunning(true);
    expect(view.folded()).toBe(true);
    view.setRunning(false);
    expect(view.folded()).toBe(true);
  });
});
