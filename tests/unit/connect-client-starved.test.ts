/**
 * A connect that times out while the engine's own event loop is starved is the client's
 * (`clientStarved`), not the hub's (`timedOut`), on a fake clock: the pool's own timers (its looks
 * once a second, each connect's time limit) see the loop stalled by how late they run, and the
 * time-out is weighed against the stall within its time limit (core/client/connect-causes.ts).
 */
import { describe, expect, it } from 'vitest';
import { CONNECT_TIMEOUT_MS, validateRunConfig, type RunConfig } from '../../core/run-config/config.ts';
import { CONNECT_CAUSES, STARVED_SHARE, causesText, failuresOfSide, sideOfCause, timeOutCause } from '../../core/client/connect-causes.ts';
import { clientLimitReasons } from '../../core/client/own-limits.ts';
import { EventLoopStalls, MIN_STALL_MS } from '../../workers/engine/worker-stats.ts';
import { fakeRun } from '../support/fake-run.ts';

function config(overrides: Partial<RunConfig>): RunConfig {
  const result = validateRunConfig({ endpointUrl: 'http://fake/signalrbench', durationSec: 2, ...overrides });
  if (!result.ok) throw new Error(result.errors.join('\n'));
  return result.config;
}

/**
 * Two connects at once: the first opens in 10 ms (so the hub has answered, and the pool waits out
 * the other's own time limit), the second is never answered. 2.5 s in, the engine's thread is busy
 * for `busyMs` (the clock moves, no timer runs), then the run goes on to its end.
 */
async function timeOutWhileBusy(busyMs: number) {
  const run = fakeRun(config({ connections: 2, workers: 1, connectConcurrency: 2 }), { deliveryDelayMs: 1, startDelayMs: 10, hangStart: (id) => id === 1 });
  const { time, coordinator } = run;
  coordinator.start();
  await time.advanceByMs(2_500);
  time.jumpByMs(busyMs);
  await time.advanceByMs(CONNECT_TIMEOUT_MS + 30_000);
  expect(coordinator.phase).toBe('done');
  expect(coordinator.aggregator.totals()).toMatchObject({ connectionsOpened: 1, connectionsFailed: 1 });
  const causes = coordinator.aggregator.connectCauses();
  const messages = coordinator.aggregator.errorSamples().map((s) => s.message).join('\n');
  const clientLimits = clientLimitReasons({ connections: 2, connectionsFailed: 1, connectCauses: causes, workers: [{ lost: false }], workerFailures: [] });
  return { causes, messages, clientLimits };
}

describe('a connect time-out while the engine itself is starved', () => {
  it('stalled 9 s of its 15 s (the look due at 3 s runs at 11.5 s): the client\'s, named in its limits', async () => {
    const { causes, messages, clientLimits } = await timeOutWhileBusy(9_000);
    expect(causes).toEqual({ clientStarved: 1 });
    expect(failuresOfSide(causes, 'service')).toBe(0);
    expect(failuresOfSide(causes, 'client')).toBe(1);
    expect(messages).toMatch(/did not open within 15 s, timed out while this client's own event loop was stalled 8,500 ms of that time: an answer may have come in time and sat unread, so this is the client's limit, not the hub's/);
    expect(clientLimits).toEqual(['could not open 1 connection for want of its own resources (1 timed out while this client\'s own event loop was stalled for over 50% of the connect time limit)']);
  });

  it('stalled 4.5 s of its 15 s: the hub had most of the limit to answer, so the time-out is still the hub\'s', async () => {
    const { causes, messages, clientLimits } = await timeOutWhileBusy(5_000);
    expect(causes).toEqual({ timedOut: 1 });
    expect(failuresOfSide(causes, 'service')).toBe(1);
    expect(messages).toMatch(/did not open within 15 s\. The server accepted nothing in that time/);
    expect(clientLimits).toEqual([]);
  });

  it('never stalled: the hub\'s, as before', async () => {
    const { causes } = await timeOutWhileBusy(0);
    expect(causes).toEqual({ timedOut: 1 });
  });
});

describe('the rule and its words', () => {
  it('timeOutCause: past STARVED_SHARE of the time limit stalled, the client\'s', () => {
    expect(STARVED_SHARE).toBe(0.5);
    expect(timeOutCause(0, 15_000)).toBe('timedOut');
    expect(timeOutCause(7_500, 15_000)).toBe('timedOut');
    expect(timeOutCause(7_501, 15_000)).toBe('clientStarved');
    expect(timeOutCause(15_000, 15_000)).toBe('clientStarved');
  });

  it('clientStarved is a cause of the client\'s with its own words; every cause has a side and words', () => {
    expect(CONNECT_CAUSES).toContain('clientStarved');
    expect(sideOfCause('clientStarved')).toBe('client');
    expect(sideOfCause('timedOut')).toBe('service');
    expect(causesText({ clientStarved: 3, timedOut: 2 }, 'client')).toBe('3 timed out while this client\'s own event loop was stalled for over 50% of the connect time limit');
    for (const cause of CONNECT_CAUSES) {
      expect(['client', 'service', 'unknown']).toContain(sideOfCause(cause));
      expect(causesText({ [cause]: 1 })).toMatch(/^1 \S/);
    }
  });
});

describe('EventLoopStalls', () => {
  const T = 1_700_000_000_000_000;
  const s = (ms: number) => T + ms * 1_000;

  it('counts the stretches its timers ran late within a window, overlapping ones once', () => {
    const stalls = new EventLoopStalls();
    // A look due at 3 s ran at 11.5 s; a time limit due at 10 s ran then too (the same stall).
    stalls.timerRan(s(3_000), s(11_500));
    stalls.timerRan(s(10_000), s(11_500));
    stalls.timerRan(s(20_000), s(21_000));
    expect(stalls.stalledMs(s(0), s(15_000))).toBe(8_500);
    // Clipped to the window on both ends.
    expect(stalls.stalledMs(s(5_000), s(10_000))).toBe(5_000);
    expect(stalls.stalledMs(s(0), s(30_000))).toBe(9_500);
    expect(stalls.stalledMs(s(12_000), s(19_000))).toBe(0);
  });

  it('ignores timers late by less than MIN_STALL_MS, and forgets stalls older than two connect time limits', () => {
    const stalls = new EventLoopStalls();
    stalls.timerRan(s(0), s(MIN_STALL_MS - 1));
    expect(stalls.stalledMs(s(0), s(1_000))).toBe(0);
    stalls.timerRan(s(1_000), s(3_000));
    expect(stalls.stalledMs(s(0), s(5_000))).toBe(2_000);
    stalls.timerRan(s(3_000 + 2 * CONNECT_TIMEOUT_MS + 1), s(3_000 + 2 * CONNECT_TIMEOUT_MS + 101));
    expect(stalls.stalledMs(s(0), s(5_000))).toBe(0);
  });
});
