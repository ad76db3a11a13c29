import { describe, expect, it } from 'vitest';
import { LaneSchedule, LoopPerLane, OpenLoop } from '../../workers/engine/open-loop.ts';
import { FakeTime } from '../support/fake-time.ts';

interface Slot {
  plannedUs: number;
  sendLagUs: number;
  seq: number;
  atUs: number;
}

function loop(time: FakeTime, firstSlotUs: number, intervalUs: number, endUs: number) {
  const slots: Slot[] = [];
  const openLoop = new OpenLoop(time, time, firstSlotUs, intervalUs, endUs, (plannedUs, sendLagUs, seq) =>
    slots.push({ plannedUs, sendLagUs, seq, atUs: time.nowUs() }));
  return { openLoop, slots };
}

describe('OpenLoop', () => {
  it('plans send n at first + n x interval and stops before the end', async () => {
    const time = new FakeTime();
    const t0 = time.nowUs();
    const { openLoop, slots } = loop(time, t0 + 300_000, 1_000_000, t0 + 3_300_000);
    openLoop.start();
    await time.advanceByMs(10_000);
    expect(slots.map((s) => s.plannedUs - t0)).toEqual([300_000, 1_300_000, 2_300_000]);
    expect(slots.every((s) => s.sendLagUs === 0)).toBe(true);
    expect(time.pendingTimers).toBe(0);
  });

  it('when the event loop stalls, sends every overdue slot at once and reports how late each is', async () => {
    const time = new FakeTime();
    const t0 = time.nowUs();
    const { openLoop, slots } = loop(time, t0, 100_000, t0 + 1_000_000);
    openLoop.start();
    await time.advanceByMs(0);
    expect(slots).toHaveLength(1);
    // 350 ms with no timer running: slots at 100, 200 and 300 ms are overdue.
    time.jumpByMs(350);
    await time.advanceByMs(0);
    expect(slots.slice(1, 4).map((s) => [s.seq, s.sendLagUs])).toEqual([[1, 250_000], [2, 150_000], [3, 50_000]]);
    // Back on schedule afterwards.
    await time.advanceByMs(100);
    expect(slots[4]).toMatchObject({ seq: 4, sendLagUs: 0 });
  });

  it('never sends before the planned time, even when a timer wakes early', async () => {
    const time = new FakeTime();
    const t0 = time.nowUs();
    // Wakes 0.6 ms early when asked for 1 ms or more, as rounding timers do.
    const early = { setTimeout: (cb: () => void, ms: number) => time.setTimeout(cb, ms >= 1 ? ms - 0.6 : ms), clearTimeout: (h: unknown) => time.clearTimeout(h) };
    const slots: number[] = [];
    const openLoop = new OpenLoop(time, early, t0 + 10_000, 10_000, t0 + 35_000, (plannedUs) => slots.push(time.nowUs() - plannedUs));
    openLoop.start();
    await time.advanceByMs(100);
    expect(slots).toHaveLength(3);
    expect(slots.every((lagUs) => lagUs >= 0)).toBe(true);
  });

  it('asks for whole milliseconds, rounded up, so a browser that truncates delays does not wake it early', async () => {
    const time = new FakeTime();
    const t0 = time.nowUs();
    const delaysMs: number[] = [];
    const recording = { setTimeout: (cb: () => void, ms: number) => (delaysMs.push(ms), time.setTimeout(cb, ms)), clearTimeout: (h: unknown) => time.clearTimeout(h) };
    // Slots 10.3 ms apart, the first 2.7 ms from now: never a whole number of ms away.
    const slots: number[] = [];
    const openLoop = new OpenLoop(time, recording, t0 + 2_700, 10_300, t0 + 40_000, (plannedUs) => slots.push(time.nowUs() - plannedUs));
    openLoop.start();
    await time.advanceByMs(100);
    expect(slots).toHaveLength(4);
    expect(delaysMs.every((ms) => Number.isInteger(ms))).toBe(true);
    // 2.7 ms away, then 13.0 - 3, then 23.3 - 13.
    expect(delaysMs.slice(0, 3)).toEqual([3, 10, 11]);
    // One timer per send: no early wake-up and re-arm.
    expect(delaysMs).toHaveLength(4);
  });

  it('stop() cancels the pending send', async () => {
    const time = new FakeTime();
    const t0 = time.nowUs();
    const { openLoop, slots } = loop(time, t0, 1_000, t0 + 1_000_000);
    openLoop.start();
    await time.advanceByMs(2.5);
    openLoop.stop();
    await time.advanceByMs(100);
    expect(slots).toHaveLength(3);
    expect(openLoop.sends).toBe(3);
  });

  it('stop() returns the slots that came due and never fired, and nothing on a second call', async () => {
    const time = new FakeTime();
    const t0 = time.nowUs();
    const { openLoop, slots } = loop(time, t0, 100_000, t0 + 1_000_000);
    openLoop.start();
    await time.advanceByMs(0);
    // The event loop is held for the whole rest of the schedule: nothing more fires.
    time.jumpByMs(2_000);
    const unfired = openLoop.stop();
    expect(slots).toHaveLength(1);
    expect(unfired.map((us) => us - t0)).toEqual([100_000, 200_000, 300_000, 400_000, 500_000, 600_000, 700_000, 800_000, 900_000]);
    expect(openLoop.stop()).toEqual([]);
  });

  it('a loop that finished its schedule has no unfired slots', async () => {
    const time = new FakeTime();
    const t0 = time.nowUs();
    const { openLoop } = loop(time, t0, 100_000, t0 + 350_000);
    openLoop.start();
    await time.advanceByMs(1_000);
    expect(openLoop.stop()).toEqual([]);
  });

  it('endAt() plans nothing from then on, and still sends what was already due, late', async () => {
    const time = new FakeTime();
    const t0 = time.nowUs();
    const { openLoop, slots } = loop(time, t0, 100_000, t0 + 1_000_000);
    openLoop.start();
    await time.advanceByMs(0);
    time.jumpByMs(250);
    // Stopped at 250 ms before the overdue slots at 100 and 200 ms could fire.
    openLoop.endAt(time.nowUs());
    await time.advanceByMs(1_000);
    expect(slots.map((s) => [s.plannedUs - t0, s.sendLagUs])).toEqual([[0, 0], [100_000, 150_000], [200_000, 50_000]]);
    expect(openLoop.stop()).toEqual([]);
    expect(time.pendingTimers).toBe(0);
  });
});

describe('LaneSchedule: every sending connection on one timer', () => {
  function schedule(time: FakeTime, firstSlotsUs: number[], intervalUs: number, endUs: number, timers = time as { setTimeout(cb: () => void, ms: number): unknown; clearTimeout(h: unknown): void }) {
    const slots: { lane: number; plannedUs: number; sendLagUs: number; seq: number; atUs: number }[] = [];
    const lanes = new LaneSchedule<number>(time, timers, intervalUs, endUs, (lane, plannedUs, sendLagUs, seq) => slots.push({ lane, plannedUs, sendLagUs, seq, atUs: time.nowUs() }));
    firstSlotsUs.forEach((firstUs, lane) => lanes.add(lane, firstUs));
    return { lanes, slots };
  }

  it('plans the same slots as one OpenLoop per connection, in the order they come due', async () => {
    const time = new FakeTime();
    const t0 = time.nowUs();
    // Three connections spread over a 100 ms interval, added out of order; the run ends at 350 ms.
    const firsts = [t0 + 66_000, t0, t0 + 33_000];
    const { lanes, slots } = schedule(time, firsts, 100_000, t0 + 350_000);
    const expected: { lane: number; plannedUs: number; seq: number }[] = [];
    firsts.forEach((firstUs, lane) => {
      const loop = new OpenLoop(time, time, firstUs, 100_000, t0 + 350_000, (plannedUs, _lag, seq) => expected.push({ lane, plannedUs, seq }));
      loop.start();
    });
    lanes.start();
    await time.advanceByMs(1_000);
    expect(slots.map(({ lane, plannedUs, seq }) => ({ lane, plannedUs, seq }))).toEqual([...expected].sort((a, b) => a.plannedUs - b.plannedUs));
    expect(slots).toHaveLength(11);
    expect(slots.every((s) => s.sendLagUs === 0 && s.atUs === s.plannedUs)).toBe(true);
    expect(lanes.sends).toBe(11);
    expect(time.pendingTimers).toBe(0);
  });

  it('keeps one timer armed however many connections send', async () => {
    const time = new FakeTime();
    const t0 = time.nowUs();
    const { lanes } = schedule(time, Array.from({ length: 1_000 }, (_, i) => t0 + i * 100), 100_000, t0 + 1_000_000);
    lanes.start();
    await time.advanceByMs(50);
    expect(time.pendingTimers).toBe(1);
  });

  it('when the event loop stalls, sends every overdue slot on the next wake-up with its own lateness', async () => {
    const time = new FakeTime();
    const t0 = time.nowUs();
    const { lanes, slots } = schedule(time, [t0, t0 + 50_000], 100_000, t0 + 1_000_000);
    lanes.start();
    await time.advanceByMs(0);
    expect(slots).toHaveLength(1);
    time.jumpByMs(320);
    await time.advanceByMs(0);
    expect(slots.slice(1).map((s) => [s.lane, s.seq, s.sendLagUs])).toEqual([[1, 0, 270_000], [0, 1, 220_000], [1, 1, 170_000], [0, 2, 120_000], [1, 2, 70_000], [0, 3, 20_000]]);
    await time.advanceByMs(30);
    expect(slots.at(-1)).toMatchObject({ lane: 1, seq: 3, sendLagUs: 0 });
  });

  it('sends every slot due when it wakes in that one wake-up, and the slots due meanwhile on the next', async () => {
    const time = new FakeTime();
    const t0 = time.nowUs();
    let wakes = 0;
    const counting = { setTimeout: (cb: () => void, ms: number) => time.setTimeout(() => (wakes++, cb()), ms), clearTimeout: (h: unknown) => time.clearTimeout(h) };
    const slots: number[] = [];
    // Each send takes 10 us of the clock: the sends of one wake-up come due while it sends.
    const lanes = new LaneSchedule<number>(time, counting, 100_000, t0 + 1_000_000, (lane) => (slots.push(lane), time.jumpByMs(0.01)));
    for (let i = 0; i < 1_000; i++) lanes.add(i, t0 + i * 100);
    lanes.start();
    time.jumpByMs(99);
    await time.advanceByMs(0);
    // Slots 0 to 99 ms (991 of them) were overdue at once: one wake-up sends them all.
    expect(wakes).toBe(1);
    expect(slots).toHaveLength(991);
    lanes.stop();
  });

  it('never sends before the planned time, even when the timer wakes early', async () => {
    const time = new FakeTime();
    const t0 = time.nowUs();
    const early = { setTimeout: (cb: () => void, ms: number) => time.setTimeout(cb, ms >= 1 ? ms - 0.6 : ms), clearTimeout: (h: unknown) => time.clearTimeout(h) };
    const { lanes, slots } = schedule(time, [t0 + 10_000, t0 + 15_300], 10_000, t0 + 45_000, early);
    lanes.start();
    await time.advanceByMs(100);
    expect(slots).toHaveLength(7);
    expect(slots.every((s) => s.atUs >= s.plannedUs)).toBe(true);
  });

  it('stop() hands back every slot that came due and never fired, lane by lane, and nothing on a second call', async () => {
    const time = new FakeTime();
    const t0 = time.nowUs();
    const { lanes, slots } = schedule(time, [t0, t0 + 50_000], 100_000, t0 + 400_000);
    lanes.start();
    await time.advanceByMs(60);
    expect(slots.map((s) => s.lane)).toEqual([0, 1]);
    time.jumpByMs(2_000);
    const unfired: [number, number][] = [];
    lanes.stop((lane, plannedUs) => unfired.push([lane, plannedUs - t0]));
    expect(unfired).toEqual([[0, 100_000], [0, 200_000], [0, 300_000], [1, 150_000], [1, 250_000], [1, 350_000]]);
    // Every planned slot is either sent or handed back: 4 rounds of 2 lanes.
    expect(slots.length + unfired.length).toBe(8);
    const again: unknown[] = [];
    lanes.stop((...slot) => again.push(slot));
    expect(again).toEqual([]);
    expect(time.pendingTimers).toBe(0);
  });

  it('endAt() plans nothing from then on and still sends what was due, late; a finished schedule hands back nothing', async () => {
    const time = new FakeTime();
    const t0 = time.nowUs();
    const { lanes, slots } = schedule(time, [t0, t0 + 50_000], 100_000, t0 + 1_000_000);
    lanes.start();
    await time.advanceByMs(0);
    time.jumpByMs(180);
    lanes.endAt(time.nowUs());
    await time.advanceByMs(1_000);
    expect(slots.map((s) => [s.lane, s.plannedUs - t0, s.sendLagUs])).toEqual([[0, 0, 0], [1, 50_000, 130_000], [0, 100_000, 80_000], [1, 150_000, 30_000]]);
    const unfired: unknown[] = [];
    lanes.stop((...slot) => unfired.push(slot));
    expect(unfired).toEqual([]);
    expect(time.pendingTimers).toBe(0);
  });

  it('refuses lanes added after start() and first slots more than one interval apart', () => {
    const time = new FakeTime();
    const t0 = time.nowUs();
    const apart = schedule(time, [t0, t0 + 100_000], 100_000, t0 + 1_000_000).lanes;
    expect(() => apart.start()).toThrow(/within one interval/);
    const started = schedule(time, [t0], 100_000, t0 + 1_000_000).lanes;
    started.start();
    expect(() => started.add(1, t0)).toThrow(/before start\(\)/);
    started.stop();
  });
});

describe('LoopPerLane: the same lanes on a timer each (browsers)', () => {
  it('sends the slots the one schedule sends, a timer per lane, and hands back the same unfired slots', async () => {
    const sentBy = async (kind: 'one' | 'each') => {
      const time = new FakeTime();
      const t0 = time.nowUs();
      const slots: [number, number, number][] = [];
      const Schedule = kind === 'one' ? LaneSchedule : LoopPerLane;
      const lanes = new Schedule<number>(time, time, 100_000, t0 + 400_000, (lane, plannedUs, _lag, seq) => slots.push([lane, plannedUs - t0, seq]));
      [t0 + 50_000, t0, t0 + 75_000].forEach((firstUs, lane) => lanes.add(lane, firstUs));
      lanes.start();
      await time.advanceByMs(160);
      const timers = time.pendingTimers;
      time.jumpByMs(1_000);
      const unfired: [number, number][] = [];
      lanes.stop((lane, plannedUs) => unfired.push([lane, plannedUs - t0]));
      const byLane = (a: number[], b: number[]) => a[0]! - b[0]! || a[1]! - b[1]!;
      return { slots: [...slots].sort(byLane), unfired: [...unfired].sort(byLane), timers };
    };
    const one = await sentBy('one');
    const each = await sentBy('each');
    expect(each.slots).toEqual(one.slots);
    expect(each.unfired).toEqual(one.unfired);
    expect(one.slots.length + one.unfired.length).toBe(12);
    expect([one.timers, each.timers]).toEqual([1, 3]);
  });
});
