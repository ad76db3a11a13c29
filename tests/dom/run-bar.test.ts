/** The run bar: the phase in words with how far it got, from connecting to the outcome. */
import { describe, expect, it } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';
import RunBar from '../../src/components/RunBar.svelte';
import type { RunView } from '../../src/lib/run-controller.svelte.ts';
import { viewOfResult } from '../../src/lib/kept-view.ts';
import { finishedRun, testConfig } from '../support/finished-run.ts';
import { emptyTotals } from '../../core/execution/worker-messages.ts';

const START_US = 1_700_000_000_000_000;

function render(props: { view: RunView | null; preparing?: boolean; nowUs?: number; step?: string | null; onstop?: (() => void) | null }, config = testConfig({ connections: 200, workers: 2, durationSec: 30 })) {
  const target = document.createElement('div');
  document.body.append(target);
  const component = mount(RunBar, { target, props: { view: props.view, config, preparing: props.preparing ?? false, step: props.step ?? null, onstop: props.onstop ?? null, nowUs: () => props.nowUs ?? START_US } });
  flushSync();
  const bar = target.querySelector<HTMLElement>('[data-testid=run-bar]');
  const text = (testId: string) => (target.querySelector(`[data-testid="${testId}"]`)?.textContent ?? '').replace(/\s+/g, ' ').trim();
  return { bar, text, target, done: () => unmount(component) };
}

async function baseView(): Promise<RunView> {
  return viewOfResult(await finishedRun({ connections: 4, sendIntervalMs: 100 }));
}

describe('RunBar', () => {
  it('says nothing before any run, and "Preparing" while the agents\' clocks are measured', () => {
    const none = render({ view: null });
    expect(none.bar).toBeNull();
    none.done();
    const preparing = render({ view: null, preparing: true });
    expect(preparing.bar?.dataset.phase).toBe('preparing');
    expect(preparing.text('run-bar-detail')).toMatch(/measuring the agents' clocks/);
    preparing.done();
  });

  it('counts connections while connecting, with a progress bar: "75 of 200 open"', async () => {
    const view: RunView = { ...(await baseView()), phase: 'connecting', outcome: { kind: 'running' }, totals: { ...emptyTotals(), connectionsOpened: 75, connectionsFailed: 5 } };
    const bar = render({ view, onstop: () => {} });
    expect(bar.bar?.dataset.phase).toBe('connecting');
    expect(bar.text('run-bar-title')).toBe('Connecting');
    expect(bar.text('run-bar-detail')).toBe('75 of 200 open, 5 failed');
    expect(bar.target.querySelector<HTMLProgressElement>('progress')!.value).toBeCloseTo(0.4);
    expect(bar.target.querySelector('[data-testid=run-stop]')).not.toBeNull();
    bar.done();
  });

  it('turns amber, then red, with the reason when connections are lost and Reconnect is off', async () => {
    const running: RunView = { ...(await baseView()), phase: 'running', outcome: { kind: 'running' }, sendStartUs: START_US, sendEndUs: START_US + 30_000_000 };
    const closed = [{ kind: 'closed' as const, message: 'Connection closed during the run: WebSockets (json) to http://x: WebSocket closed with status code: 1006 (no reason given).', count: 50 }];
    const some = render({ view: { ...running, connectionsOpen: 150, connectionsLostAtSec: 8, totals: { ...running.totals, disconnects: 50 }, errorSamples: closed }, nowUs: START_US + 11_200_000 });
    expect(some.text('run-bar-detail')).toBe('11 of 30 s · 19 s left · 50 of 200 closed (1006) at 8 s; reconnect off');
    expect(some.bar?.className).toMatch(/\bwarn\b/);
    some.done();
    const all = render({ view: { ...running, connectionsOpen: 0, connectionsLostAtSec: 8, totals: { ...running.totals, disconnects: 200 }, errorSamples: closed }, nowUs: START_US + 11_200_000 });
    expect(all.text('run-bar-detail')).toBe('11 of 30 s · 19 s left · 200 of 200 closed (1006) at 8 s; reconnect off');
    expect(all.bar?.className).toMatch(/\bbad\b/);
    all.done();
    // Ending: nothing is left, so the run is over; the bar does not say it waits for messages.
    const ending = render({ view: { ...running, phase: 'draining', connectionsOpen: 0, connectionsLostAtSec: 8, totals: { ...running.totals, disconnects: 200 }, errorSamples: closed } });
    expect(ending.text('run-bar-title')).toBe('Ending');
    expect(ending.text('run-bar-detail')).toBe('200 of 200 closed (1006) at 8 s; reconnect off: nothing left to measure');
    expect(ending.bar?.className).toMatch(/\bbad\b/);
    ending.done();
  });

  it('shows elapsed and remaining time while running, and the comparison step', async () => {
    const view: RunView = { ...(await baseView()), phase: 'running', outcome: { kind: 'running' }, sendStartUs: START_US, sendEndUs: START_US + 30_000_000 };
    const bar = render({ view, nowUs: START_US + 12_400_000, step: 'Comparison 2 of 4: Long Polling + JSON' });
    expect(bar.bar?.dataset.phase).toBe('running');
    expect(bar.text('run-bar-detail')).toBe('12 of 30 s · 18 s left');
    // The bar moves once per whole second of the run, like the seconds beside it.
    expect(bar.target.querySelector<HTMLProgressElement>('progress')!.value).toBeCloseTo(12 / 30, 5);
    expect(bar.text('run-bar-step')).toBe('Comparison 2 of 4: Long Polling + JSON');
    bar.done();
    // Before the first planned send: connections are open, sends are due.
    const early = render({ view, nowUs: START_US - 500_000 });
    expect(early.bar?.dataset.phase).toBe('starting');
    early.done();
  });

  it('says it drains, then the outcome: finished in the verdict\'s colour, stopped with how far it got, failed with why', async () => {
    const base = await baseView();
    const draining = render({ view: { ...base, phase: 'draining', outcome: { kind: 'running' } } });
    expect(draining.text('run-bar-title')).toBe('Draining');
    expect(draining.text('run-bar-detail')).toMatch(/waiting up to 30 s for the messages in flight/);
    draining.done();

    const finished = render({ view: base });
    expect(finished.text('run-bar-title')).toBe('Finished');
    expect(finished.text('run-bar-detail')).toBe('30 s of sending, drained · pass');
    expect(finished.bar?.className).toMatch(/\bgood\b/);
    expect(finished.target.querySelector('progress')).toBeNull();
    finished.done();

    const stopped = render({ view: { ...base, outcome: { kind: 'stopped', stoppedAtSec: 10 }, verdict: { ...base.verdict, status: 'none' } } });
    expect(stopped.text('run-bar-title')).toBe('Stopped');
    expect(stopped.text('run-bar-detail')).toBe('stopped at 10 of 30 s');
    expect(stopped.bar?.className).toMatch(/\bwarn\b/);
    stopped.done();

    const failed = render({ view: { ...base, outcome: { kind: 'failed', reason: 'No connection could be opened.' }, verdict: { ...base.verdict, status: 'fail' } } });
    expect(failed.text('run-bar-title')).toBe('Failed');
    expect(failed.text('run-bar-detail')).toBe('No connection could be opened.');
    expect(failed.bar?.className).toMatch(/\bbad\b/);
    failed.done();
  });

  it('never shows a finished run that lost messages in the pass colour', async () => {
    const base = await baseView();
    const lost = render({ view: { ...base, verdict: { ...base.verdict, status: 'fail' } } });
    expect(lost.bar?.className).toMatch(/\bbad\b/);
    expect(lost.text('run-bar-detail')).toBe("30 s of sending, drained · fail: below the guide's rule");
    lost.done();
  });

  it('names an accounting error as the reason a finished run failed', async () => {
    const base = await baseView();
    const over = render({ view: { ...base, fates: { ...base.fates, overCount: 3 }, verdict: { ...base.verdict, status: 'fail' } } });
    expect(over.bar?.className).toMatch(/\bbad\b/);
    expect(over.text('run-bar-detail')).toBe('30 s of sending, drained · fail: accounting error');
    over.done();
  });
});
