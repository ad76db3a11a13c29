/**
 * Failing fast by evidence, on a fake clock: with none open, the first connects all failing or
 * none answering ends the run as failed in seconds, whatever the connection count, and every
 * planned connection is counted; a slow hub, or one connect that opens, is never given up on.
 */
import { describe, expect, it } from 'vitest';
import { FIRST_ANSWER_MS, GIVE_UP_AFTER_FAILURES, validateRunConfig, type RunConfig } from '../../core/run/config.ts';
import { fakeRun } from '../support/fake-run.ts';

function config(overrides: Partial<RunConfig>): RunConfig {
  const result = validateRunConfig({ endpointUrl: 'http://fake/signalrbench', durationSec: 60, ...overrides });
  if (!result.ok) throw new Error(result.errors.join('\n'));
  return result.config;
}

const everyOne = (count: number) => new Set(Array.from({ length: count }, (_, i) => i));
const REFUSED = 'Failed to complete negotiation with the server: TypeError: fetch failed (ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9)';

describe('giving up when nothing can open', () => {
  it('20,000 refused connects: the first 16 decide, the rest are not tried but counted as failed', async () => {
    const { time, hub, coordinator } = fakeRun(config({ connections: 20_000, workers: 1 }), { deliveryDelayMs: 1, failStart: everyOne(20_000), failStartMessage: REFUSED });
    coordinator.start();
    await time.advanceByMs(1_100);
    expect(coordinator.phase).toBe('done');
    expect(coordinator.outcome).toMatchObject({ kind: 'failed', reason: expect.stringContaining('ECONNREFUSED') });
    const started = hub.connections.filter((c) => c.stopped || c.isOpen).length;
    expect(started).toBeLessThanOrEqual(GIVE_UP_AFTER_FAILURES + 8);
    expect(coordinator.aggregator.totals()).toMatchObject({ connectionsOpened: 0, connectionsFailed: 20_000 });
    const messages = coordinator.aggregator.errorSamples().map((s) => s.message);
    expect(messages.some((m) => /connections were not tried: the first 16 connects were all refused \(nothing accepts connections there\) and none opened/.test(m))).toBe(true);
  });

  it('other failures give up the same way, worded as failures, with every worker deciding on its own evidence', async () => {
    const { time, coordinator } = fakeRun(config({ connections: 1_000, workers: 2 }), { deliveryDelayMs: 1, failStart: everyOne(1_000) });
    coordinator.start();
    await time.advanceByMs(1_100);
    expect(coordinator.phase).toBe('done');
    expect(coordinator.aggregator.totals().connectionsFailed).toBe(1_000);
    expect(coordinator.aggregator.errorSamples().some((s) => /the first 16 connects all failed and none opened/.test(s.message))).toBe(true);
  });

  it('a hub that never answers (frozen): the connects in flight are abandoned after FIRST_ANSWER_MS, not 15 s', async () => {
    const { time, coordinator } = fakeRun(config({ connections: 5_000, workers: 1, durationSec: 5 }), { deliveryDelayMs: 1, hangStart: () => true });
    coordinator.start();
    await time.advanceByMs(FIRST_ANSWER_MS - 100);
    expect(coordinator.phase).toBe('connecting');
    await time.advanceByMs(1_200);
    expect(coordinator.phase).toBe('done');
    expect(coordinator.outcome).toMatchObject({ kind: 'failed', reason: expect.stringContaining(`no connect answered within ${FIRST_ANSWER_MS / 1_000} s and none opened: the hub is stalled`) });
    expect(coordinator.aggregator.totals()).toMatchObject({ connectionsOpened: 0, connectionsFailed: 5_000 });
  });

  it('a slow but healthy hub (4 s a connect, 8 at a time) is never given up on', async () => {
    const { time, coordinator } = fakeRun(config({ connections: 40, workers: 1, durationSec: 2 }), { deliveryDelayMs: 1, startDelayMs: 4_000 });
    coordinator.start();
    await time.advanceByMs(60_000);
    expect(coordinator.phase).toBe('done');
    expect(coordinator.outcome).toEqual({ kind: 'finished' });
    expect(coordinator.aggregator.totals()).toMatchObject({ connectionsOpened: 40, connectionsFailed: 0 });
  });

  it('one connect that opens among the first failures keeps every other connect tried', async () => {
    const failing = everyOne(100);
    failing.delete(3);
    const { time, coordinator } = fakeRun(config({ connections: 100, workers: 1, durationSec: 2 }), { deliveryDelayMs: 1, failStart: failing });
    coordinator.start();
    await time.advanceByMs(60_000);
    expect(coordinator.phase).toBe('done');
    expect(coordinator.outcome.kind).toBe('finished');
    expect(coordinator.aggregator.totals()).toMatchObject({ connectionsOpened: 1, connectionsFailed: 99 });
    expect(coordinator.aggregator.errorSamples().some((s) => /not tried/.test(s.message))).toBe(false);
  });
});
