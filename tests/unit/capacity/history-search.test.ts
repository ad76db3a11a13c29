/**
 * A capacity search in the History (src/lib/history-text.ts): its steps gathered under one row,
 * newest first, whose words are the stage's (never judged again) and whose verdict names the held
 * load by the one figure, or the fault that ended it.
 */
import { describe, expect, it } from 'vitest';
import { CapacitySearch, type StepRunner } from '../../../core/capacity/capacity-search.ts';
import { capacityStage } from '../../../core/capacity/stage.ts';
import { plannedSendRate } from '../../../core/capacity/settings.ts';
import type { CapacityResult } from '../../../core/capacity/capacity-result.ts';
import { headOf, keptRunOf, type KeptRunHead } from '../../../core/history/index.ts';
import { capacitySearches, searchRow } from '../../../src/lib/history-text.ts';
import { FakeTime } from '../../support/fake-time.ts';
import { testConfig } from '../../support/finished-run.ts';
import { stepRun } from '../../support/step-run.ts';

const base = testConfig({ connections: 20, workers: 1, sendIntervalMs: 1_000, messageBytes: 2_048, durationSec: 4 });
const versions = { toolVersion: 'test', signalrClientVersion: 'test' };

/** A search against an echo service that holds 300 msg/s (a 299 msg/s step: 20 connections every 67 ms), each step kept as the page keeps it. */
async function keptSearch(id: string, runner: StepRunner): Promise<{ result: CapacityResult; heads: KeptRunHead[] }> {
  const heads: KeptRunHead[] = [];
  const time = new FakeTime();
  const search = new CapacitySearch(base, { ramp: 'rate', start: 100, step: 100, max: 1_000, stepSec: 5, settleSec: 1, bisectSteps: 1 }, async (config, step) => {
    const run = await runner(config, step);
    if (run) heads.unshift(headOf({ ...keptRunOf(run, versions, new Date(), () => step.index / 100), comparisonId: id, capacity: search.result }));
    return run;
  }, { client: { name: 'test client', connectionCap: null }, clock: time, timers: time, onStep: (_step, result) => { heads[0] = { ...heads[0]!, capacity: result }; } });
  const done = search.run();
  for (let i = 0; i < 60; i++) await time.advanceByMs(1_000);
  const result = await done;
  heads[0] = { ...heads[0]!, capacity: result };
  return { result, heads };
}

const holds300: StepRunner = async (config) => {
  const load = plannedSendRate(config);
  const over = load > 300;
  // Four measured seconds of the step's planned rate.
  const planned = Math.round(load * 4);
  const under = over ? Math.round(planned * 0.9) : planned;
  return stepRun({ config: { ...config, durationSec: 5, warmupSec: 1 }, planned, underOneSecond: under, late: planned - under, p99Ms: over ? 1_300 : 12 });
};

describe('a capacity search in the History', () => {
  it('is one row over its steps, newest first, in the stage\'s words, with the held figure', async () => {
    const { result, heads } = await keptSearch('cap-1', holds300);
    const single = headOf(keptRunOf(stepRun({ config: base }), versions, new Date()));
    const searches = capacitySearches([...heads, single]);
    expect([...searches.keys()]).toEqual(['cap-1']);
    const search = searches.get('cap-1')!;
    expect(search.steps).toHaveLength(result.steps.length);
    expect(search.newest).toBe(heads[0]);
    const row = searchRow(search);
    expect(row.answer).toBe(capacityStage(result).title);
    expect(row.answer).toMatch(/^Holds 299 msg\/s of 2\.0 KB echo: 30% of Unit1\.$/);
    expect(row.verdict).toBe('holds 299 msg/s');
    expect(row.tone).toBe('good');
    expect(row.p99).toBe('12.0 ms');
    expect(row.facts).toMatch(/ · rate ramp 100 to 1,000 msg\/s · \d steps kept$/);
  });

  it('ended by a fault: no capacity, red, no held figure', async () => {
    const crashed = { cause: 'hubCrashed' as const, side: 'service' as const, sentence: 'The hub went away mid-run.', advice: 'Read its log.', docs: 'docs/diagnosis.md#hub-crashed', evidence: [] };
    const { heads } = await keptSearch('cap-2', async (config) => (plannedSendRate(config) <= 100 ? holds300(config, { index: 1, phase: 'ramp', load: 100 }) : stepRun({ config, underOneSecond: 300, outcome: { kind: 'failed', code: 'allClosed', reason: 'every connection was closed.' }, run: { diagnosis: crashed } })));
    const row = searchRow(capacitySearches(heads).get('cap-2')!);
    expect(row.verdict).toBe('fault, no capacity');
    expect(row.tone).toBe('bad');
    expect(row.p99).toBe('–');
    expect(row.answer).toMatch(/^No capacity: /);
  });
});
