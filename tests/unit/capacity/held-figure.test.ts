/**
 * One figure for the held load everywhere (answer.ts heldFigure): the card's headline, the stage's
 * title, the chart's label and the step table say the same rounded number; the chart's load axis
 * fits the steps, naming a tier far above them in words; a search that ended on a step it could
 * not judge is never said to hold.
 */
import { describe, expect, it } from 'vitest';
import { CapacitySearch, type StepRunner } from '../../../core/capacity/capacity-search.ts';
import { capacityAnswer, heldFigure } from '../../../core/capacity/answer.ts';
import { capacityStage } from '../../../core/capacity/stage.ts';
import { loadChartData } from '../../../core/capacity/step-chart.ts';
import { capacitySection } from '../../../core/capacity/capacity-export.ts';
import { stepByIndex, stepOf } from '../../../core/capacity/capacity-result.ts';
import { plannedSendRate, type CapacitySettings } from '../../../core/capacity/settings.ts';
import { FakeTime } from '../../support/fake-time.ts';
import { testConfig } from '../../support/finished-run.ts';
import { stepRun } from '../../support/step-run.ts';

const base = testConfig({ connections: 20, workers: 1, sendIntervalMs: 1_000, messageBytes: 2_048, durationSec: 4 });
const rate = (over: Partial<CapacitySettings> = {}): CapacitySettings => ({ ramp: 'rate', start: 100, step: 100, max: 1_000, stepSec: 5, settleSec: 1, bisectSteps: 1, ...over });
const MEASURED_SEC = 4;

/**
 * An echo service that holds `capacity` msg/s. Each step's measured window cuts a few of its
 * planned slots (the first and last send of some connections): 2 fewer receptions than the
 * planned rate times the window, so what it offered reads 399.5 msg/s for a 400 msg/s step.
 */
function service(capacity: number, stopAtStep = Infinity): StepRunner {
  return async (config, step) => {
    const load = plannedSendRate(config);
    const planned = Math.round(load * MEASURED_SEC) - 2;
    if (step.index >= stopAtStep) return stepRun({ config, planned, outcome: { kind: 'stopped', stoppedAtSec: 2 } });
    const over = load > capacity;
    const under = over ? Math.round(planned * 0.9) : planned - 1;
    return stepRun({ config: { ...config, durationSec: 5, warmupSec: 1 }, planned, underOneSecond: under, late: planned - under, p99Ms: over ? 1_300 : 12 });
  };
}

async function search(settings: CapacitySettings, runner: StepRunner) {
  const time = new FakeTime();
  const s = new CapacitySearch(base, settings, runner, { client: { name: 'test client', connectionCap: null }, clock: time, timers: time });
  const done = s.run();
  for (let i = 0; i < 60; i++) await time.advanceByMs(1_000);
  return done;
}

describe('the held load', () => {
  it('is one rounded figure on the card, the stage, the chart and the step table', async () => {
    const result = await search(rate(), service(400));
    const held = stepByIndex(result, result.finding.heldStep)!;
    expect(held.plannedSendsPerSec).toBe(400);
    // What it kept by the guide's rule reads a little under the load it offered.
    expect(held.heldPerSec).toBeLessThan(399.6);
    expect(heldFigure(held)).toBe(400);
    expect(capacityAnswer(result).headline).toMatch(/^Held 400 msg\/s of 2\.0 KB echo/);
    expect(capacityStage(result).title).toMatch(/^Holds 400 msg\/s of 2\.0 KB echo: 40% of Unit1\.$/);
    expect(capacityStage(result).broke).toMatch(/^The service broke first, between 400 and \d+ msg\/s/);
    expect(loadChartData(result).held).toEqual({ load: 400, p99Ms: 12, label: 'held 400 msg/s' });
    expect(capacitySection(result)).toContain('<td>400</td>');
    expect(capacitySection(result)).not.toMatch(/\b399\b/);
  });

  it('of a step that broke is what it kept, not what it offered', () => {
    const step = stepOf(stepRun({ config: testConfig({ connections: 10, sendIntervalMs: 100, durationSec: 5, warmupSec: 1 }), planned: 400, underOneSecond: 300, late: 100 }), 1, 'ramp', 100, { connectionCap: null });
    expect(step.judgement.passed).toBe(false);
    expect(heldFigure(step)).toBe(75);
  });
});

describe('the capacity chart\'s load axis', () => {
  it('fits the steps and says in words a tier rate far above them', async () => {
    const result = await search(rate(), service(300));
    const data = loadChartData(result);
    expect(Math.max(...data.load)).toBe(400);
    expect(data.xMax).toBe(500);
    expect(data.tierOnChart).toBe(false);
    expect(data.tierWords).toBe('Unit1 publishes 1,000 msg/s, 2.5 times the highest step: off the chart.');
  });

  it('reaches a tier rate just above the steps and draws it', async () => {
    const result = await search(rate({ start: 200, step: 200, max: 2_000 }), service(700));
    const data = loadChartData(result);
    expect(Math.max(...data.load)).toBe(800);
    expect(data.tierOnChart).toBe(true);
    expect(data.tierWords).toBeNull();
    expect(data.xMax).toBeGreaterThanOrEqual(1_000);
    expect(data.xMax).toBeLessThanOrEqual(1_200);
  });
});

describe('a search that ended on a step it could not judge', () => {
  it('is never said to hold: no capacity, the step that could not be judged, amber', async () => {
    const result = await search(rate(), service(1_000, 3));
    expect(result.finding).toMatchObject({ kind: 'unjudged', heldStep: 2 });
    const stage = capacityStage(result);
    expect(stage.title).toBe('No capacity: the search ended at step 3 (299 msg/s (20 connections every 67 ms)), which could not be judged, before any step broke. Step 2 had held 200 msg/s.');
    expect(stage.title).not.toMatch(/Holds?/);
    expect(stage.broke).toBe('Nothing broke before the search ended, so this is not a capacity: search again.');
    expect(stage.tone).toBe('warn');
  });
});
