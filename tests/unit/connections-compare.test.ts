/** The connections benchmark says when memory per connection or the ramp got worse than its last row by more than the spread. */
import { describe, expect, it } from 'vitest';
import { compareWithLast, rampSeconds, runnerRampSeconds, type ConnectionsRow } from '../../bench/connections-compare.mjs';

const spread = { kbPerConnection: 0.1, rampPerSec: 0.3 };
const control = (kbPerConnection: number, rampPerSec: number) => ({ kbPerConnection, rampPerSec });
const row = (date: string, connections: number, kbPerConnection: number | null, rampPerSec: number | null, control?: ConnectionsRow['control']): ConnectionsRow =>
  ({ date, connections, kbPerConnection, rampPerSec, ...(control ? { control } : {}) });

describe('compareWithLast', () => {
  const history = [row('2026-11-20', 10_000, 50, 1_000), row('2026-11-21', 20_000, 30, 1_500), row('2026-11-22', 10_000, 53, 833)];

  it('compares with the last row at the same connection count, and is quiet within the spread', () => {
    const result = compareWithLast(history, row('2026-11-26', 10_000, 58, 600), spread);
    expect(result.last?.date).toBe('2026-11-22');
    expect(result.regressions).toEqual([]);
    expect(result.lines[0]).toMatch(/^memory per connection: \+9% \(53 KB on 2026-11-22 → 58 KB; spread ±10%\), within/);
    expect(result.lines[1]).toMatch(/^ramp: -28% .*within/);
  });

  it('says REGRESSION for memory up or ramp down by more than the spread, better is never one', () => {
    const worse = compareWithLast(history, row('2026-11-26', 10_000, 73, 580), spread);
    expect(worse.regressions).toHaveLength(2);
    expect(worse.regressions[0]).toMatch(/^REGRESSION: memory per connection \+38% \(53 KB on 2026-11-22 → 73 KB; spread ±10%\), worse by more than the run-to-run spread\.$/);
    expect(worse.regressions[1]).toMatch(/^REGRESSION: ramp -30% /);
    expect(compareWithLast(history, row('2026-11-26', 10_000, 20, 3_000), spread).regressions).toEqual([]);
  });

  it('points at the machine when the control got worse too', () => {
    const last = row('2026-11-22', 10_000, 53, 833, control(40, 800));
    const now = row('2026-11-26', 10_000, 73, 833, control(55, 800));
    const [regression] = compareWithLast([last], now, spread).regressions;
    expect(regression).toMatch(/control got worse too \(\+38%\): the machine may be the cause; repeat the pair\.$/);
  });

  it('compares the ramp as a ratio to the control when both rows have one: a loaded machine slows both', () => {
    const last = row('2026-11-26', 10_000, 36, 909, control(37, 1_215));
    // Both ramps halved with the load: the ratio held.
    const loaded = compareWithLast([last], row('2026-11-27', 10_000, 36, 400, control(37, 560)), spread);
    expect(loaded.regressions).toEqual([]);
    expect(loaded.lines[1]).toMatch(/^ramp against the control: -5% \(0\.75x on 2026-11-26 → 0\.71x; spread ±30%\), within/);
    // The runner alone got slower.
    const slower = compareWithLast([last], row('2026-11-27', 10_000, 36, 450, control(37, 1_200)), spread);
    expect(slower.regressions).toHaveLength(1);
    expect(slower.regressions[0]).toMatch(/^REGRESSION: ramp against the control -50% \(0\.75x on 2026-11-26 → 0\.38x; spread ±30%\)/);
  });

  it('with no earlier row at that count, this run is the reference; an unknown figure is said, never a regression', () => {
    expect(compareWithLast(history, row('2026-11-26', 25_000, 25, 1_500), spread)).toMatchObject({ last: null, regressions: [] });
    const unknown = compareWithLast(history, row('2026-11-26', 10_000, 53, null), spread);
    expect(unknown.regressions).toEqual([]);
    expect(unknown.lines[1]).toBe('ramp: unknown (– now, 833 on 2026-11-22).');
  });
});

describe('compareWithLast, by engine kind', () => {
  // Each field a row keeps about how it ran: a row is compared only with rows alike in it, and a
  // row from before the field was kept counts as its default.
  it.each([
    { field: 'engines', other: 'processes', usual: 'threads', connections: 10_000, kind: 'processes' },
    { field: 'negotiation', other: 'skipped', usual: 'negotiated', connections: 10_000, kind: 'threads, negotiation skipped' },
    { field: 'transport', other: 'ServerSentEvents', usual: 'WebSockets', connections: 4_000, kind: 'threads, ServerSentEvents' },
    { field: 'workers', other: 1, usual: 2, connections: 4_000, kind: 'threads, 1 engine' },
  ] as const)('compares a row whose $field is $other only with rows alike (rows without the field: $usual)', ({ field, other, usual, connections, kind }) => {
    const before = row('2026-11-26', connections, 36, 909, control(37, 1_215));
    const alike = { ...row('2026-11-27', connections, 45, 700, control(37, 1_215)), [field]: other };
    expect(compareWithLast([before], { ...alike, date: '2026-11-28' }, spread)).toMatchObject({ last: null, regressions: [], lines: [`No earlier row at ${connections} connections with engine ${kind}: this run is the reference.`] });
    expect(compareWithLast([before, alike], { ...alike, date: '2026-11-28' }, spread).last?.date).toBe('2026-11-27');
    expect(compareWithLast([before, alike], { ...before, date: '2026-11-28', [field]: usual }, spread).last?.date).toBe('2026-11-26');
  });

  it('long polling is not compared with Server-Sent Events', () => {
    const sse = { ...row('2026-11-27', 4_000, 60, 200, control(70, 250)), transport: 'ServerSentEvents' as const };
    expect(compareWithLast([sse], { ...sse, date: '2026-11-28', transport: 'LongPolling' as const }, spread).last).toBeNull();
  });
});

describe('rampSeconds', () => {
  it('interpolates inside the second in which the last connection opened', () => {
    const points = [{ second: 1, connectionsOpen: 1_000 }, { second: 2, connectionsOpen: 2_500 }, { second: 3, connectionsOpen: 3_000 }, { second: 4, connectionsOpen: 3_000 }];
    expect(rampSeconds(points, 3_000)).toBe(3);
    expect(rampSeconds(points, 2_000)).toBeCloseTo(1 + 1_000 / 1_500, 9);
    expect(rampSeconds(points, 500)).toBe(0.5);
    expect(rampSeconds(points, 3_001)).toBeNull();
  });

  it("reads a runner's ramp to the microsecond until its last connection opened, then when every engine was ready, and from the points for reports kept before those", () => {
    const points = [{ second: 1, connectionsOpen: 600 }, { second: 2, connectionsOpen: 1_000 }];
    const totals = { connectionsOpened: 1_000 };
    expect(runnerRampSeconds({ sendWindow: { runStartUs: 5_000_000, readyUs: 6_730_000, lastOpenedUs: 6_700_000 }, points, totals })).toBeCloseTo(1.7, 9);
    expect(runnerRampSeconds({ sendWindow: { runStartUs: 5_000_000, readyUs: 6_730_000 }, points, totals })).toBeCloseTo(1.73, 9);
    expect(runnerRampSeconds({ sendWindow: { runStartUs: 5_000_000 }, points, totals })).toBe(2);
    expect(runnerRampSeconds({ points, totals })).toBe(2);
  });
});
