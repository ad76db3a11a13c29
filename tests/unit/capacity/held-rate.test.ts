/** A step's "held" rate is the load it offered and kept, never above it; the tier share comes from it. */
import { describe, expect, it } from 'vitest';
import { capacityAnswer } from '../../../core/capacity/answer.ts';
import { findingOf, stepOf, type CapacityResult } from '../../../core/capacity/capacity-result.ts';
import { emptyFates } from '../../../core/accounting/fates.ts';
import { testConfig } from '../../support/finished-run.ts';
import { stepRun } from '../../support/step-run.ts';

const config = testConfig({ connections: 100, workers: 1, sendIntervalMs: 100, durationSec: 5, warmupSec: 1 });
const node = { connectionCap: null };

/**
 * 1,000 msg/s offered for 4 measured seconds, every reception in under 1 s; the lagging client
 * bunched its sends so that the whole seconds the mean is taken over read 1,036 msg/s.
 */
function bunchedRun() {
  const run = stepRun({ config, planned: 4_000, underOneSecond: 4_000 });
  const received = [600, 1_036, 1_036, 1_036, 292];
  run.points = received.map((n, i) => ({ ...run.points[0]!, second: i + 1, sent: n, received: n, fates: { ...emptyFates(), planned: 800 } }));
  return run;
}

describe('the held rate', () => {
  it('is never above the offered load, even when the whole seconds read more', () => {
    const step = stepOf(bunchedRun(), 1, 'ramp', 1_000, node);
    expect(step.receivedPerSec).toBeGreaterThan(1_000);
    expect(step.offeredPerSec).toBe(1_000);
    expect(step.heldPerSec).toBe(1_000);
    expect(step.heldSendsPerSec).toBe(1_000);
  });

  it('is what arrived in under 1 s when less than the offered load was kept', () => {
    const step = stepOf(stepRun({ config, planned: 4_000, underOneSecond: 3_000, late: 1_000 }), 1, 'ramp', 1_000, node);
    expect(step.heldPerSec).toBe(750);
  });

  it('the headline and the tier share are taken from it', () => {
    const held = stepOf(bunchedRun(), 1, 'ramp', 1_000, node);
    const broke = stepOf(stepRun({ config, planned: 4_000, underOneSecond: 3_000, late: 1_000, p99Ms: 1_500 }), 2, 'ramp', 2_000, node);
    const steps = [held, broke];
    const result: CapacityResult = {
      format: 'signalr-live-bench/capacity', version: 2, startedAt: 'x', base: config,
      settings: { ramp: 'rate', start: 1_000, step: 1_000, max: 2_000, stepSec: 5, settleSec: 1, bisectSteps: 0 },
      client: 'test', connectionCap: null, running: false, steps, finding: findingOf(steps),
    };
    const answer = capacityAnswer(result);
    expect(answer.headline).toMatch(/^Held 1,000 msg\/s of /);
    // Unit1 publishes 1,000 msg/s for echo in the current edition: exactly 100%, not 104%.
    expect(answer.tiers[0]).toMatchObject({ tier: 'Unit1', ratio: 1 });
  });
});
