/**
 * One upgrade at parse: an older run document (version 2, which grew fields without a bump) and
 * an older capacity search (version 1, a real one from bench/) read in the current shape, whether
 * from a file or kept in the history, so nothing downstream reads a legacy shape.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseRunResult, type RunResult } from '../../core/result/result.ts';
import { RUN_RESULT_VERSION } from '../../core/result/upgrade.ts';
import { NOT_SENT_REASONS } from '../../core/accounting/fates.ts';
import { CAPACITY_VERSION, parseCapacityResult } from '../../core/capacity/capacity-result.ts';
import { capacityAnswer } from '../../core/capacity/answer.ts';
import { MemoryRunDb } from '../../core/history/db.ts';
import { RunHistory } from '../../core/history/history.ts';
import { finishedRun } from '../support/finished-run.ts';
import { BUILT_IN_PROFILES, profileOfRun } from '../../core/profiles/index.ts';

/** A configuration as written before hub profiles (version 3 and older). */
function withoutProfile(config: RunResult['config']): Record<string, unknown> {
  const { hubProfile: _h, ...rest } = config;
  return rest;
}

/** A current run written as version 2 wrote it: without the fields it grew later. */
function asVersion2(result: RunResult): Record<string, unknown> {
  const withoutLater = ({ receiverAbsent: _r, clientBehind: _c, ...notSent }: RunResult['fates']['notSent']) => notSent;
  const { foreign: _f, statefulGranted: _s, resentSent: _a, resentSentBytes: _b, resentReceived: _c, resentReceivedBytes: _d, ...totals } = result.totals;
  return {
    ...result,
    version: 2,
    config: withoutProfile(result.config),
    fates: { ...result.fates, notSent: withoutLater(result.fates.notSent) },
    totals,
    points: result.points.map(({ reconnects: _re, dropped: _dr, ...point }) => ({ ...point, fates: { ...point.fates, notSent: withoutLater(point.fates.notSent) } })),
  };
}

describe('a version 2 run document', () => {
  it('parses to the current version and shape: every later field filled, the rest as it was', async () => {
    const current = await finishedRun();
    const old = asVersion2(current);
    expect((old.totals as Record<string, unknown>).foreign).toBeUndefined();
    const read = parseRunResult(JSON.stringify(old));
    expect(read.version).toBe(RUN_RESULT_VERSION);
    expect(RUN_RESULT_VERSION).toBe(4);
    expect(read.config.hubProfile).toBeNull();
    const oldNotSent = (old.fates as { notSent: Partial<RunResult['fates']['notSent']> }).notSent;
    for (const reason of NOT_SENT_REASONS) expect(read.fates.notSent[reason]).toBe(oldNotSent[reason] ?? 0);
    expect(read.totals).toEqual({ ...current.totals, foreign: 0, statefulGranted: 0, resentSent: 0, resentSentBytes: 0, resentReceived: 0, resentReceivedBytes: 0 });
    expect(read.points.every((p) => p.reconnects === 0 && p.dropped === 0 && NOT_SENT_REASONS.every((r) => typeof p.fates.notSent[r] === 'number'))).toBe(true);
    expect(read.fates.planned).toBe(current.fates.planned);
    expect(read.verdict).toEqual(current.verdict);
  });

  it('reads unknown percentiles (0 from an empty histogram) as null', async () => {
    const old = asVersion2(await finishedRun());
    const zero = { count: 0, p50Us: 0, p90Us: 0, p99Us: 0, p999Us: 0, maxUs: 0, meanUs: 0 };
    const read = parseRunResult(JSON.stringify({ ...old, connectTimes: zero }));
    expect(read.connectTimes.p99Us).toBeNull();
  });

  it('kept in the history reads upgraded too, in the list and whole', async () => {
    const db = new MemoryRunDb();
    const old = asVersion2(await finishedRun()) as unknown as RunResult;
    await db.put({ id: 'old', name: 'kept by version 2', status: 'finished', savedAt: '2026-05-01T00:00:00Z', toolVersion: '0.1.0', signalrClientVersion: '10.0.11', comparisonId: null, result: old });
    const history = new RunHistory(db, () => new Date('2026-05-01T00:00:00Z'));
    const [head] = await history.list();
    expect(head!.result.version).toBe(RUN_RESULT_VERSION);
    expect(head!.result.totals.foreign).toBe(0);
    const whole = await history.get('old');
    expect(whole!.result.points.every((p) => p.dropped === 0 && p.fates.notSent.receiverAbsent === 0)).toBe(true);
  });

  it('a version no reader knows is still refused, naming the versions it reads', () => {
    expect(() => parseRunResult('{"format":"signalr-live-bench/run","version":5}')).toThrow(/format version 5; this version of the tool reads versions 2, 3 and 4/);
  });
});

describe('a version 3 run document (before hub profiles)', () => {
  it('drove the bundled contract: its profile is the built-in one of its scenario', async () => {
    const current = await finishedRun();
    const read = parseRunResult(JSON.stringify({ ...current, version: 3, config: withoutProfile(current.config) }));
    expect(read.version).toBe(4);
    expect(read.config.hubProfile).toBeNull();
    expect(profileOfRun(read.config)).toEqual(BUILT_IN_PROFILES[current.config.scenario as keyof typeof BUILT_IN_PROFILES]);
    expect(read.fates).toEqual(current.fates);
  });
});

describe('a version 1 capacity search (bench/capacity-runner.json, as the runner wrote it)', () => {
  const text = readFileSync(new URL('../../bench/capacity-runner.json', import.meta.url), 'utf8');

  it('parses to the current version, every step with its held rates, health and never-sent reasons', () => {
    const raw = JSON.parse(text);
    expect(raw.version).toBe(1);
    expect(raw.steps[0].heldPerSec).toBeUndefined();
    const read = parseCapacityResult(text);
    expect(read.version).toBe(CAPACITY_VERSION);
    expect(read.finding.confirmed).toBeNull();
    read.steps.forEach((step, i) => {
      expect(step.heldPerSec).toBe(raw.steps[i].receivedPerSec);
      expect(step.heldSendsPerSec).toBe(raw.steps[i].sentPerSec);
      expect(step.health).toMatchObject({ maxSendLagMs: 0, keptSchedule: null, workersLost: 0 });
      for (const reason of NOT_SENT_REASONS) expect(step.fates.notSent[reason]).toBe(raw.steps[i].fates.notSent[reason] ?? 0);
      // Unknown stays unknown: the offered load was not kept with these steps.
      expect(step.offeredPerSec).toBeUndefined();
    });
  });

  it('answers as before: the held step at its whole-second mean', () => {
    const read = parseCapacityResult(text);
    const held = read.steps.find((s) => s.index === read.finding.heldStep)!;
    expect(capacityAnswer(read).headline).toContain(`${Math.round(held.receivedPerSec).toLocaleString('en-US')} msg/s`);
  });
});
