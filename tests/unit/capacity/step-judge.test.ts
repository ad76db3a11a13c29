import { describe, expect, it } from 'vitest';
import { judgeStep, stepHealth, type ClientContext } from '../../../core/capacity/step-judge.ts';
import { stepRun, type StepRunSpec } from '../../support/step-run.ts';
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
    expect(judgement.reasons.join(' ')).toContain('100 planned receptions were lost');
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
    expect(judgement.reasons[0]).toMatch(/p99 1\.40 s while the client kept its schedule/);
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
    // The same failures from a client with no cap are the service refusing connections.
    expect(judge(spec, node).limitedBy).toBe('service');
  });

  it('the service, named by its own load when its metrics were read: the run summary\'s sentence comes first', () => {
    const run = stepRun({ planned: 1_000, underOneSecond: 900, late: 100, p99Ms: 1_400, lagMs: 20 });
    const cpu = [null, 60, 96, 97];
    run.server = { ...emptyServerRecord('http://h/metrics'), points: cpu.map((cpuPercent, second): ServerSecond => ({ second, cpuPercent, connections: 20, deliveriesPerSec: 1, gcPauseMsPerSec: 0, threadPoolQueue: 0, workingSetBytes: 1, kestrelConnections: 20, kestrelQueued: 0 })) };
    const judgement = judgeStep(run, stepHealth(run, node));
    expect(judgement.limitedBy).toBe('service');
    expect(judgement.reasons[0]).toBe('The server was at 97% CPU while the client kept its schedule: the service is the limit.');
  });

  it('a healthy-looking lag on a passing step changes nothing', () => {
    expect(judge({ lagMs: 600 })).toMatchObject({ passed: true, limitedBy: null });
  });
});
