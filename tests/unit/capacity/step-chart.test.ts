import { describe, expect, it } from 'vitest';
import { stepChartData } from '../../../core/capacity/step-chart.ts';
import { CAPACITY_FORMAT, CAPACITY_VERSION, findingOf, stepOf, type CapacityResult } from '../../../core/capacity/capacity-result.ts';
import type { CapacitySettings } from '../../../core/capacity/settings.ts';
import { testConfig } from '../../support/finished-run.ts';
import { stepRun } from '../../support/step-run.ts';

function result(settings: CapacitySettings, runs: ReturnType<typeof stepRun>[]): CapacityResult {
  const steps = runs.map((run, i) => stepOf(run, i + 1, 'ramp', settings.start + i * settings.step, { connectionCap: null }));
  return { format: CAPACITY_FORMAT, version: CAPACITY_VERSION, startedAt: '', base: testConfig({ connections: 100, workers: 2 }), settings, client: 'test', connectionCap: null, running: false, steps, finding: findingOf(steps) };
}

describe('the step chart', () => {
  it('plots each step\'s planned rate, p99 and share under 1 s, with a gap where nothing arrived', () => {
    const settings: CapacitySettings = { ramp: 'rate', start: 500, step: 500, max: 1_500, stepSec: 3, settleSec: 1, bisectSteps: 0 };
    const data = stepChartData(result(settings, [
      stepRun({ config: { connections: 100, workers: 2, sendIntervalMs: 200 }, p99Ms: 8 }),
      stepRun({ config: { connections: 100, workers: 2, sendIntervalMs: 100 }, planned: 100, underOneSecond: 0, late: 0 }),
    ]));
    expect(data.steps).toEqual([1, 2]);
    expect(data.load).toEqual([500, 1_000]);
    expect(data.p99Ms).toEqual([8, null]);
    expect(data.underOneSecondPercent).toEqual([100, 0]);
  });

  it('draws the tiers whose published rate lies within the ramp, and the first above it', () => {
    const settings: CapacitySettings = { ramp: 'rate', start: 500, step: 500, max: 1_500, stepSec: 3, settleSec: 1, bisectSteps: 0 };
    const lines = stepChartData(result(settings, [])).tierLines;
    // The current edition's echo: Unit1 1,000 msg/s in, Unit2 2,000.
    expect(lines).toEqual([{ tier: 'Unit1', value: 1_000 }, { tier: 'Unit2', value: 2_000 }]);
  });

  it('draws the tiers\' connection counts on a connection ramp', () => {
    const settings: CapacitySettings = { ramp: 'connections', start: 100, step: 100, max: 500, stepSec: 3, settleSec: 1, bisectSteps: 0 };
    expect(stepChartData(result(settings, [])).tierLines).toEqual([{ tier: 'Unit1', value: 1_000 }]);
  });
});
