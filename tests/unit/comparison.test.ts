import { describe, expect, it } from 'vitest';
import { comparisonTable, RATE_TOLERANCE, sharedLoad, WIN_TOLERANCE, type ComparedRun } from '../../core/compare/comparison.ts';
import { CURVE_PERCENTILES, ninesPosition, percentileCurve } from '../../core/charts/percentile-curve.ts';
import { onSameSeconds, overlay, p99Ms } from '../../core/charts/series-overlay.ts';
import type { RunResult } from '../../core/result/result.ts';
import { finishedRun } from '../support/finished-run.ts';

const column = (table: ReturnType<typeof comparisonTable>, key: string) => {
  const c = table.columns.findIndex((col) => col.key === key);
  if (c < 0) throw new Error(`no column ${key}`);
  return { winner: table.winners[c]!, cells: table.rows.map((row) => row.cells[c]!) };
};

describe('comparisonTable', () => {
  it('picks the winner of each column by the right direction, from real runs with different delays', async () => {
    // 600 messages a run: enough for p99 to name a best (500), not for p99.9 (5,000).
    const load = { connections: 20, sendIntervalMs: 100, durationSec: 3 };
    const fast = await finishedRun(load, { deliveryDelayMs: 3 });
    const slow = await finishedRun(load, { deliveryDelayMs: 40, drop: (connection, n) => connection === 0 && n === 5 });
    const table = comparisonTable([{ label: 'fast', result: fast }, { label: 'slow', result: slow }]);
    expect(column(table, 'p999').winner).toMatchObject({ winners: [], tie: false, tooFew: 5_000 });
    expect(table.rows.map((r) => r.label)).toEqual(['fast', 'slow']);
    for (const key of ['p50', 'p99', 'max', 'delivered']) expect(column(table, key).winner.winners, key).toEqual(['fast']);
    // The dropped message is lost in the slow run only.
    expect(column(table, 'lost').cells.map((c) => c.value)).toEqual([0, 1]);
    expect(column(table, 'lost').winner.winners).toEqual(['fast']);
    expect(column(table, 'p99').cells.map((c) => c.winner)).toEqual([true, false]);
    expect(column(table, 'p99').cells[1]!.text).toMatch(/^40\.\d ms$/);
    // Both sent every message on time: a tie, nobody wins.
    expect(column(table, 'missedSlots').winner).toMatchObject({ tie: true, winners: [] });
    expect(column(table, 'errors').cells.every((c) => !c.winner)).toBe(true);
  });

  it('higher wins for rates and the share under 1 s; a run without messages has no figure, not a zero', async () => {
    const load = { connections: 20, sendIntervalMs: 100, durationSec: 3 };
    const ok = await finishedRun(load, { deliveryDelayMs: 5 });
    const silent = await finishedRun(load, { deliveryDelayMs: 5, drop: () => true });
    const table = comparisonTable([{ label: 'silent', result: silent }, { label: 'ok', result: ok }]);
    expect(column(table, 'receivedPerSec').winner.winners).toEqual(['ok']);
    expect(column(table, 'underOneSecond').winner.winners).toEqual(['ok']);
    expect(column(table, 'p99').cells[0]).toEqual({ value: null, text: '–', winner: false });
    expect(column(table, 'p99').winner.winners).toEqual(['ok']);
  });

  it('marks winners by position, so runs with the same name are told apart', async () => {
    const a = await finishedRun({}, { deliveryDelayMs: 2 });
    const b = await finishedRun({}, { deliveryDelayMs: 20 });
    const table = comparisonTable([{ label: 'same', result: b }, { label: 'same', result: a }]);
    expect(column(table, 'p50').winner.winnerIndexes).toEqual([1]);
    expect(column(table, 'p50').cells.map((c) => c.winner)).toEqual([false, true]);
  });

  it('names no winner for a single run', async () => {
    const table = comparisonTable([{ label: 'only', result: await finishedRun() }]);
    expect(table.winners.every((w) => w.winners.length === 0)).toBe(true);
  });

  it('bandwidth and bytes per message: fewer bytes for the same messages win', () => {
    const base = { latency: { count: 0 }, connectTimes: { count: 0 }, errorCounts: {}, fates: { lost: 0 }, workers: [], verdict: { share: null, delivery: null } };
    const withBytes = (bytes: number) => ({
      ...base,
      totals: { sent: 40, received: 40, sentBytes: bytes * 4, receivedBytes: bytes * 4, missedSlots: 0 },
      // Second 0 connected and warmed up: bytes carried, no measured message (outside both figures).
      points: [{ second: 0, sent: 0, received: 0, sentBytes: 50_000, receivedBytes: 50_000 }, ...[1, 2, 3, 4].map((second) => ({ second, sent: 10, received: 10, sentBytes: bytes, receivedBytes: bytes }))],
    }) as unknown as RunResult;
    const runs: ComparedRun[] = [{ label: 'json', result: withBytes(3_000) }, { label: 'msgpack', result: withBytes(2_000) }];
    const table = comparisonTable(runs);
    const bandwidth = column(table, 'bandwidth');
    expect(bandwidth.cells.map((c) => c.value)).toEqual([6_000, 4_000]);
    expect(bandwidth.winner.winners).toEqual(['msgpack']);
    expect(bandwidth.cells[1]!.text).toBe('3.9 KB/s');
    const perMessage = column(table, 'bytesPerMessage');
    expect(perMessage.cells.map((c) => c.text)).toEqual(['300 B', '200 B']);
    expect(perMessage.winner.winners).toEqual(['msgpack']);
  });
});

describe('comparisonTable tolerance', () => {
  const base = { latency: { count: 0 }, connectTimes: { count: 0 }, totals: { missedSlots: 0 }, errorCounts: {}, fates: { lost: 0 }, workers: [], verdict: { share: null, delivery: null } };
  const withRate = (received: number) => ({ ...base, points: [1, 2, 3].map((second) => ({ second, sent: 40, received, sentBytes: 0, receivedBytes: 0 })) }) as unknown as RunResult;
  const rates = (...values: number[]) => comparisonTable(values.map((v, i) => ({ label: `r${i}`, result: withRate(v) })));

  it('counts rates within 5% of the best as equally good: a tie when all are', () => {
    expect(RATE_TOLERANCE).toBe(0.05);
    expect(column(rates(1_000, 955), 'receivedPerSec').winner).toMatchObject({ tie: true, winners: [] });
    expect(column(rates(1_000, 955, 900), 'receivedPerSec').winner).toMatchObject({ tie: false, winners: ['r0', 'r1'] });
    expect(column(rates(1_000, 949), 'receivedPerSec').winner).toMatchObject({ tie: false, winners: ['r0'] });
  });

  it('counts latencies within 1% of the best as equally good', () => {
    expect(WIN_TOLERANCE).toBe(0.01);
    const withP99 = (p99Us: number) => ({ ...base, points: [], latency: { count: 1_000, p50Us: 1, p90Us: 1, p99Us, p999Us: 1, maxUs: 1, meanUs: 1 } }) as unknown as RunResult;
    const p99 = (...values: number[]) => column(comparisonTable(values.map((v, i) => ({ label: `r${i}`, result: withP99(v) }))), 'p99').winner;
    expect(p99(10_000, 10_099)).toMatchObject({ tie: true });
    expect(p99(10_000, 10_101)).toMatchObject({ tie: false, winners: ['r0'] });
    // With 20 messages a run p99 is the slowest message: no best is marked, whatever the gap.
    const few = (p99Us: number) => ({ ...withP99(p99Us), latency: { ...withP99(p99Us).latency, count: 20 } }) as unknown as RunResult;
    expect(column(comparisonTable([{ label: 'a', result: few(35_700) }, { label: 'b', result: few(144_300) }]), 'p99').winner).toMatchObject({ winners: [], tie: false, tooFew: 500 });
  });
});

describe('sharedLoad', () => {
  it('names the load when every run had the same one, and nothing when they differ', async () => {
    const ws = await finishedRun({ transport: 'WebSockets' });
    const lp = await finishedRun({ transport: 'LongPolling', protocol: 'messagepack' });
    expect(sharedLoad([ws, lp])).toBe('Echo · 4 connections · 2,048 B every 100 ms · 3 s');
    const other = await finishedRun({ connections: 6 });
    expect(sharedLoad([ws, other])).toBeNull();
    expect(sharedLoad([])).toBeNull();
  });
});

describe('percentileCurve', () => {
  it('merges every second\'s histogram into the whole run\'s distribution', async () => {
    const result = await finishedRun({}, { deliveryDelayMs: 12 });
    const curve = percentileCurve(result);
    expect(curve.count).toBe(result.latency.count);
    expect(curve.latencyMs).toHaveLength(CURVE_PERCENTILES.length);
    // Every message took 12 ms on the fake clock: the curve is flat at 12 ms (3 significant digits).
    for (const ms of curve.latencyMs) expect(ms).toBeCloseTo(12, 1);
    expect(curve.latencyMs[CURVE_PERCENTILES.indexOf(99)]).toBeCloseTo(result.latency.p99Us! / 1_000, 6);
  });

  it('is empty for a run with no message', async () => {
    const curve = percentileCurve(await finishedRun({}, { deliveryDelayMs: 5, drop: () => true }));
    expect(curve).toEqual({ count: 0, latencyMs: CURVE_PERCENTILES.map(() => null) });
  });

  it('places percentiles on a nines axis', () => {
    expect([0, 90, 99, 99.9].map(ninesPosition).map((x) => Number(x.toFixed(6)))).toEqual([0, 1, 2, 3]);
    expect(ninesPosition(100)).toBe(5);
  });
});

describe('comparisonTable exact columns', () => {
  it('one lost message in a hundred is a difference, not noise', () => {
    const base = { latency: { count: 0 }, connectTimes: { count: 0 }, errorCounts: {}, workers: [], points: [] };
    const run = (received: number) => ({ ...base, fates: { lost: 100 - received }, verdict: { share: received / 100, delivery: received / 100 }, totals: { received, missedSlots: 0 } }) as unknown as RunResult;
    const table = comparisonTable([{ label: 'all', result: run(100) }, { label: 'one short', result: run(99) }]);
    expect(column(table, 'delivered').winner).toMatchObject({ tie: false, winners: ['all'] });
    expect(column(table, 'lost').winner).toMatchObject({ tie: false, winners: ['all'] });
  });
});

describe('overlay', () => {
  it('lines up runs of different lengths on seconds since their start, with gaps where a run has nothing', () => {
    const point = (second: number, received: number, latencyCount = received) => ({ second, received, latency: { count: latencyCount, p99Us: second * 1_000 } });
    const a = { points: [point(1, 10), point(2, 20), point(3, 30)] } as unknown as RunResult;
    const b = { points: [point(2, 5, 0), point(4, 7)] } as unknown as RunResult;
    expect(overlay([a, b], (p) => p.received)).toEqual({ seconds: [1, 2, 3, 4], values: [[10, 20, 30, null], [null, 5, null, 7]] });
    expect(overlay([a, b], p99Ms).values).toEqual([[1, 2, 3, null], [null, null, null, 4]]);
  });

  it("puts each run on its own send clock, to the whole second, and two charts on the same seconds", () => {
    const point = (second: number, received: number) => ({ second, received, latency: { count: received, p99Us: second * 1_000 } });
    // A connected its clients in 1.3 s, B in 2.6 s: their first planned sends are both 0.
    const window = (offsetSec: number) => ({ runStartUs: 1_000_000, startUs: 1_000_000 + offsetSec * 1_000_000, endUs: 9e9 });
    const a = { points: [point(1, 0), point(2, 10), point(3, 20), point(4, 30)], sendWindow: window(1.3) } as unknown as RunResult;
    const b = { points: [point(3, 5), point(4, 6), point(5, 7)], sendWindow: window(2.6) } as unknown as RunResult;
    const o = overlay([a, b], (p) => p.received);
    expect(o).toEqual({ seconds: [0, 1, 2, 3], values: [[0, 10, 20, 30], [5, 6, 7, null]] });
    const [first, second] = onSameSeconds([o, { seconds: [2, 3, 4], values: [[1, 2, 3], [4, 5, 6]] }]);
    expect(first!.seconds).toEqual([0, 1, 2, 3, 4]);
    expect(second!.seconds).toEqual(first!.seconds);
    expect(second!.values).toEqual([[null, null, 1, 2, 3], [null, null, 4, 5, 6]]);
    expect(first!.values[1]).toEqual([5, 6, 7, null, null]);
  });
});
