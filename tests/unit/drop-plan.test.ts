import { describe, expect, it } from 'vitest';
import { neverBackOf } from '../../core/drops/totals.ts';
import { DropLedger } from '../../workers/engine/drop-ledger.ts';
import { expectedGapReceptions, slotsInWindow } from '../support/drop-slots.ts';
import { dropPhases } from '../../core/drops/phases.ts';
import { createLatencyHistogram, encodeHistogram, recordLatencyUs } from '../../core/latency/latency.ts';
import { DROP_DEFAULTS, dropProblems, dropSettingsOf, droppedCount, dropTimesUs, isDropped, retryDelayMs } from '../../core/drops/drop-schedule.ts';

const S = 1_000_000;

describe('which connections a drop takes', () => {
  it('takes every connection at 100%', () => {
    expect(Array.from({ length: 10 }, (_, i) => isDropped(i, 10, 100)).every(Boolean)).toBe(true);
  });

  it('spreads a share evenly, exactly floor(total × share) of them', () => {
    const taken = Array.from({ length: 10 }, (_, i) => isDropped(i, 10, 30));
    expect(taken.filter(Boolean)).toHaveLength(3);
    expect(taken.map((t, i) => (t ? i : -1)).filter((i) => i >= 0)).toEqual([3, 6, 9]);
    expect(droppedCount(10, 30)).toBe(3);
    const of2000 = Array.from({ length: 2_000 }, (_, i) => isDropped(i, 2_000, 25)).filter(Boolean).length;
    expect(of2000).toBe(droppedCount(2_000, 25));
  });

  it('never takes an index outside the run', () => {
    expect(isDropped(-1, 10, 100)).toBe(false);
    expect(isDropped(10, 10, 100)).toBe(false);
  });
});

describe('when drops happen', () => {
  it('once at the chosen second of the sends', () => {
    expect(dropTimesUs({ dropAtSec: 5, dropEverySec: null }, 100 * S, 130 * S)).toEqual([105 * S]);
  });
  it('repeatedly while the sends last', () => {
    expect(dropTimesUs({ dropAtSec: 5, dropEverySec: 10 }, 100 * S, 130 * S)).toEqual([105 * S, 115 * S, 125 * S]);
  });
  it('never without a drop second', () => {
    expect(dropTimesUs({ dropAtSec: null, dropEverySec: null }, 0, 30 * S)).toEqual([]);
  });
});

describe('reconnect policies', () => {
  it("SignalR's default: 0, 2, 10, 30 s, then gives up", () => {
    expect([0, 1, 2, 3, 4].map((n) => retryDelayMs('default', n, 0, () => 0))).toEqual([0, 2_000, 10_000, 30_000, null]);
  });
  it('fixed: every second for a minute', () => {
    expect(retryDelayMs('fixed', 7, 59_999, () => 0)).toBe(1_000);
    expect(retryDelayMs('fixed', 60, 60_000, () => 0)).toBeNull();
  });
  it('jittered: doubling from 0.5 s up to 10 s, each delay 50–100% of its ceiling', () => {
    expect(retryDelayMs('jittered', 0, 0, () => 0)).toBe(250);
    expect(retryDelayMs('jittered', 0, 0, () => 0.999_999)).toBe(500);
    expect(retryDelayMs('jittered', 3, 0, () => 0)).toBe(2_000);
    expect(retryDelayMs('jittered', 10, 0, () => 0.999_999)).toBe(10_000);
    expect(retryDelayMs('jittered', 2, 60_000, () => 0)).toBeNull();
  });
});

describe('drop settings', () => {
  it('a run kept before drops existed reads as no drop', () => {
    expect(dropSettingsOf({})).toEqual(DROP_DEFAULTS);
  });
  it('refuses a drop after the sends, a drop without reconnect, and stateful reconnect off WebSockets, each with what to do', () => {
    const problems = dropProblems({ ...DROP_DEFAULTS, dropAtSec: 30, statefulReconnect: true }, { durationSec: 30, reconnect: false, transport: 'LongPolling' });
    expect(problems).toHaveLength(4);
    expect(problems.map((p) => p.field)).toEqual(['dropAtSec', 'reconnect', 'statefulReconnect', 'statefulReconnect']);
    expect(problems[0]!.message).toMatch(/Drop at \(30 s\) must be within the sends \(duration 30 s\).*Lower it or lengthen the run/);
    expect(problems[1]!.message).toMatch(/needs Reconnect on.*--reconnect/);
    expect(problems[2]!.message).toMatch(/WebSockets only.*LongPolling.*Choose WebSockets/);
    expect(dropProblems({ ...DROP_DEFAULTS, dropAtSec: 5 }, { durationSec: 30, reconnect: true, transport: 'WebSockets' })).toEqual([]);
  });
  it('refuses a drop inside the warm-up, whose cost no figure would count, and accepts one at its end', () => {
    const run = { durationSec: 10, warmupSec: 5, reconnect: true, transport: 'WebSockets' };
    expect(dropProblems({ ...DROP_DEFAULTS, dropAtSec: 2 }, run)).toEqual([{ field: 'dropAtSec', message: 'Drop at (2 s) falls inside the warm-up (5 s), whose messages are left out of every figure: the drop\'s cost would not be counted. Set Drop at to 5 s or later, or shorten the warm-up.' }]);
    expect(dropProblems({ ...DROP_DEFAULTS, dropAtSec: 5 }, run)).toEqual([]);
  });
  it('refuses a repeat without a first drop', () => {
    expect(dropProblems({ ...DROP_DEFAULTS, dropEverySec: 5 }, { durationSec: 30, reconnect: true, transport: 'WebSockets' })[0]).toMatchObject({ field: 'dropEverySec', message: expect.stringMatching(/needs a first drop/) });
  });
});

describe('the bookkeeping of a drop', () => {
  it('time to reconnect runs from the start of the gap; a second loss inside one gap is the same gap', () => {
    const ledger = new DropLedger();
    ledger.lost(3, 10 * S);
    ledger.lost(3, 11 * S);
    expect(ledger.inGap(3)).toBe(true);
    expect(ledger.back(3, 12.5 * S, 'reconnected')).toBe(2.5 * S);
    expect(ledger.inGap(3)).toBe(false);
    expect(ledger.totals).toMatchObject({ dropped: 1, reconnected: 1 });
  });

  it('a connection not in a gap coming back counts nothing', () => {
    const ledger = new DropLedger();
    expect(ledger.back(1, S, 'resumed')).toBeNull();
    expect(ledger.totals.resumed).toBe(0);
  });

  it('never back: the ones the policy gave up on and the ones still away at the end', () => {
    const ledger = new DropLedger();
    for (let i = 0; i < 5; i++) ledger.lost(i, 0);
    ledger.back(0, S, 'resumed');
    ledger.back(1, S, 'reconnected');
    ledger.gaveUp(2);
    ledger.gaveUp(2);
    expect(neverBackOf(ledger.totals)).toBe(3);
    expect(ledger.totals).toMatchObject({ dropped: 5, resumed: 1, reconnected: 1, gaveUp: 1 });
  });

  it('reconnects per second come from the interval counts', () => {
    const ledger = new DropLedger();
    ledger.lost(0, 0);
    ledger.lost(1, 0);
    expect(ledger.takeInterval()).toEqual({ back: 0, dropped: 2 });
    ledger.back(0, S, 'reconnected');
    ledger.back(1, S, 'reconnected');
    expect(ledger.takeInterval()).toEqual({ back: 2, dropped: 0 });
    expect(ledger.takeInterval()).toEqual({ back: 0, dropped: 0 });
  });

  it('group rejoin: a reconnected connection (new id, no group) must join again; a resumed one keeps its group', () => {
    const ledger = new DropLedger();
    ledger.lost(0, 0);
    ledger.lost(1, 0);
    ledger.back(0, S, 'reconnected');
    ledger.back(1, S, 'resumed');
    expect(ledger.needsRejoin(0)).toBe(true);
    expect(ledger.needsRejoin(1)).toBe(false);
    ledger.rejoinDone(0, true, 1_500);
    ledger.rejoinDone(0, true, 1_500);
    expect(ledger.needsRejoin(0)).toBe(false);
    expect(ledger.totals).toMatchObject({ rejoined: 1, rejoinFailed: 0, rejoinUs: 1_500 });
  });

  it('group rejoin: a failed join is counted, and a connection lost again before its rejoin needs none until it is back', () => {
    const ledger = new DropLedger();
    ledger.lost(0, 0);
    ledger.back(0, S, 'reconnected');
    ledger.lost(0, 2 * S);
    expect(ledger.needsRejoin(0)).toBe(false);
    ledger.back(0, 3 * S, 'reconnected');
    ledger.rejoinDone(0, false);
    expect(ledger.totals).toMatchObject({ dropped: 2, reconnected: 2, rejoined: 0, rejoinFailed: 1 });
  });
});

describe('expected receptions during the gap', () => {
  it('slots of one schedule planned in the gap, the gap start included and its end not', () => {
    // Slots at 0, 1, 2, ... s; a gap [2 s, 5 s) holds the slots at 2, 3 and 4 s.
    expect(slotsInWindow(0, S, 30 * S, 2 * S, 5 * S)).toBe(3);
    expect(slotsInWindow(0, S, 30 * S, 2.5 * S, 5 * S)).toBe(2);
    expect(slotsInWindow(0.25 * S, S, 30 * S, 2 * S, 5 * S)).toBe(3);
  });
  it('none before the first slot, none at or after the end of the sends', () => {
    expect(slotsInWindow(10 * S, S, 30 * S, 0, 10 * S)).toBe(0);
    expect(slotsInWindow(0, S, 4 * S, 2 * S, 10 * S)).toBe(2);
    expect(slotsInWindow(0, S, 30 * S, 5 * S, 5 * S)).toBe(0);
  });
  it('echo: a 3-s gap at 100 ms costs the connection its own 30 slots', () => {
    expect(expectedGapReceptions([{ firstUs: 0.05 * S }], 0.1 * S, 60 * S, 5 * S, 8 * S)).toBe(30);
  });
  it('broadcast: a receiver away 2 s misses every sender\'s slots in the gap', () => {
    const senders = [{ firstUs: 0 }, { firstUs: 0.5 * S }];
    expect(expectedGapReceptions(senders, S, 30 * S, 5 * S, 7 * S)).toBe(4);
  });
  it('group: a member away until its rejoin misses its group\'s sends up to the rejoin, not after', () => {
    const groupSenders = [{ firstUs: 0 }, { firstUs: 0.1 * S }, { firstUs: 0.2 * S }];
    const beforeRejoin = expectedGapReceptions(groupSenders, S, 30 * S, 5 * S, 6.15 * S);
    expect(beforeRejoin).toBe(2 + 2 + 1);
  });
});

describe('latency before, during and after a drop', () => {
  const second = (n: number, latenciesUs: number[]) => {
    const h = createLatencyHistogram();
    for (const us of latenciesUs) recordLatencyUs(h, us);
    return { second: n, latency: encodeHistogram(h) };
  };
  const points = [1, 2, 3, 4, 5, 6].map((n) => ({ second: n, dropped: n === 3 ? 10 : 0, reconnects: n === 4 ? 6 : n === 5 ? 4 : 0 }));
  const histograms = [second(1, [1_000, 1_000]), second(2, [2_000]), second(3, [500_000]), second(5, [900_000]), second(6, [3_000])];

  it('splits the seconds at the first loss and the last reconnect', () => {
    const phases = dropPhases(points, histograms)!;
    expect([phases.fromSecond, phases.toSecond]).toEqual([3, 5]);
    expect(phases.before.count).toBe(3);
    expect(phases.during.count).toBe(2);
    expect(phases.after.count).toBe(1);
    expect(phases.during.maxUs).toBeGreaterThan(899_000);
    expect(phases.after.maxUs).toBeLessThan(4_000);
  });

  it('nothing without a loss', () => {
    expect(dropPhases(points.map((p) => ({ ...p, dropped: 0 })), histograms)).toBeNull();
    expect(dropPhases([{ second: 1, dropped: 0, reconnects: 0 }], histograms)).toBeNull();
  });

  it('a loss nobody came back from lasts to the end', () => {
    const phases = dropPhases(points.map((p) => ({ ...p, reconnects: 0 })), histograms)!;
    expect([phases.fromSecond, phases.toSecond]).toEqual([3, 6]);
    expect(phases.after.count).toBe(0);
  });
});
