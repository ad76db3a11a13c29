/**
 * The capacity answer as a room reads it (core/capacity/stage.ts) and the load-against-p99 chart's
 * data (step-chart.ts loadChartData), from searches run against a fake service on a fake clock.
 */
import { describe, expect, it } from 'vitest';
import { CapacitySearch, type StepRunner } from '../../../core/capacity/capacity-search.ts';
import { capacityAnswer } from '../../../core/capacity/answer.ts';
import { capacityStage } from '../../../core/capacity/stage.ts';
import { loadChartData } from '../../../core/capacity/step-chart.ts';
import { stepByIndex } from '../../../core/capacity/capacity-result.ts';
import { plannedSendRate, type CapacitySettings } from '../../../core/capacity/settings.ts';
import { FakeTime } from '../../support/fake-time.ts';
import { testConfig } from '../../support/finished-run.ts';
import { stepRun } from '../../support/step-run.ts';

const base = testConfig({ connections: 100, workers: 2, sendIntervalMs: 1_000, messageBytes: 2_048, durationSec: 4 });
const rate = (over: Partial<CapacitySettings> = {}): CapacitySettings => ({ ramp: 'rate', start: 200, step: 200, max: 2_000, stepSec: 4, settleSec: 1, bisectSteps: 2, ...over });

/** A service that holds `capacity` msg/s; above it 5% come late. At `clientBreaksAt` the client stalls instead. */
function service(capacity: number, clientBreaksAt = Infinity): StepRunner {
  return async (config) => {
    const load = plannedSendRate(config);
    const over = load > capacity || load >= clientBreaksAt;
    return stepRun({ config, planned: 1_000, underOneSecond: over ? 950 : 1_000, late: over ? 50 : 0, p99Ms: over ? 1_300 : 12, lagMs: load >= clientBreaksAt ? 500 : 3 });
  };
}

async function search(settings: CapacitySettings, runner: StepRunner) {
  const time = new FakeTime();
  const s = new CapacitySearch(base, settings, runner, { client: { name: 'test client', connectionCap: null }, clock: time, timers: time });
  const done = s.run();
  for (let i = 0; i < 20; i++) await time.advanceByMs(1_000);
  return done;
}

describe('the capacity answer on stage', () => {
  it('a service-limited search: what held with its tier share, then where the service broke', async () => {
    const result = await search(rate(), service(1_100));
    const stage = capacityStage(result);
    const held = stepByIndex(result, result.finding.heldStep)!;
    const share = capacityAnswer(result).tiers[0]!;
    expect(stage.title).toBe(`Holds ${held.heldPerSec.toLocaleString('en-US', { maximumFractionDigits: 0 })} msg/s of 2.0 KB echo: ${Math.round(share.ratio! * 100)}% of ${share.tier}.`);
    // The loads as planned: 1,100 and 1,150 msg/s after rounding the send interval to whole ms.
    expect(stage.broke).toBe('The service broke first, between 1,099 and 1,149 msg/s.');
    expect(stage.tone).toBe('good');
  });

  it('mid-search says "so far" and never that every step held up to the maximum', async () => {
    const ended = await search(rate({ max: 600 }), service(10_000));
    expect(ended.finding.kind).toBe('atLeastMax');
    const running = { ...ended, running: true };
    expect(capacityStage(running).title).toMatch(/^So far holds [\d,]+ msg\/s of 2\.0 KB echo/);
    expect(capacityStage(running).broke).toBe('Nothing has broken yet.');
    expect(capacityStage(running).tone).toBe('neutral');
    expect(capacityAnswer(running).headline).not.toMatch(/maximum/);
    // Once it has ended, it is the answer.
    expect(capacityStage(ended).title).toMatch(/^Holds at least [\d,]+ msg\/s .*: every step held\.$/);
    expect(capacityStage(ended).broke).toBe('Nothing broke up to the maximum, 600 msg/s: raise it to find the limit.');
    expect(capacityAnswer(ended).headline).toContain('raise the maximum');
  });

  it('a client-limited search never names the load as the service\'s capacity', async () => {
    const result = await search(rate(), service(10_000, 1_000));
    expect(result.finding.limitedBy).toBe('client');
    const stage = capacityStage(result);
    expect(stage.title).toMatch(/^This client held [\d,]+ msg\/s of 2\.0 KB echo.*; the service's capacity is higher or unknown\.$/);
    expect(stage.broke).toMatch(/^This client broke first, between [\d,]+ and [\d,]+ msg\/s/);
    expect(stage.tone).toBe('warn');
  });

  it('the chart puts load on x in ascending order, so bisect steps never go back, and marks the steps that broke', async () => {
    const result = await search(rate(), service(1_100));
    // Run as 200 … 1,200, then 1,100 and 1,150 (bisect) and 1,150 again (confirm); planned after rounding the interval.
    expect(result.steps.map((s) => Math.round(s.plannedSendsPerSec))).toEqual([200, 400, 599, 800, 1_000, 1_205, 1_099, 1_149, 1_149]);
    const data = loadChartData(result);
    expect(data.load.map(Math.round)).toEqual([200, 400, 599, 800, 1_000, 1_099, 1_149, 1_149, 1_205]);
    expect(data.steps).toEqual([1, 2, 3, 4, 5, 7, 8, 9, 6]);
    expect(data.p99Ms).toEqual([12, 12, 12, 12, 12, 12, 1_300, 1_300, 1_300]);
    expect(data.brokeP99Ms).toEqual([null, null, null, null, null, null, 1_300, 1_300, 1_300]);
    // The current edition's echo: Unit2 publishes 2,000 msg/s, the first tier above 1,205.
    expect(data.tierLine).toEqual({ tier: 'Unit2', value: 2_000 });
  });
});
