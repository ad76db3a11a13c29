/** A capacity search over several hub instances puts a break on the instance that broke. */
import { describe, expect, it } from 'vitest';
import { CapacitySearch, type StepRunner } from '../../../core/capacity/capacity-search.ts';
import { capacityAnswer } from '../../../core/capacity/answer.ts';
import { instancesThatBroke } from '../../../core/capacity/capacity-result.ts';
import { plannedSendRate, type CapacitySettings } from '../../../core/capacity/settings.ts';
import type { InstanceFigures } from '../../../core/run-config/hub-instances.ts';
import { FakeTime } from '../../support/fake-time.ts';
import { testConfig } from '../../support/finished-run.ts';
import { stepRun } from '../../support/step-run.ts';

const A = 'http://127.0.0.1:6101/signalrbench';
const B = 'http://127.0.0.1:6102/signalrbench';
const base = testConfig({ connections: 100, workers: 1, sendIntervalMs: 1_000, durationSec: 4, endpointUrls: [A, B] });
const settings: CapacitySettings = { ramp: 'rate', start: 200, step: 200, max: 600, stepSec: 4, settleSec: 1, bisectSteps: 0 };

function instance(endpointUrl: string, planned: number, underOneSecond: number): InstanceFigures {
  return { endpointUrl, connectionsPlanned: 50, connectionsOpened: 50, connectionsFailed: 0, planned, underOneSecond, late: planned - underOneSecond, afterDrain: 0, notArrived: 0, p99Us: 1_200_000 };
}

describe('a break over several instances', () => {
  it('is put on the instance whose receptions fell below the rule, named in the answer', async () => {
    const runner: StepRunner = async (config) => (plannedSendRate(config) > 300
      ? stepRun({ config, underOneSecond: 800, late: 200, p99Ms: 1_400, run: { instances: [instance(A, 500, 500), instance(B, 500, 300)] } })
      : stepRun({ config, run: { instances: [instance(A, 500, 500), instance(B, 500, 500)] } }));
    const time = new FakeTime();
    const done = new CapacitySearch(base, settings, runner, { client: { name: 'test', connectionCap: null }, clock: time, timers: time }).run();
    for (let i = 0; i < 20; i++) await time.advanceByMs(1_000);
    const result = await done;
    const broke = result.steps.find((s) => s.index === result.finding.brokeStep)!;
    expect(broke.instances).toHaveLength(2);
    expect(instancesThatBroke(broke, 0.99).map((i) => i.endpointUrl)).toEqual([B]);
    expect(capacityAnswer(result).brokeLine).toMatch(new RegExp(`^Broke at step 2 \\(.*\\), because of the service on instance 2, ${B.replace(/[.:/]/g, '\\$&')} \\(60\\.00% under 1 s\\):`));
  });

  it('says every instance when each fell below it, and nothing for one instance', () => {
    expect(instancesThatBroke({ instances: [instance(A, 10, 5), instance(B, 10, 2)] }, 0.99).map((i) => i.endpointUrl)).toEqual([B, A]);
    expect(instancesThatBroke({}, 0.99)).toEqual([]);
  });
});
