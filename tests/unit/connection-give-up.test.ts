/**
 * Failing fast by evidence, on a fake clock: with none open, the first connects all failing or
 * none answering ends the run as failed in seconds, whatever the connection count, and every
 * planned connection is counted; a slow hub, or one connect that opens, is never given up on.
 */
import { describe, expect, it } from 'vitest';
import { CONNECTS_UNANSWERED_MS, FIRST_ANSWER_MS, GIVE_UP_AFTER_FAILURES, validateRunConfig, type RunConfig } from '../../core/run-config/config.ts';
import { fakeRun } from '../support/fake-run.ts';
import { failuresOfSide } from '../../core/client/connect-causes.ts';
import { runLimit } from '../../core/result/limit.ts';

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

describe('a hub that answers late, and one that stops answering mid-ramp', () => {
  it('a hub just started on a loaded machine, answering its first connects after 8 s, is not called stalled; a frozen one is, in under 15 s', async () => {
    expect(FIRST_ANSWER_MS).toBeGreaterThan(8_000);
    expect(FIRST_ANSWER_MS).toBeLessThan(15_000);
    const { time, coordinator } = fakeRun(config({ connections: 4, workers: 1, durationSec: 2 }), { deliveryDelayMs: 1, startDelayMs: 8_000 });
    coordinator.start();
    await time.advanceByMs(30_000);
    expect(coordinator.outcome).toEqual({ kind: 'finished' });
    expect(coordinator.aggregator.totals()).toMatchObject({ connectionsOpened: 4, connectionsFailed: 0 });
  });

  it('a look that fires late (a busy thread) judges nothing: an answer queued behind it still counts', async () => {
    const { time, coordinator } = fakeRun(config({ connections: 1, workers: 1, durationSec: 2 }), { deliveryDelayMs: 1, startDelayMs: FIRST_ANSWER_MS + 500 });
    coordinator.start();
    await time.advanceByMs(FIRST_ANSWER_MS - 500);
    // The thread is busy for 2.5 s: the look due at FIRST_ANSWER_MS runs 2 s late, before the answer queued behind it.
    time.jumpByMs(2_500);
    await time.advanceByMs(30_000);
    expect(coordinator.outcome).toEqual({ kind: 'finished' });
    expect(coordinator.aggregator.totals()).toMatchObject({ connectionsOpened: 1, connectionsFailed: 0 });
  });

  it('a hub whose connects keep answering, each in 10 s (under the bound), is never given up', async () => {
    const { time, coordinator } = fakeRun(config({ connections: 10, workers: 1, connectConcurrency: 2, durationSec: 2 }), { deliveryDelayMs: 1, startDelayMs: 10_000 });
    coordinator.start();
    await time.advanceByMs(120_000);
    expect(coordinator.outcome).toEqual({ kind: 'finished' });
    expect(coordinator.aggregator.totals()).toMatchObject({ connectionsOpened: 10, connectionsFailed: 0 });
  });

  it('frozen 1.2 s into 400 connects at 2 in flight: a connect time-out after the last answer the rest are counted not opened, the hub\'s, and the run goes on to its window with every planned reception owed', async () => {
    const FREEZE_MS = 1_200;
    let startUs = 0;
    // Each connect answers in 10 ms until the freeze; after it, no connect is ever answered.
    const run = fakeRun(config({ connections: 400, workers: 1, connectConcurrency: 2, sendIntervalMs: 1_000, durationSec: 2, warmupSec: 0 }), { deliveryDelayMs: 1, startDelayMs: 10, hangStart: () => run.time.nowUs() - startUs >= FREEZE_MS * 1_000 });
    const { time, coordinator } = run;
    startUs = time.nowUs();
    coordinator.start();
    await time.advanceByMs(FREEZE_MS + CONNECTS_UNANSWERED_MS - 1_000);
    expect(coordinator.phase).toBe('connecting');
    // Bounded: the last answer came at about 1.2 s; one look (1 s) after a whole connect time-out, it goes on.
    await time.advanceByMs(2_000);
    expect(coordinator.phase).not.toBe('connecting');
    await time.advanceByMs(30_000);
    expect(coordinator.phase).toBe('done');
    expect(coordinator.outcome).toEqual({ kind: 'finished' });
    const totals = coordinator.aggregator.totals();
    expect(totals.connectionsOpened).toBeGreaterThan(100);
    expect(totals.connectionsOpened).toBeLessThan(400);
    expect(totals.connectionsOpened + totals.connectionsFailed).toBe(400);
    // Every connect not opened has its cause, the service's: the 2 in flight at the freeze ran out
    // their own time limit, the rest were not tried because the hub had stopped answering.
    const causes = coordinator.aggregator.connectCauses();
    expect(causes.timedOut ?? 0).toBeLessThanOrEqual(2);
    expect(causes.stoppedAnswering).toBe(totals.connectionsFailed - (causes.timedOut ?? 0));
    expect(failuresOfSide(causes, 'service')).toBe(totals.connectionsFailed);
    // The limit names the service: it stopped answering connects while the client kept its schedule.
    const limit = runLimit({ points: coordinator.aggregator.points(), missedSlots: totals.missedSlots, sent: totals.sent, connectCauses: causes });
    expect(limit.side).toBe('server');
    expect(limit.sentence).toMatch(/^The server stopped answering connects mid-ramp \(\d+ connections not opened for it\) while the client kept its schedule/);
    expect(coordinator.aggregator.errorSamples().map((e) => e.message).join('\n')).toMatch(/were not tried: the hub stopped answering connects: none answered for 1[5-6] s \(a whole connect time limit\) after \d+ of this worker's 400 had opened/);
    // Planned from the configuration: 400 connections x 2 slots (1 s for 2 s), opened or not.
    const fates = coordinator.aggregator.settledFates(true);
    expect(fates.planned).toBe(800);
    expect(fates.notSent.disconnected).toBe(2 * totals.connectionsFailed);
    expect(fates.underOneSecond).toBe(2 * totals.connectionsOpened);
    expect(time.pendingTimers).toBe(0);
  });
});
