/**
 * The guide's rule over planned receptions, with named cases: only receptions that arrived in
 * under 1 s pass, every planned one counts, and only a finished run can pass.
 */
import { describe, expect, it } from 'vitest';
import { emptyFates, fatesText, FatesRecorder, lostOf, settledFates, type Fates } from '../../core/accounting/fates.ts';
import { EDITIONS, edition } from '../../core/guide/tables.ts';
import { REQUIRED_SHARE, runVerdict, type RunOutcome } from '../../core/outcome/outcome.ts';

function fates(parts: Partial<Omit<Fates, 'notSent'>> & { notSent?: Partial<Fates['notSent']> }): Fates {
  const base = emptyFates();
  return { ...base, ...parts, notSent: { ...base.notSent, ...parts.notSent } };
}

const finished: RunOutcome = { kind: 'finished' };

const cases: { name: string; outcome: RunOutcome; fates: Fates; lostWorkers?: number; duplicated?: number; status: 'pass' | 'fail' | 'none'; says: RegExp[] }[] = [
  {
    name: '1,000 planned, 500 received in time, 500 lost: Fail, 50.00% under 1 s, delivery 50.00%',
    outcome: finished,
    fates: fates({ planned: 1_000, underOneSecond: 500 }),
    status: 'fail',
    says: [/^Fail: only 50\.00% of 1,000 planned receptions/, /delivery 50\.00%: 500 lost/],
  },
  {
    name: '1,000 planned, 995 in time, 5 late: Pass at 99.50%, delivery 100%',
    outcome: finished,
    fates: fates({ planned: 1_000, underOneSecond: 995, late: 5 }),
    status: 'pass',
    says: [/^Pass: 99\.50% of 1,000/, /delivery 100\.00%/],
  },
  {
    name: '1,000 planned, 989 in time, 11 never sent (backed up): Fail, the unsent slots count',
    outcome: finished,
    fates: fates({ planned: 1_000, underOneSecond: 989, notSent: { backedUp: 11 } }),
    status: 'fail',
    says: [/98\.90%/, /11 never sent/],
  },
  {
    name: '1,000 planned, 999 in time, 1 lost: Fail though 99.90% is over the guide\'s 99%, a run that loses messages is not a pass',
    outcome: finished,
    fates: fates({ planned: 1_000, underOneSecond: 999 }),
    status: 'fail',
    says: [/^Fail: not every planned message arrived once \(1 lost\); 99\.90% of 1,000/],
  },
  {
    name: '1,000 planned, 995 in time, 5 never sent while reconnecting: Fail',
    outcome: finished,
    fates: fates({ planned: 1_000, underOneSecond: 995, notSent: { reconnecting: 5 } }),
    status: 'fail',
    says: [/\(5 never sent\)/],
  },
  {
    name: 'all 1,000 in time, but 2 arrived twice: Fail',
    outcome: finished,
    fates: fates({ planned: 1_000, underOneSecond: 1_000 }),
    duplicated: 2,
    status: 'fail',
    says: [/\(2 duplicated\)/],
  },
  {
    name: '1,000 planned, 1,000 in time and 5 never sent: an accounting error fails the run, never clamped away',
    outcome: finished,
    fates: fates({ planned: 1_000, underOneSecond: 1_000, notSent: { writeFailed: 5 } }),
    status: 'fail',
    says: [/^Fail: accounting error: 5 receptions were counted beyond the plan/, /5 counted beyond the plan/],
  },
  {
    name: '1,000 planned, 900 in time, 100 owed to receivers that never connected: Fail, they count',
    outcome: finished,
    fates: fates({ planned: 1_000, underOneSecond: 900, notSent: { receiverAbsent: 100 } }),
    status: 'fail',
    says: [/^Fail: only 90\.00% of 1,000 planned receptions/, /100 never sent/],
  },
  {
    name: '1,000 planned, all in time, but the run was stopped at 10 of 30 s: no verdict',
    outcome: { kind: 'stopped', stoppedAtSec: 10 },
    fates: fates({ planned: 1_000, underOneSecond: 1_000 }),
    status: 'none',
    says: [/^Stopped at 10 of 30 s: no verdict/, /100\.00% of 1,000/],
  },
  {
    name: 'a run interrupted by a reload: no verdict, losses never counted',
    outcome: { kind: 'interrupted' },
    fates: fates({ planned: 1_000, underOneSecond: 400 }),
    status: 'none',
    says: [/^Interrupted/],
  },
  {
    name: 'no connection opened: failed, with the reason',
    outcome: { kind: 'failed', reason: 'no connection could be opened.' },
    fates: emptyFates(),
    status: 'fail',
    says: [/^Failed: no connection could be opened/],
  },
  {
    name: 'all in time, but a worker was lost mid-run: Fail',
    outcome: finished,
    fates: fates({ planned: 1_000, underOneSecond: 1_000 }),
    lostWorkers: 1,
    status: 'fail',
    says: [/1 worker\(s\) were lost/],
  },
  {
    name: 'finished with nothing planned: Fail, never a pass',
    outcome: finished,
    fates: emptyFates(),
    status: 'fail',
    says: [/no message was planned/],
  },
  {
    name: '98.999% under 1 s never reads as 99.00%',
    outcome: finished,
    fates: fates({ planned: 100_000, underOneSecond: 98_999, late: 1_001 }),
    status: 'fail',
    says: [/98\.99%/],
  },
];

describe('runVerdict', () => {
  it.each(EDITIONS)('applies the %s edition\'s stated rule: 99%% of messages under 1 s', (id) => {
    const rule = edition(id).defaults.latencyRule;
    expect(REQUIRED_SHARE).toBe(rule.shareOfMessages);
    expect(rule.underMs).toBe(1000);
  });

  for (const c of cases) {
    it(c.name, () => {
      const verdict = runVerdict({ outcome: c.outcome, fates: c.fates, durationSec: 30, p99Us: 12_000, lostWorkers: c.lostWorkers ?? 0, duplicated: c.duplicated });
      expect(verdict.status).toBe(c.status);
      for (const pattern of c.says) expect(verdict.sentence).toMatch(pattern);
    });
  }

  it('the share and the delivery are over planned receptions', () => {
    const verdict = runVerdict({ outcome: finished, fates: fates({ planned: 1_000, underOneSecond: 500, late: 100 }), durationSec: 30, p99Us: 2_000_000, lostWorkers: 0 });
    expect(verdict.share).toBe(0.5);
    expect(verdict.delivery).toBe(0.6);
  });
});

describe('fates', () => {
  it('lost is unknown until the drain is over, then what no bucket holds', () => {
    const f = fates({ planned: 1_000, underOneSecond: 700, late: 100, afterDrain: 10, notSent: { reconnecting: 40, writeFailed: 10 } });
    expect(lostOf(f, false)).toBeNull();
    expect(lostOf(f, true)).toBe(140);
  });

  it('every planned reception lands in exactly one bucket, per planned second and in total', () => {
    const runStartUs = 1_700_000_000_000_000;
    const recorder = new FatesRecorder(runStartUs);
    // Second 1: 10 planned, 8 arrive in time (one of them in second 3), 1 late, 1 never sent.
    recorder.add(runStartUs + 100_000, 'planned', 10);
    recorder.add(runStartUs + 100_000, 'underOneSecond', 7);
    recorder.add(runStartUs + 999_999, 'late', 1);
    recorder.addNotSent(runStartUs + 500_000, 'backedUp', 1);
    // Second 2: 5 planned, 5 in time.
    recorder.add(runStartUs + 1_000_000, 'planned', 5);
    recorder.add(runStartUs + 1_000_000, 'underOneSecond', 5);
    const first = recorder.take();
    recorder.add(runStartUs + 200_000, 'underOneSecond', 1);
    const second = recorder.take();
    expect(first.map((f) => f.second)).toEqual([1, 2]);
    expect(first[0]).toMatchObject({ second: 1, planned: 10, underOneSecond: 7, late: 1, notSent: { backedUp: 1 } });
    expect(second).toEqual([{ second: 1, ...fates({ underOneSecond: 1 }) }]);
    expect(recorder.totals).toMatchObject({ planned: 15, underOneSecond: 13, late: 1, notSent: { backedUp: 1 } });
    expect(lostOf(recorder.totals, true)).toBe(0);
  });
  it('an excess in one second is an accounting error of its own, never netted against another second\'s loss', () => {
    const first = fates({ planned: 100, underOneSecond: 100, notSent: { writeFailed: 3 } });
    const second = fates({ planned: 100, underOneSecond: 97 });
    const total = fates({ planned: 200, underOneSecond: 197, notSent: { writeFailed: 3 } });
    // Netted over the run, the two would cancel: nothing lost, nothing over.
    expect(lostOf(total, true)).toBe(0);
    const settled = settledFates(total, [first, second], true);
    expect(settled).toMatchObject({ lost: 3, overCount: 3 });
    expect(settled.underOneSecond + settled.notSent.writeFailed + settled.lost! - settled.overCount!).toBe(settled.planned);
    expect(runVerdict({ outcome: finished, fates: settled, durationSec: 30, p99Us: 1_000, lostWorkers: 0 }).status).toBe('fail');
    expect(fatesText(settled)).toContain('accounting error: 3 counted beyond the plan');
    expect(settledFates(total, [first, second], false)).toMatchObject({ lost: null, overCount: null });
  });

  it('a slot planned a fraction of a µs before a second\'s end lands in the second its receivers see (whole µs)', () => {
    const runStartUs = 1_700_000_000_000_000;
    const recorder = new FatesRecorder(runStartUs);
    recorder.add(runStartUs + 999_999.6, 'planned', 1);
    recorder.add(Math.round(runStartUs + 999_999.6), 'underOneSecond', 1);
    expect(recorder.take()).toEqual([{ second: 2, ...fates({ planned: 1, underOneSecond: 1 }) }]);
  });

  it('keeps each second apart when receptions of two seconds interleave', () => {
    const runStartUs = 1_700_000_000_000_000;
    const recorder = new FatesRecorder(runStartUs);
    for (const atUs of [100, 1_000_100, 200, 1_000_200, 300]) recorder.add(runStartUs + atUs, 'underOneSecond', 1);
    expect(recorder.take().map((f) => [f.second, f.underOneSecond])).toEqual([[1, 3], [2, 2]]);
    recorder.add(runStartUs + 1_000_300, 'late', 1);
    expect(recorder.take().map((f) => [f.second, f.late])).toEqual([[2, 1]]);
  });
});
