import { describe, expect, it } from 'vitest';
import { judgeStep, stepHealth, type ClientContext } from '../../../core/capacity/step-judge.ts';
import { stepRun, type StepRunSpec } from '../../support/step-run.ts';
import { emptyFates } from '../../../core/accounting/fates.ts';
import { emptyServerRecord, type ServerSecond } from '../../../core/server-metrics/series.ts';

const node: ClientContext = { connectionCap: null };
const browser: ClientContext = { connectionCap: 255 };
const judge = (spec: StepRunSpec, client = node) => {
  const run = stepRun(spec);
  return judgeStep(run, stepHealth(run, client));
};

describe('the verdict on a step', () => {
  it('holds when 99% of the planned receptions arrived in under 1 s and the rest arrived later', () => {
    expect(judge({ planned: 1_000, underOneSecond: 990, late: 10 })).toMatchObject({ passed: true, limitedBy: null });
  });

  it('breaks at 99.9% in time when the last one was lost: a step that loses messages does not hold', () => {
    expect(judge({ planned: 1_000, underOneSecond: 999 })).toMatchObject({ passed: false, limitedBy: 'service' });
  });

  it('breaks at 98.9%, late messages counting against it', () => {
    expect(judge({ planned: 1_000, underOneSecond: 989, late: 11, p99Ms: 1_500 })).toMatchObject({ passed: false });
  });

  it('breaks when messages were lost though every one that arrived was quick', () => {
    const judgement = judge({ planned: 1_000, underOneSecond: 900, p99Ms: 3 });
    expect(judgement).toMatchObject({ passed: false, limitedBy: 'service' });
    expect(judgement.reasons[0]).toBe('100 of 1,000 planned receptions were lost while the client kept its schedule');
  });

  it('has no verdict for a step that was stopped', () => {
    expect(judge({ outcome: { kind: 'stopped', stoppedAtSec: 1 } })).toMatchObject({ passed: null, limitedBy: null });
  });

  it('has no verdict when nothing could be measured', () => {
    const judgement = judge({ outcome: { kind: 'failed', reason: 'the hub has no Echo method' }, planned: 0 });
    expect(judgement.passed).toBeNull();
    expect(judgement.reasons[0]).toContain('the hub has no Echo method');
  });
});

describe('who broke', () => {
  it('the service: late messages while the client kept its schedule', () => {
    const judgement = judge({ planned: 1_000, underOneSecond: 900, late: 100, p99Ms: 1_400, lagMs: 20 });
    expect(judgement.limitedBy).toBe('service');
    expect(judgement.reasons[0]).toBe('100 of 1,000 arrived 1 s or more after their planned time (p99 1.40 s) while the client kept its schedule');
  });

  it('the client: its event loop ran a quarter of the 1 s budget late', () => {
    const judgement = judge({ planned: 1_000, underOneSecond: 900, late: 100, p99Ms: 1_400, lagMs: 400 });
    expect(judgement.limitedBy).toBe('client');
    expect(judgement.reasons[0]).toContain('the client lagged 400 ms');
  });

  it('the client: it missed more than 1% of its send slots', () => {
    const judgement = judge({ planned: 1_000, underOneSecond: 900, late: 100, p99Ms: 1_400, totals: { missedSlots: 50 } });
    expect(judgement.limitedBy).toBe('client');
    expect(judgement.reasons[0]).toContain('missed 50 send slots (5.00% of its sends)');
  });

  it('not the client for a few missed slots within the 1% margin', () => {
    expect(judge({ planned: 1_000, underOneSecond: 900, late: 100, p99Ms: 1_400, totals: { missedSlots: 5 } }).limitedBy).toBe('service');
  });

  it("the client: a browser asked for more connections than it allows and some failed", () => {
    const spec: StepRunSpec = { config: { connections: 300, workers: 2 }, planned: 1_000, underOneSecond: 850, totals: { connectionsFailed: 45 } };
    const judgement = judge(spec, browser);
    expect(judgement.limitedBy).toBe('client');
    expect(judgement.reasons[0]).toContain('above the 255 this browser allows');
    // The same failures from a client with no cap, and nothing recorded of why they failed: no side is shown.
    expect(judge(spec, node).limitedBy).toBe('unknown');
    // Recorded as the service's refusals, they are the service's.
    expect(judge({ ...spec, run: { connectCauses: { refused: 45 } } }, node).limitedBy).toBe('service');
  });

  it('the service, named by its own load when its metrics were read: the run summary\'s sentence follows what failed', () => {
    const run = stepRun({ planned: 1_000, underOneSecond: 900, late: 100, p99Ms: 1_400, lagMs: 20 });
    const cpu = [null, 60, 96, 97];
    run.server = { ...emptyServerRecord('http://h/metrics'), points: cpu.map((cpuPercent, second): ServerSecond => ({ second, cpuPercent, connections: 20, deliveriesPerSec: 1, gcPauseMsPerSec: 0, threadPoolQueue: 0, workingSetBytes: 1, kestrelConnections: 20, kestrelQueued: 0 })) };
    const judgement = judgeStep(run, stepHealth(run, node));
    expect(judgement.limitedBy).toBe('service');
    expect(judgement.reasons[0]).toMatch(/^100 of 1,000 arrived 1 s or more after their planned time/);
    expect(judgement.reasons[1]).toBe('The server was at 97% CPU while the client kept its schedule: the service is the limit.');
  });

  it('a healthy-looking lag on a passing step changes nothing', () => {
    expect(judge({ lagMs: 600 })).toMatchObject({ passed: true, limitedBy: null });
  });
});

describe('who broke, by evidence', () => {
  const failedToConnect = (connectCauses: Record<string, number>, over: Partial<StepRunSpec> = {}): StepRunSpec => ({
    config: { connections: 50 },
    outcome: { kind: 'failed', reason: 'no connection could be opened' },
    planned: 0,
    totals: { connectionsFailed: 50, connectionsOpened: 0, sent: 0 },
    run: { points: [], connectCauses },
    ...over,
  });
  // 150 connections asked for, 123 opened: what a runner at `ulimit -n 150` does.
  const partlyOpen = (connectCauses: Record<string, number>): StepRunSpec => ({
    config: { connections: 150 },
    planned: 450,
    underOneSecond: 369,
    totals: { connectionsFailed: 27, connectionsOpened: 123 },
    run: { connectCauses, fates: { ...emptyFates(), planned: 450, underOneSecond: 369, notSent: { ...emptyFates().notSent, disconnected: 81 }, lost: 0 } },
  });

  it('the client: connects that failed with EMFILE, whatever the healthy p99 of the rest', () => {
    const judgement = judge(partlyOpen({ EMFILE: 19, other: 8 }));
    expect(judgement).toMatchObject({ passed: false, limitedBy: 'client' });
    expect(judgement.reasons[0]).toBe('the client could not open 19 connections for want of its own resources (19 EMFILE: this process ran out of file descriptors)');
    expect(judgement.reasons.slice(1, 3)).toEqual([
      '81 of 450 were never sent (81 due on connections that were closed or never opened)',
      '27 of 150 connections failed to open (19 EMFILE: this process ran out of file descriptors, 8 for a reason the error does not say)',
    ]);
    // Only the run's own verdict sentence, last, quotes its p99 among its figures.
    expect(judgement.reasons.slice(0, -1).join(' ')).not.toMatch(/p99/);
  });

  it.each([
    ['ENFILE', 'the system ran out of file descriptors'],
    ['EADDRNOTAVAIL', 'no ephemeral port was free for this destination'],
    ['ENOBUFS', 'the system ran out of socket buffers'],
    ['EAGAIN', 'the system could not take another connect now'],
  ])('the client: connects that failed with %s', (errno, words) => {
    const judgement = judge(partlyOpen({ [errno]: 27 }));
    expect(judgement.limitedBy).toBe('client');
    expect(judgement.reasons[0]).toContain(`27 ${errno}: ${words}`);
  });

  it('the client: a step in which nothing opened because the runner was out of file descriptors', () => {
    expect(judge(failedToConnect({ EMFILE: 50 }))).toMatchObject({ passed: false, limitedBy: 'client' });
  });

  it('the client: a browser held connections in its queue until they timed out', () => {
    const judgement = judge(partlyOpen({ browserQueue: 27 }), browser);
    expect(judgement.limitedBy).toBe('client');
    expect(judgement.reasons[0]).toContain('27 held in the browser\'s connection queue');
  });

  it('the client: an engine thread lost mid-step, with what it said', () => {
    const run = stepRun({ config: { workers: 2 }, planned: 1_000, underOneSecond: 500 });
    run.workers = [{ ...run.workers[0]!, lost: true }, { ...run.workers[0]!, workerIndex: 1 }];
    run.workerFailures = ['Worker 1 failed and was stopped: Worker terminated due to reaching memory limit: JS heap out of memory. Its figures up to then are kept.'];
    run.verdict = { ...run.verdict, status: 'fail' };
    const judgement = judgeStep(run, stepHealth(run, node));
    expect(judgement.limitedBy).toBe('client');
    expect(judgement.reasons[0]).toBe('the client lost 1 of its 2 engines mid-run (Worker terminated due to reaching memory limit: JS heap out of memory), and the load they carried with them');
  });

  it('no verdict: every connect refused by the address itself says nothing about load', () => {
    const judgement = judge(failedToConnect({ addressRefused: 50 }));
    expect(judgement).toMatchObject({ passed: null, limitedBy: null });
    expect(judgement.reasons[0]).toBe('nothing could be measured: no connection could be opened');
  });

  it.each([
    [{ negotiationSkipped: 50 }],
    [{ addressRefused: 20, negotiationSkipped: 30 }],
  ])('the set-up, not a verdict: connects refused for the negotiate the run skipped (%o) end the search with that cause', (causes) => {
    const judgement = judge(failedToConnect(causes));
    expect(judgement).toMatchObject({ passed: null, limitedBy: 'setup', diagnosis: { cause: 'negotiationNeeded', side: 'setup' } });
    expect(judgement.reasons[0]).toBe(judgement.diagnosis!.sentence);
  });

  it('a verdict once one connect failed for another reason', () => {
    expect(judge(failedToConnect({ negotiationSkipped: 49, refused: 1 })).passed).not.toBe(true);
  });

  it('the set-up: every connect refused while nothing opened is a closed port, never a capacity', () => {
    const judgement = judge(failedToConnect({ refused: 50 }));
    expect(judgement).toMatchObject({ passed: null, limitedBy: 'setup', diagnosis: { cause: 'unreachable' } });
    expect(judgement.reasons).toContain('50 of 50 connections failed to open (50 refused with ECONNREFUSED)');
  });

  it('unknown: nothing opened and nothing says why', () => {
    const judgement = judge(failedToConnect({ other: 50 }));
    expect(judgement).toMatchObject({ passed: false, limitedBy: 'unknown' });
    expect(judgement.reasons[0]).toBe('50 of 50 connections failed to open (50 for a reason the error does not say); which side failed is unknown (the client\'s schedule was never measured and nothing says why)');
  });

  it('unknown: connects failed for no stated cause, and the rest held, even while the client kept its schedule', () => {
    expect(judge(partlyOpen({ other: 27 })).limitedBy).toBe('unknown');
  });

  it('never names a p99 that passes, whoever broke', () => {
    for (const spec of [{ planned: 1_000, underOneSecond: 999, p99Ms: 3 }, { planned: 1_000, underOneSecond: 985, late: 15, p99Ms: 40 }, partlyOpen({ EMFILE: 27 })]) {
      const judgement = judge(spec);
      expect(judgement.passed).toBe(false);
      expect(judgement.reasons.slice(0, -1).join(' ')).not.toMatch(/p99/);
    }
  });
});

describe('the one window: the sending seconds', () => {
  it('a lag while connecting or draining does not make the client the limit; a lag while sending does', () => {
    const lagged = (second: number): StepRunSpec => ({
      planned: 1_000,
      underOneSecond: 900,
      late: 100,
      p99Ms: 1_400,
      run: {
        points: [1, 2, 3, 4, 5].map((s) => ({ ...stepRun().points[0]!, second: s, eventLoopLagMs: s === second ? 600 : 2, fates: { ...emptyFates(), planned: s >= 2 && s <= 4 ? 300 : 0 } })),
      },
    });
    expect(judge(lagged(1)).limitedBy).toBe('service');
    expect(judge(lagged(5)).limitedBy).toBe('service');
    expect(judge(lagged(3)).limitedBy).toBe('client');
  });
});
