/** The one rule for "kept its schedule", over the one window: the sending seconds. */
import { describe, expect, it } from 'vitest';
import { CLIENT_LAG_LIMIT_MS, clientSchedule, sendingSeconds, type ClientSecond } from '../../core/client/schedule.ts';
import { limitOfResult } from '../../core/result/limit.ts';
import { summaryText } from '../../cli/report.ts';
import { stepRun } from '../support/step-run.ts';
import { emptyFates } from '../../core/accounting/fates.ts';

/** Five seconds: connecting (1), sending (2-4), draining (5); `lagAt` lags 300 ms. */
function seconds(lagAt: number | null, lagMs = 300): ClientSecond[] {
  return [1, 2, 3, 4, 5].map((second) => ({ second, maxSendLagMs: 1, eventLoopLagMs: second === lagAt ? lagMs : 2, fates: { planned: second >= 2 && second <= 4 ? 100 : 0 } }));
}

describe('the client kept its schedule', () => {
  it('takes the sending seconds as its window, all seconds when none planned anything', () => {
    expect([...sendingSeconds(seconds(null))]).toEqual([2, 3, 4]);
    expect([...sendingSeconds(seconds(null).map((p) => ({ ...p, fates: { planned: 0 } })))]).toEqual([1, 2, 3, 4, 5]);
  });

  it('a lag while connecting or draining is not held against it; one while sending is', () => {
    expect(clientSchedule({ points: seconds(1), missedSlots: 0, sent: 300 })).toMatchObject({ kept: true, lagMs: 2 });
    expect(clientSchedule({ points: seconds(5), missedSlots: 0, sent: 300 })).toMatchObject({ kept: true, lagMs: 2 });
    expect(clientSchedule({ points: seconds(3), missedSlots: 0, sent: 300 })).toMatchObject({ kept: false, lagMs: 300, reasons: ['lagged 300 ms'] });
  });

  it('a quarter of the 1 s budget late, or more than 1% of its slots missed, and not before', () => {
    expect(clientSchedule({ points: seconds(3, CLIENT_LAG_LIMIT_MS - 1), missedSlots: 3, sent: 300 }).kept).toBe(true);
    expect(clientSchedule({ points: seconds(3, CLIENT_LAG_LIMIT_MS), missedSlots: 0, sent: 300 }).kept).toBe(false);
    expect(clientSchedule({ points: seconds(null), missedSlots: 4, sent: 300 })).toMatchObject({ kept: false, reasons: ['missed 4 send slots (1.33% of its sends)'] });
  });

  it('is unknown, not kept, when no second was reported', () => {
    expect(clientSchedule({ points: [], missedSlots: 0, sent: 0 })).toEqual({ lagMs: null, missedSlots: 0, missedShare: null, kept: null, reasons: [] });
  });

  it('the runner\'s client line and the limit line say the same about the same run', () => {
    // 150 ms of lag and one missed slot of 1,000: kept by the one rule (the runner used to say
    // "could not keep the schedule" for any missed slot while the limit line said it kept it).
    const run = stepRun({ planned: 1_000, lagMs: 150, totals: { missedSlots: 1 } });
    run.points = run.points.map((p) => ({ ...p, fates: { ...emptyFates(), planned: 333 } }));
    const text = summaryText(run);
    expect(text).toContain('Client: worst lag while sending 150.0 ms, sends that missed their slot 1.');
    expect(text).not.toContain('could not keep the schedule');
    expect(limitOfResult(run).side).toBe('unknown');
    const lagged = stepRun({ planned: 1_000, lagMs: 400 });
    expect(summaryText(lagged)).toContain('This client could not keep the schedule (it lagged 400 ms)');
    expect(limitOfResult(lagged).side).toBe('client');
  });
});
