/**
 * Combinations compared by what each holds (core/compare/held-comparison.ts): capacity searches on
 * one ramp against fake services of known capacity, on a fake clock.
 */
import { describe, expect, it } from 'vitest';
import { CapacitySearch, type StepRunner } from '../../core/capacity/capacity-search.ts';
import { plannedSendRate, type CapacitySettings } from '../../core/capacity/settings.ts';
import { heldComparison } from '../../core/compare/held-comparison.ts';
import { FakeTime } from '../support/fake-time.ts';
import { testConfig } from '../support/finished-run.ts';
import { stepRun } from '../support/step-run.ts';

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

describe('comparing combinations by what each holds', () => {
  it('names the one that holds more than a step above the other, each with its break', async () => {
    const ws = await search(rate(), service(1_500));
    const lp = await search(rate(), service(600));
    const verdict = heldComparison([{ label: 'Long Polling + JSON', result: lp }, { label: 'WebSockets + JSON', result: ws }]);
    expect(verdict.kind).toBe('best');
    expect(verdict.bestIndexes).toEqual([1]);
    expect(verdict.rows.map((r) => r.exact)).toEqual([true, true]);
    expect(verdict.rows[1]!.heldLoad! - verdict.rows[0]!.heldLoad!).toBeGreaterThan(200);
    expect(verdict.sentence).toMatch(/^Holds the most: WebSockets \+ JSON, 1,\d{3} msg\/s, more than a step \(200 msg\/s\) above the others \(Long Polling \+ JSON: \d{3} msg\/s, the service broke first, between \d{3} and \d{3} msg\/s\)\.$/);
    expect(verdict.rows[0]!.broke).toMatch(/^The service broke first, between/);
  });

  it('calls loads within one step of each other too close', async () => {
    const a = await search(rate(), service(1_100));
    const b = await search(rate(), service(1_000));
    const verdict = heldComparison([{ label: 'a', result: a }, { label: 'b', result: b }]);
    expect(verdict.kind).toBe('too-close');
    expect(verdict.bestIndexes.sort()).toEqual([0, 1]);
    expect(verdict.sentence).toMatch(/^Too close to call: a held 1,\d{3} msg\/s, b held 1,\d{3} msg\/s: no more than one step \(200 msg\/s\) apart\.$/);
  });

  it('names nobody over a search whose client broke first: that load is only a lower bound', async () => {
    const high = await search(rate(), service(1_900));
    const clientBound = await search(rate(), service(10_000, 800));
    const verdict = heldComparison([{ label: 'high', result: high }, { label: 'client', result: clientBound }]);
    expect(verdict.rows[1]!.exact).toBe(false);
    expect(verdict.kind).toBe('none');
    expect(verdict.sentence).toMatch(/^No winner: client held at least \d{3} msg\/s, its service's limit not found \(this client broke first, between \d{3} and \d{3} msg\/s\)\. high held 1,900 msg\/s\.$/);
  });

  it('needs one ramp for all', async () => {
    const a = await search(rate(), service(1_000));
    const b = await search(rate({ step: 100 }), service(1_000));
    expect(heldComparison([{ label: 'a', result: a }, { label: 'b', result: b }])).toMatchObject({ kind: 'none', sentence: 'The searches ramped differently: run them on one ramp to compare what each holds.' });
  });
});
