/**
 * A planned drop through the engine, on a fake clock with fake connections that reconnect a
 * fixed time after their transport is cut: which connections drop and when, the time to
 * reconnect, the receptions each gap costs (exactly the slots in the gap), and group rejoins.
 */
import { describe, expect, it } from 'vitest';
import { expectedGapReceptions } from '../support/drop-slots.ts';
import { isDropped } from '../../core/drops/drop-schedule.ts';
import { notSentOf } from '../../core/accounting/fates.ts';
import { validateRunConfig, type RunConfig } from '../../core/run-config/config.ts';
import { runResult } from '../../core/result/document.ts';
import { fakeRun } from '../support/fake-run.ts';

function config(overrides: Partial<RunConfig>): RunConfig {
  const result = validateRunConfig({ endpointUrl: 'http://fake/signalrbench', reconnect: true, ...overrides });
  if (!result.ok) throw new Error(result.errors.join('\n'));
  return result.config;
}

describe('a planned network drop', () => {
  it('drops exactly the share at the drop second; each gap costs exactly its slots, never sent while reconnecting', async () => {
    const run = config({ connections: 4, workers: 2, sendIntervalMs: 100, durationSec: 4, dropAtSec: 1, dropSharePercent: 50 });
    const { time, coordinator } = fakeRun(run, { deliveryDelayMs: 7, reconnectAfterMs: 500 });
    coordinator.start();
    await time.advanceByMs(30_000);
    const result = runResult(coordinator, new Date(0), 'test');
    const dropped = [0, 1, 2, 3].filter((i) => isDropped(i, 4, 50));
    expect(dropped).toEqual([1, 3]);
    const drops = result.drops!;
    expect(drops.totals).toMatchObject({ dropped: 2, reconnected: 2, resumed: 0, gaveUp: 0 });
    expect(drops.neverBack).toBe(0);
    // Every gap lasted the fake client's 500 ms (HdrHistogram keeps 3 significant digits).
    expect(drops.reconnectTimes.count).toBe(2);
    expect(drops.reconnectTimes.p50Us).toBeGreaterThanOrEqual(499_000);
    expect(drops.reconnectTimes.maxUs).toBeLessThanOrEqual(501_000);
    // Connection i's slots start i/4 of an interval into the sends; the drop is 1 s in.
    const sendStartUs = coordinator.sendWindowUs.startUs;
    const gapCost = dropped.reduce((sum, i) => sum + expectedGapReceptions([{ firstUs: sendStartUs + (i / 4) * 100_000 }], 100_000, Infinity, sendStartUs + 1_000_000, sendStartUs + 1_500_000), 0);
    expect(gapCost).toBe(10);
    expect(result.fates.notSent.reconnecting).toBe(gapCost);
    expect(notSentOf(result.fates)).toBe(gapCost);
    expect(result.fates).toMatchObject({ planned: 160, lost: 0, underOneSecond: 160 - gapCost });
    expect(result.verdict.status).toBe('fail');
  });

  it('small groups: each reconnected member joins its group again, counted, and hears its group after', async () => {
    const run = config({ scenario: 'smallGroup', connections: 20, workers: 1, sendIntervalMs: 100, durationSec: 3, dropAtSec: 1, groupSize: 10 });
    const { time, hub, coordinator } = fakeRun(run, { deliveryDelayMs: 2, reconnectAfterMs: 300 });
    coordinator.start();
    await time.advanceByMs(30_000);
    const drops = runResult(coordinator, new Date(0), 'test').drops!;
    expect(drops.totals).toMatchObject({ dropped: 20, reconnected: 20, rejoined: 20, rejoinFailed: 0 });
    expect(hub.connections.every((c) => c.groups.size === 1)).toBe(true);
  });
});
