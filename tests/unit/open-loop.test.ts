import { describe, expect, it } from 'vitest';
import { OpenLoop } from '../../workers/engine/open-loop.ts';
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
