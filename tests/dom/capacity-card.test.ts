/** The capacity search's result card: the answer as a person reads it, service- or client-limited. */
import { describe, expect, it } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';
import CapacityCard from '../../src/components/CapacityCard.svelte';
import { CapacitySearch, type StepRunner } from '../../core/capacity/capacity-search.ts';
import type { CapacityResult } from '../../core/capacity/capacity-result.ts';
import { FakeTime } from '../support/fake-time.ts';
import { testConfig } from '../support/finished-run.ts';
import { stepRun } from '../support/step-run.ts';

/** A rate ramp 100..500 by 100 whose step at 300 msg/s breaks, with the client stalled or not. */
async function search(clientStalls: boolean): Promise<CapacityResult> {
  const time = new FakeTime();
  const runner: StepRunner = async (config) => {
    const over = 1_000 / config.sendIntervalMs * 20 > 250;
    return stepRun({ config, underOneSecond: over ? 900 : 1_000, late: over ? 100 : 0, p99Ms: over ? 1_400 : 9, lagMs: over && clientStalls ? 700 : 2 });
  };
  const s = new CapacitySearch(testConfig({ connections: 20, workers: 1, sendIntervalMs: 1_000 }), { ramp: 'rate', start: 100, step: 100, max: 500, stepSec: 3, settleSec: 1, bisectSteps: 1 }, runner, { client: { name: 'browser', connectionCap: 255 }, clock: time, timers: time, pauseMs: 10 });
  const done = s.run();
  for (let i = 0; i < 10; i++) await time.advanceByMs(10);
  return done;
}

function render(result: CapacityResult) {
  const target = document.createElement('div');
  document.body.append(target);
  const component = mount(CapacityCard, { target, props: { result } });
  flushSync();
  const text = (testId: string) => [...target.querySelectorAll(`[data-testid="${testId}"]`)].map((e) => (e.textContent ?? '').replace(/\s+/g, ' ').trim());
  return { target, text, done: () => unmount(component) };
}

describe('CapacityCard', () => {
  it('a service-limited search: the capacity, the tier share for both editions, where it broke, every step', async () => {
    const card = render(await search(false));
    expect(card.text('capacity-headline')[0]).toMatch(/^Held [\d,]+ msg\/s of 2\.0 KB echo over WebSockets \+ JSON with 20 connections at p99 9\.00 ms/);
    expect(card.text('capacity-tier-line')).toEqual([expect.stringMatching(/current and 2019 editions/)]);
    expect(card.text('capacity-broke')[0]).toMatch(/^Broke at step 3 .*because of the service: 100 of 1,000 arrived 1 s or more after their planned time \(p99 1\.40 s\) while the client kept its schedule\. Confirmed: the same load broke again at step 5\.$/);
    expect(card.text('capacity-client-note')).toEqual([]);
    // The ramp's three, one bisection, and the break run again.
    expect(card.target.querySelectorAll('[data-testid=capacity-step-row]')).toHaveLength(5);
    expect(card.text('capacity-step-row')[4]).toMatch(/^5 \(run again\)/);
    expect(card.text('capacity-step-verdict')[2]).toMatch(/^broke \(service-limited\) 100 of 1,000 arrived 1 s or more after/);
    expect(card.target.querySelector('[data-testid=capacity-card]')!.getAttribute('data-limited-by')).toBe('service');
    card.done();
  });

  it('a client-limited search names itself so, suggests agents, and gives no tier share as if it were the service\'s', async () => {
    const card = render(await search(true));
    expect(card.text('capacity-headline')[0]).toMatch(/^Client-limited: this client held/);
    expect(card.text('capacity-client-note')[0]).toMatch(/The client set this limit, not the service: the client lagged 700 ms.*Add agents/);
    expect(card.text('capacity-tier-line')).toEqual([]);
    expect(card.target.querySelector('[data-testid=capacity-card]')!.getAttribute('data-limited-by')).toBe('client');
    card.done();
  });

  it('a search whose break nothing explains says the cause is unknown, in the card and in the step', async () => {
    const time = new FakeTime();
    const runner: StepRunner = async (config) => 1_000 / config.sendIntervalMs * 20 > 250
      ? stepRun({ config, outcome: { kind: 'failed', reason: 'no connection could be opened' }, planned: 0, totals: { connectionsFailed: 20, connectionsOpened: 0 }, run: { points: [], connectCauses: { other: 20 } } })
      : stepRun({ config });
    const s = new CapacitySearch(testConfig({ connections: 20, workers: 1, sendIntervalMs: 1_000 }), { ramp: 'rate', start: 100, step: 100, max: 500, stepSec: 3, settleSec: 1, bisectSteps: 0 }, runner, { client: { name: 'browser', connectionCap: 255 }, clock: time, timers: time, pauseMs: 10 });
    const done = s.run();
    for (let i = 0; i < 10; i++) await time.advanceByMs(10);
    const card = render(await done);
    expect(card.target.querySelector('[data-testid=capacity-card]')!.getAttribute('data-limited-by')).toBe('unknown');
    expect(card.text('capacity-headline')[0]).toMatch(/^Cause unknown: held/);
    expect(card.text('capacity-client-note')[0]).toMatch(/^Which side broke is unknown/);
    expect(card.text('capacity-step-verdict')[2]).toMatch(/^broke \(cause unknown\) 20 of 20 connections failed to open \(20 for a reason the error does not say\); which side failed is unknown/);
    card.done();
  });
});
