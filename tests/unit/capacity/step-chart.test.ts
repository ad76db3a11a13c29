import { describe, expect, it } from 'vitest';
import { loadChartData } from '../../../core/capacity/step-chart.ts';
import { CAPACITY_FORMAT, CAPACITY_VERSION, findingOf, stepOf, type CapacityResult } from '../../../core/capacity/capacity-result.ts';
import type { CapacitySettings } from '../../../core/capacity/settings.ts';
import { testConfig } from '../../support/finished-run.ts';
import { stepRun } from '../../support/step-run.ts';

function result(settings: CapacitySettings, runs: ReturnType<typeof stepRun>[]): CapacityResult {
  const steps = runs.map((run, i) => stepOf(run, i + 1, 'ramp', settings.start + i * settings.step, { connectionCap: null }));
  return { format: CAPACITY_FORMAT, version: CAPACITY_VERSION, startedAt: '', base: testConfig({ connections: 100, workers: 2 }), settings, client: 'test', connectionCap: null, running: false, steps, finding: findingOf(steps) };
}

describe('the capacity chart', () => {
  it('draws the tier whose published rate is the first at or above the highest step, a gap where nothing arrived', () => {
    const settings: CapacitySettings = { ramp: 'rate', start: 500, step: 500, max: 1_500, stepSec: 3, settleSec: 1, bisectSteps: 0 };
    const data = loadChartData(result(settings, [
      stepRun({ config: { connections: 100, workers: 2, sendIntervalMs: 100 }, planned: 100, underOneSecond: 0, late: 0 }),
      stepRun({ config: { connections: 100, workers: 2, sendIntervalMs: 200 }, p99Ms: 8 }),
    ]));
    // Sorted by load: the 500 msg/s step first though it ran second.
    expect(data.load).toEqual([500, 1_000]);
    expect(data.steps).toEqual([2, 1]);
    expect(data.p99Ms).toEqual([8, null]);
    // The current edition's echo: Unit1 1,000 msg/s in, Unit2 2,000.
    expect(data.tierLine).toEqual({ tier: 'Unit1', value: 1_000 });
  });

  it('draws the tiers\' connection counts on a connection ramp', () => {
    const settings: CapacitySettings = { ramp: 'connections', start: 100, step: 100, max: 500, stepSec: 3, settleSec: 1, bisectSteps: 0 };
    expect(loadChartData(result(settings, [])).tierLine).toEqual({ tier: 'Unit1', value: 1_000 });
  });
});
