/** Presentation mode shows the run's big numbers, the tier and the verdict, in light or dark. */
import { describe, expect, it } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';
import PresentationView from '../../src/components/PresentationView.svelte';
import { RunController } from '../../src/lib/run-controller.svelte.ts';
import { finishedRun } from '../support/finished-run.ts';
import { viewOfResult } from '../../src/lib/kept-view.ts';

describe('PresentationView', () => {
  it('shows connections, messages per second, the last second\'s p99, the fitting tier and the verdict', async () => {
    const result = await finishedRun({ connections: 4, sendIntervalMs: 100 }, { deliveryDelayMs: 12 });
    const run = new RunController();
    run.config = result.config;
    run.points = result.points;
    run.view = { ...viewOfResult(result), connectionsOpen: 4 };
    let closed = false;
    const target = document.createElement('div');
    document.body.append(target);
    const component = mount(PresentationView, { target, props: { run, comparison: { step: 2, total: 5, label: 'Long Polling + JSON', pauseLeftSec: 0 }, onclose: () => (closed = true) } });
    flushSync();
    const text = (testId: string) => (target.querySelector(`[data-testid="${testId}"]`)?.textContent ?? '').replace(/\s+/g, ' ').trim();
    expect(text('present-connections')).toBe('4');
    // 4 connections every 100 ms: 40 messages a second.
    expect(text('present-rate')).toBe('40');
    expect(text('present-p99')).toMatch(/^12\.\d+ ms$/);
    expect(text('present-tier')).toMatch(/Unit1, the smallest tier that fits/);
    expect(text('present-verdict')).toMatch(/^Pass: 100\.00% of [\d,]+ planned receptions arrived in under 1 s/);
    expect(text('present-status')).toBe('finished');
    expect(text('presentation')).toContain('comparison 2 of 5');

    const root = target.querySelector<HTMLElement>('[data-testid=presentation]')!;
    const before = root.dataset.theme;
    target.querySelector<HTMLButtonElement>('[data-testid=presentation-theme]')!.click();
    flushSync();
    expect(root.dataset.theme).not.toBe(before);
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    expect(closed).toBe(true);
    unmount(component);
  });
});
