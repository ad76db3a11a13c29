/**
 * Agents' clocks across a run, with injected clocks: drift interpolated between the start's and
 * the end's rounds, the combined bound it gives, receptions undecidable within it, and no verdict
 * past 1% undecidable or a reception before its planned time beyond the bound. An agent that
 * missed the closing round has an unknown drift, not none: no bound after its start round.
 */
import { describe, expect, it } from 'vitest';
import { AgentRelay } from '../../../core/fleet/agent-relay.ts';
import { boundAtUs, clockProblem, combinedBoundUs, driftPpm, judgeClocks, offsetAtUs, type AgentClocks, type LatencyCounts } from '../../../core/clocks/clock-drift.ts';
import { Fleet } from '../../../core/fleet/fleet.ts';
import { emptyFates } from '../../../core/accounting/fates.ts';
import { runVerdict } from '../../../core/outcome/outcome.ts';
import { FakeTime } from '../../support/fake-time.ts';

const T0 = 1_700_000_000_000_000;
/** Start round at T0: +2 ms ± 0.5 ms; end round 100 s later: +7 ms ± 1 ms (50 µs/s of drift). */
const drifting: AgentClocks = { clockOffsetUs: 2_000, clockUncertaintyUs: 500, clockMeasuredAtUs: T0, clockEnd: { offsetUs: 7_000, uncertaintyUs: 1_000, measuredAtUs: T0 + 100_000_000 } };
const steady: AgentClocks = { clockOffsetUs: -1_000, clockUncertaintyUs: 300, clockMeasuredAtUs: T0, clockEnd: { offsetUs: -1_000, uncertaintyUs: 300, measuredAtUs: T0 + 100_000_000 } };

describe('drift between the two rounds', () => {
  it('interpolates the offset linearly, and clamps outside the rounds', () => {
    expect(driftPpm(drifting)).toBeCloseTo(50, 9);
    expect(offsetAtUs(drifting, T0)).toBe(2_000);
    expect(offsetAtUs(drifting, T0 + 50_000_000)).toBe(4_500);
    expect(offsetAtUs(drifting, T0 + 100_000_000)).toBe(7_000);
    expect(offsetAtUs(drifting, T0 + 200_000_000)).toBe(7_000);
    expect(offsetAtUs(drifting, T0 - 1_000_000)).toBe(2_000);
    // Without an end round the start's offset stands, and the drift is unknown.
    const once = { ...drifting, clockEnd: undefined };
    expect(offsetAtUs(once, T0 + 50_000_000)).toBe(2_000);
    expect(driftPpm(once)).toBeNull();
    expect(offsetAtUs({ clockOffsetUs: null, clockUncertaintyUs: null }, T0)).toBeNull();
  });

  it('bounds a time converted with the start\'s offset by the interpolated uncertainty plus how far the offset moved', () => {
    expect(boundAtUs(drifting, T0)).toBe(500);
    // Half way: uncertainty 750 µs, the offset moved 2,500 µs.
    expect(boundAtUs(drifting, T0 + 50_000_000)).toBe(3_250);
    expect(boundAtUs(drifting, T0 + 100_000_000)).toBe(6_000);
    expect(boundAtUs(steady, T0 + 50_000_000)).toBe(300);
  });

  it('an agent that missed the closing round (left, or did not answer): its drift unknown, no bound after its start round', () => {
    const missed: AgentClocks = { ...drifting, clockEnd: null };
    expect(driftPpm(missed)).toBeNull();
    // Bounded at its start round only; from then on, not bounded at all (it was 0 drift before).
    expect(boundAtUs(missed, T0)).toBe(500);
    expect(boundAtUs(missed, T0 + 1)).toBe(Infinity);
    expect(boundAtUs(missed, T0 + 50_000_000)).toBe(Infinity);
    // Runs kept before the closing round was taken keep the start's bound.
    expect(boundAtUs({ ...drifting, clockEnd: undefined }, T0 + 50_000_000)).toBe(500);
    const at = T0 + 50_000_000;
    expect(combinedBoundUs([missed, steady], false, true, at)).toBe(Infinity);
    expect(combinedBoundUs([missed], true, true, at)).toBe(Infinity);
    // One clock alone, or echo, needs no bound, whatever it drifted.
    expect(combinedBoundUs([missed], false, true, at)).toBe(0);
    expect(combinedBoundUs([missed, steady], true, false, at)).toBe(0);
    // An unknown clock (no start round) is still no judgement at all.
    expect(combinedBoundUs([missed, { clockOffsetUs: null, clockUncertaintyUs: null }], false, true, at)).toBeNull();
  });

  it('combines the two largest clocks of a run that crosses them; one clock alone, or echo, is exact', () => {
    const at = T0 + 50_000_000;
    expect(combinedBoundUs([drifting, steady], false, true, at)).toBe(3_550);
    // The dashboard's own workers are a clock too, exact: with one agent, only that agent's bound.
    expect(combinedBoundUs([drifting], true, true, at)).toBe(3_250);
    expect(combinedBoundUs([drifting, steady], true, true, at)).toBe(3_550);
    expect(combinedBoundUs([drifting], false, true, at)).toBe(0);
    expect(combinedBoundUs([drifting, steady], true, false, at)).toBe(0);
    expect(combinedBoundUs([drifting, { clockOffsetUs: null, clockUncertaintyUs: null }], false, true, at)).toBeNull();
  });
});

/** Latencies per arrival second as plain lists (µs; negatives apart, as the workers record them). */
function counts(bySecond: Record<number, number[]>, negativesUs: number[] = []): LatencyCounts {
  return {
    seconds: Object.keys(bySecond).map(Number),
    countBetween: (second, lowUs, highUs) => (bySecond[second] ?? []).filter((us) => us >= lowUs && us <= highUs).length,
    negative: negativesUs.length,
    maxNegativeUs: negativesUs.length > 0 ? Math.max(...negativesUs) : null,
  };
}

describe('undecidable receptions', () => {
  const runStartUs = T0;

  it('are those within the bound at their second of the 1 s line: the drift widens it as the run goes on', () => {
    // Second 1 (bound 0.5 + 0.3 ms + drift 0.05 ms ≈ 0.85 ms): 999.5 ms is undecidable, 998 ms is in time.
    // Second 100 (bound ≈ 6.3 ms): 995 ms and 1,005 ms are undecidable, 990 ms is not.
    const judged = judgeClocks([drifting, steady], false, true, runStartUs, counts({ 1: [5_000, 998_000, 999_500, 1_000_400], 100: [990_000, 995_000, 1_005_000, 1_010_000] }));
    expect(judged).toMatchObject({ undecidable: 4, negative: 0, maxNegativeUs: null, rounds: 2 });
    expect(judged!.boundUs).toBe(6_300);
  });

  it('leave out negative latencies within the bound (in time: at most the bound after their planned time); beyond it the run has no verdict', () => {
    const within = judgeClocks([drifting, steady], false, true, runStartUs, counts({ 50: [10_000] }, [200, 1_500]));
    expect(within).toMatchObject({ undecidable: 0, negative: 2, maxNegativeUs: 1_500 });
    // Even when they are most of a run's receptions (agents on one machine, deliveries of ~1 ms).
    expect(clockProblem(within, 2)).toBeNull();
    const beyond = judgeClocks([drifting, steady], false, true, runStartUs, counts({ 50: [10_000] }, [200, 9_000]));
    expect(beyond).toMatchObject({ undecidable: 0, negative: 2, maxNegativeUs: 9_000 });
    expect(clockProblem(beyond, 1_000)).toMatch(/^No verdict: 2 reception\(s\) arrived before their planned send time, up to 9\.00 ms before, beyond the agents' clock bound of ± 3\.\d+ ms/);
  });

  it('after the start round of an agent whose drift is unknown, every reception is undecidable, however far from the line', () => {
    const missed: AgentClocks = { ...drifting, clockEnd: null };
    // 5 ms and 10 ms are far in time, 3 s far late: with no bound, none can be told.
    const judged = judgeClocks([missed, steady], false, true, runStartUs, counts({ 1: [5_000, 998_000], 30: [10_000, 3_000_000] }));
    expect(judged).toEqual({ boundUs: 0, undecidable: 4, unbounded: 4, driftUnknown: 1, negative: 0, maxNegativeUs: null, rounds: 1 });
    // The drift taken as none (as it was): none undecidable, each more than the 0.8 ms bound from the line.
    const asIfSteady = judgeClocks([{ ...drifting, clockEnd: { offsetUs: 2_000, uncertaintyUs: 500, measuredAtUs: T0 + 100_000_000 } }, steady], false, true, runStartUs, counts({ 1: [5_000, 998_000], 30: [10_000, 3_000_000] }));
    expect(asIfSteady).toMatchObject({ undecidable: 0 });
    // A negative latency cannot lie beyond a bound there is none of: undecidable, not "a clock moved".
    const negative = judgeClocks([missed, steady], false, true, runStartUs, counts({ 30: [10_000] }, [9_000]));
    expect(negative).toMatchObject({ undecidable: 2, unbounded: 1, negative: 1 });
    expect(clockProblem(negative, 100)).toMatch(/^No verdict: 2 of 100 planned receptions \(2\.00%\) cannot be told in time or late: 1 of them arrived after the start round of an agent that missed the run's closing clock round \(it left or did not answer\), so how far its clock drifted is unknown/);
    // Echo (one clock per reception) needs no bound: nothing undecidable, and the verdict stands.
    const echo = judgeClocks([missed, steady], false, false, runStartUs, counts({ 30: [10_000] }));
    expect(echo).toEqual({ boundUs: 0, undecidable: 0, negative: 0, maxNegativeUs: null, rounds: 1 });
  });

  it('a run on one clock has none, however close to the line', () => {
    expect(judgeClocks([drifting], false, true, runStartUs, counts({ 1: [1_000_000, 999_999] }))).toMatchObject({ boundUs: 0, undecidable: 0 });
  });
});

describe('the verdict with agents\' clocks', () => {
  const finished = { kind: 'finished' as const };
  const fates = { ...emptyFates(), planned: 1_000, underOneSecond: 1_000, lost: 0 };
  const verdict = (undecidable: number) =>
    runVerdict({ outcome: finished, fates, durationSec: 10, p99Us: 990_000, lostWorkers: 0, clocks: { boundUs: 20_000, undecidable, negative: 0, maxNegativeUs: null, rounds: 2 } });

  it('stands with up to 1% undecidable, and is none past it, with the reason', () => {
    expect(verdict(10).status).toBe('pass');
    const none = verdict(11);
    expect(none.status).toBe('none');
    expect(none.sentence).toMatch(/^No verdict: 11 of 1,000 planned receptions \(1\.10%\) arrived within the agents' clock bound of ± 20\.0 ms of the 1 s line/);
  });

  it('an agent that missed the closing round leaves a run that crosses its clock without a verdict, with the reason', () => {
    const missed: AgentClocks = { ...drifting, clockEnd: null };
    // 1,000 planned receptions, every one in time by the figures, 2 s to 10 s into the run.
    const clocks = judgeClocks([missed, steady], false, true, T0, counts({ 2: Array(500).fill(20_000), 10: Array(500).fill(20_000) }));
    const judged = runVerdict({ outcome: finished, fates, durationSec: 10, p99Us: 20_000, lostWorkers: 0, clocks });
    expect(judged.status).toBe('none');
    expect(judged.sentence).toMatch(/^No verdict: 1,000 of 1,000 planned receptions \(100\.00%\) cannot be told in time or late: 1,000 of them arrived after the start round of an agent that missed the run's closing clock round/);
    expect(judged.sentence).toMatch(/Keep every agent connected to the control hub until the run's closing round, or run echo/);
    // Both agents answered: the bound holds (under 1 ms there), and the run passes.
    const both = judgeClocks([steady, steady], false, true, T0, counts({ 2: Array(500).fill(20_000), 10: Array(500).fill(20_000) }));
    expect(runVerdict({ outcome: finished, fates, durationSec: 10, p99Us: 20_000, lostWorkers: 0, clocks: both }).status).toBe('pass');
  });

  it('a run that lost messages fails whatever the clocks say', () => {
    const lossy = runVerdict({ outcome: finished, fates: { ...fates, underOneSecond: 990, lost: 10 }, durationSec: 10, p99Us: 990_000, lostWorkers: 0, clocks: { boundUs: 20_000, undecidable: 500, negative: 0, maxNegativeUs: null, rounds: 2 } });
    expect(lossy.status).toBe('fail');
  });
});

/** Lets the in-memory round trips run (they need no timer), then fake time pass, until `promise` settles. */
async function settled<T>(time: FakeTime, promise: Promise<T>): Promise<T> {
  let done = false;
  void promise.then(() => (done = true));
  for (let step = 0; !done; step++) {
    await new Promise((resolve) => setTimeout(resolve, 0));
    if (done) break;
    if (step > 1_000) throw new Error('still not settled after 100 s of fake time');
    await time.advanceByMs(100);
  }
  return promise;
}

describe('the closing clock round (Fleet.closeRun)', () => {
  it('measures each agent of the run again, records the end round and says "run-over"', async () => {
    const time = new FakeTime(T0);
    let agentOffsetUs = 2_000;
    const toAgent: string[] = [];
    let runOver = 0;
    let relay!: AgentRelay;
    const fleet = new Fleet({
      toAgent: async (_id, message) => {
        toAgent.push(message);
        await time.advanceTo(time.nowUs() + 200);
        relay.handle(message);
      },
    }, time, time);
    relay = new AgentRelay({
      toDashboard: async (message) => {
        await time.advanceTo(time.nowUs() + 200);
        fleet.fromAgent('a1', message);
      },
    }, { nowUs: () => time.nowUs() + agentOffsetUs }, () => ({ post: () => {}, onMessage: () => {}, terminate: () => {} }), () => {}, () => runOver++);
    fleet.agentJoined('a1', JSON.stringify({ name: 'agent-a', kind: 'node', threads: 1, client: 'test' }));
    const prepared = await settled(time, fleet.prepareRun(['a1'], 0, 'broadcast'));
    if ('error' in prepared) throw new Error(prepared.error);
    expect(prepared.agents[0]).toMatchObject({ clockOffsetUs: 2_000, clockUncertaintyUs: 200 });
    // 60 s later, the agent's clock has run 3 ms ahead (50 µs/s).
    await time.advanceByMs(60_000);
    agentOffsetUs = 5_000;
    const [agent] = await settled(time, fleet.closeRun(prepared.agents));
    expect(agent!.clockEnd).toMatchObject({ offsetUs: 5_000, uncertaintyUs: 200 });
    expect(agent!.clockEnd!.measuredAtUs).toBeGreaterThan(agent!.clockMeasuredAtUs! + 60_000_000);
    expect(driftPpm(agent!)).toBeCloseTo(50, 0);
    expect(toAgent.at(-1)).toBe(JSON.stringify({ type: 'run-over' }));
    expect(runOver).toBe(1);
  });
});
