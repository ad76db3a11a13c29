/** The key figures: each says what it covers; unknown reads "–", never 0; at the end, the run's figures. */
import { describe, expect, it } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';
import HeroFigures from '../../src/components/HeroFigures.svelte';
import type { RunView } from '../../src/lib/run-controller.svelte.ts';
import { viewOfResult } from '../../src/lib/kept-view.ts';
import { finishedRun } from '../support/finished-run.ts';
import type { SecondPoint } from '../../core/execution/aggregator.ts';
import type { RunConfig } from '../../core/run-config/config.ts';

function render(view: RunView, points: readonly SecondPoint[], config: RunConfig) {
  const target = document.createElement('div');
  document.body.append(target);
  const component = mount(HeroFigures, { target, props: { view, config, points } });
  flushSync();
  const text = (testId: string) => (target.querySelector(`[data-testid="${testId}"]`)?.textContent ?? '').replace(/\s+/g, ' ').trim();
  return { target, text, done: () => unmount(component) };
}

describe('HeroFigures', () => {
  it('at the end: the run\'s mean rates, the run\'s p99, delivery with its losses, the verdict; no "last 10 s"', async () => {
    const result = await finishedRun({ connections: 4, sendIntervalMs: 100 }, { deliveryDelayMs: 12 });
    const hero = render({ ...viewOfResult(result), connectionsOpen: 4 }, result.points, result.config);
    expect(hero.text('hero-connections')).toBe('Connections open 4 of 4 planned');
    expect(hero.text('hero-received')).toBe('Received msg/s (out) 40 mean of the run');
    expect(hero.text('hero-p99Run')).toMatch(/^p99 of the run 12\.\d+ ms [\d,]+ messages$/);
    expect(hero.text('hero-delivery')).toBe('Delivery 100.00% 0 lost');
    expect(hero.target.querySelector('[data-testid=hero-p99Recent]')).toBeNull();
    expect(hero.text('hero-verdict')).toMatch(/^Pass: /);
    hero.done();
  });

  it('while connecting: unknown figures read "–", never 0, each still labelled', async () => {
    const result = await finishedRun();
    const empty = { count: 0, p50Us: 0, p90Us: 0, p99Us: 0, p999Us: 0, maxUs: 0, meanUs: 0 };
    const view: RunView = { ...viewOfResult(result), phase: 'connecting', outcome: { kind: 'running' }, latency: empty, recentLatency: null, judgedShare: null, connectionsOpen: 0 };
    const hero = render(view, [], result.config);
    expect(hero.text('hero-received')).toBe('Received msg/s (out) – mean of the last 5 s');
    expect(hero.text('hero-p99Recent')).toBe('p99, last 10 s – from planned send time');
    expect(hero.text('hero-p99Run')).toBe('p99 of the run – 0 messages');
    expect(hero.text('hero-delivery')).toBe('Under 1 s so far – of receptions due over 1 s ago');
    hero.done();
  });

  it('messages never sent are missing too: delivery under 100% with 0 lost is not in the pass colour', async () => {
    const result = await finishedRun();
    const fates = { ...result.fates, underOneSecond: result.fates.underOneSecond - 12, notSent: { ...result.fates.notSent, disconnected: 12 }, lost: 0 };
    const view: RunView = { ...viewOfResult(result), fates, verdict: { ...result.verdict, status: 'fail', delivery: (fates.planned - 12) / fates.planned } };
    const hero = render(view, result.points, result.config);
    expect(hero.text('hero-delivery')).toMatch(/^Delivery 9\d\.\d\d% 0 lost, 12 never sent$/);
    expect(hero.target.querySelector('[data-testid=hero-delivery]')!.className).toMatch(/\bbad\b/);
    hero.done();
  });

  it('a failed run leaves its reason to the run bar, and its delivery unknown is not a pass colour', async () => {
    const result = await finishedRun();
    const view: RunView = { ...viewOfResult(result), outcome: { kind: 'failed', reason: 'No connection could be opened.' }, fates: { ...result.fates, lost: null }, verdict: { ...result.verdict, status: 'fail', delivery: null } };
    const hero = render(view, [], result.config);
    expect(hero.target.querySelector('[data-testid=hero-verdict]')).toBeNull();
    expect(hero.text('hero-delivery')).toBe('Delivery – losses not counted');
    expect(hero.target.querySelector('[data-testid=hero-delivery]')!.className).toMatch(/\bbad\b/);
    hero.done();
  });
});
