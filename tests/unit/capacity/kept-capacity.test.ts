import { describe, expect, it } from 'vitest';
import { CapacitySearch } from '../../../core/capacity/capacity-search.ts';
import type { CapacityResult } from '../../../core/capacity/capacity-result.ts';
import { exportRun, importRuns, type KeptRun } from '../../../core/history/kept-run.ts';
import { MemoryRunDb } from '../../../core/history/db.ts';
import { RunRecorder } from '../../../core/history/recorder.ts';
import { FakeTime } from '../../support/fake-time.ts';
import { finishedRun, testConfig } from '../../support/finished-run.ts';
import { stepRun } from '../../support/step-run.ts';

const now = new Date('2026-03-04T05:06:07.000Z');
const versions = { toolVersion: '0.1.0', signalrClientVersion: '10.0.11' };

async function searchOfTwoSteps(): Promise<CapacityResult> {
  const time = new FakeTime();
  const base = testConfig({ connections: 10, workers: 1 });
  const search = new CapacitySearch(base, { ramp: 'connections', start: 10, step: 10, max: 20, stepSec: 3, settleSec: 1, bisectSteps: 0 }, async (config) => stepRun({ config }), { client: { name: 'test', connectionCap: 255 }, clock: time, timers: time });
  const done = search.run();
  // The pause between steps runs on the fake clock, set once the first step is judged.
  for (let i = 0; i < 5; i++) await time.advanceByMs(1_000);
  return done;
}

describe('a capacity search kept with its steps', () => {
  it('a step exported with its search imports with the same search', async () => {
    const capacity = await searchOfTwoSteps();
    const run: KeptRun = { id: 'run-1', name: 'Capacity step 2', status: 'finished', savedAt: now.toISOString(), ...versions, comparisonId: 'cap-1', capacity, result: await finishedRun() };
    const [back] = importRuns(JSON.stringify(exportRun(run)), now);
    expect(back!.capacity).toEqual(capacity);
    expect(back!.capacity!.steps).toHaveLength(2);
  });

  it('a run kept before capacity searches existed imports with none', async () => {
    const run = { id: 'run-0', name: 'Old', status: 'finished' as const, savedAt: now.toISOString(), ...versions, comparisonId: null, result: await finishedRun() };
    const [back] = importRuns(JSON.stringify(exportRun(run)), now);
    expect(back!.capacity).toBeUndefined();
    expect(back).toEqual(run);
  });

  it('a damaged search in a file says what is wrong', async () => {
    const doc = { ...exportRun({ id: 'r', name: 'n', status: 'finished', savedAt: now.toISOString(), ...versions, comparisonId: null, result: await finishedRun() }) };
    (doc.kept as unknown as Record<string, unknown>).capacity = { format: 'signalr-live-bench/capacity', version: 1, base: {}, settings: {} };
    expect(() => importRuns(JSON.stringify(doc), now)).toThrow(/capacity search has no "steps"/);
  });

  it('the recorder keeps the search on the step\'s record with a head-only write', async () => {
    const db = new MemoryRunDb();
    const recorder = new RunRecorder(db, versions, () => now);
    const result = await finishedRun();
    const id = recorder.begin(result, { name: 'Capacity step 1', comparisonId: 'cap-1' });
    recorder.update(result, true);
    await recorder.flushed();
    const capacity = await searchOfTwoSteps();
    recorder.setCapacity(capacity);
    await recorder.flushed();
    const kept = await db.get(id);
    expect(kept!.capacity).toEqual(capacity);
    expect(kept!.result.points).toEqual(result.points);
    expect(kept!.comparisonId).toBe('cap-1');
  });
});
