/** The comparison's choices: refusals and browser limits beside the combinations, the choice bound to the controller. */
import { describe, expect, it } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';
import CompareSetup from '../../src/components/CompareSetup.svelte';
import { ComparisonController } from '../../src/lib/comparison-controller.svelte.ts';

function render(endpointUrl: string, connections: number) {
  const comparison = new ComparisonController();
  const target = document.createElement('div');
  document.body.append(target);
  const component = mount(CompareSetup, { target, props: { comparison, endpointUrl, connections } });
  flushSync();
  const find = (testId: string) => target.querySelector<HTMLElement>(`[data-testid="${testId}"]`);
  const text = (testId: string) => (find(testId)?.textContent ?? '').replace(/\s+/g, ' ').trim();
  return { comparison, find, text, done: () => unmount(component) };
}

describe('CompareSetup', () => {
  it('ticks every combination SignalR allows, and says why Server-Sent Events cannot carry MessagePack', () => {
    const view = render('https://hub.example/signalrbench', 20);
    expect(Object.entries(view.comparison.chosen).filter(([, on]) => on).map(([key]) => key)).toEqual([
      'WebSockets:json', 'WebSockets:messagepack', 'ServerSentEvents:json', 'LongPolling:json', 'LongPolling:messagepack',
    ]);
    expect(view.find('compare-ServerSentEvents:messagepack')).toBeNull();
    expect(view.text('compare-refused-ServerSentEvents:messagepack')).toMatch(/^not possible: Server-Sent Events carry text only/);
    expect(view.text('compare-limit-LongPolling')).toBe("within the browser's limits");
    view.done();
  });

  it('states the browser\'s limit beside each affected transport at the typed load', () => {
    const view = render('http://127.0.0.1:5180/signalrbench', 300);
    expect(view.text('compare-limit-WebSockets')).toMatch(/Chromium allows 255 WebSockets per browser profile; 45 of the 300 would fail/);
    expect(view.text('compare-limit-ServerSentEvents')).toMatch(/Server-Sent Events over http:\/\/ \(HTTP\/1\.1\) gets 6 connections per origin/);
    expect(view.text('compare-limit-LongPolling')).toMatch(/Long polling over http:\/\/ \(HTTP\/1\.1\) gets 6 connections per origin/);
    view.done();
  });

  it('binds the ticks to the comparison, and shows its problem and progress', () => {
    const view = render('https://hub.example/signalrbench', 20);
    const box = view.find('compare-WebSockets:json') as HTMLInputElement;
    box.click();
    flushSync();
    expect(view.comparison.chosen['WebSockets:json']).toBe(false);
    view.comparison.problem = 'A comparison needs at least two combinations that can run.';
    view.comparison.status = { step: 2, total: 3, label: 'Long Polling + JSON', pauseLeftSec: 2 };
    flushSync();
    expect(view.text('compare-problem')).toMatch(/at least two combinations/);
    expect(view.text('compare-status')).toBe('Pause: Long Polling + JSON (2 of 3) starts in 2 s');
    expect((view.find('compare-LongPolling:json') as HTMLInputElement).disabled).toBe(true);
    view.done();
  });

  it('says before Start what SSE and long polling need over http://, and offers this page over the hub-sample\'s HTTPS listener', () => {
    // The page is the hub's own, over http:// (happy-dom's origin stands for the hub's).
    const own = `${location.origin}/signalrbench`;
    history.replaceState(null, '', `/?endpointUrl=${encodeURIComponent(own)}&connections=4`);
    const view = render(own, 4);
    expect(view.text('compare-ranking-needs')).toMatch(/^Over http:\/\/ this browser gives Server-Sent Events and long polling 6 connections per origin \(4 usable\)\. A p99 is ranked only from 500 messages a run: with 4 connections, 125 messages each/);
    const link = view.find('compare-https-link') as HTMLAnchorElement;
    const target = new URL(link.href);
    expect(`${target.protocol}//${target.host}`).toBe(`https://${location.hostname}:5181`);
    expect(target.searchParams.get('endpointUrl')).toBe(`https://${location.hostname}:5181/signalrbench`);
    expect(target.searchParams.get('connections')).toBe('4');
    // WebSockets alone need nothing said; nor does an https:// endpoint.
    for (const key of ['ServerSentEvents:json', 'LongPolling:json', 'LongPolling:messagepack']) view.comparison.chosen[key] = false;
    flushSync();
    expect(view.find('compare-ranking-needs')).toBeNull();
    view.done();
    history.replaceState(null, '', '/');
    const secure = render('https://127.0.0.1:5181/signalrbench', 4);
    expect(secure.find('compare-ranking-needs')).toBeNull();
    secure.done();
  });
});

