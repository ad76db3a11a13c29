/** The peer benchmark's judgement of a round (bench/peers/peers-compare.mjs): each client's
 *  accounting, the runner's ratios to its peers, and the regression line against the last round. */
import { describe, expect, it } from 'vitest';
import { accountingHolds, compareWithLast, ratiosOf, type PeerRow } from '../../bench/peers/peers-compare.mjs';

const row = (client: PeerRow['client'], over: Partial<PeerRow> = {}): PeerRow => ({
  date: '2026-12-06 10:00', step: '5000x1', client, sent: 75_000, received: 75_000, lost: 0, missedSlots: 0,
  kbPerConnection: 60, connectsPerSec: 500, cpuMsPerConnect: 1.2, cpuMsPer1000: 100, ...over,
});

describe('the peer benchmark judgement', () => {
  it('a client\'s accounting sums only when every message it sent arrived or is counted lost', () => {
    expect(accountingHolds({ sent: 10, received: 8, lost: 2 })).toBe(true);
    expect(accountingHolds({ sent: 10, received: 8, lost: 1 })).toBe(false);
  });

  it('weighs a runner on time against peers on time only: a peer behind its plan spends less a message', () => {
    const runner = row('runner', { cpuMsPer1000: 102, kbPerConnection: 45 });
    const behind = row('control', { cpuMsPer1000: 50, missedSlots: 75_000 });
    const dotnet = row('dotnet', { cpuMsPer1000: 107 });
    expect(ratiosOf(runner, [behind, dotnet])).toMatchObject({ cpuPerMessage: 0.95, memory: 0.75 });
    // No peer on time: no ratio, rather than one against a client that batched behind.
    expect(ratiosOf(runner, [behind, row('dotnet', { missedSlots: 70_000 })]).cpuPerMessage).toBeNull();
    // A runner behind is weighed against every peer.
    expect(ratiosOf(row('runner', { cpuMsPer1000: 60, missedSlots: 75_000 }), [behind, dotnet]).cpuPerMessage).toBe(1.2);
  });

  it('says REGRESSION when a ratio got worse by more than the spread, and compares no round where the runner was behind', () => {
    const peers = [row('control'), row('dotnet', { cpuMsPer1000: 120 })];
    const last = { ...row('runner', { date: '2026-12-05 10:00' }), ratios: ratiosOf(row('runner'), peers) };
    const worse = compareWithLast([last], row('runner', { cpuMsPer1000: 140 }), peers);
    expect(worse.regressions).toHaveLength(1);
    expect(worse.regressions[0]).toMatch(/^REGRESSION at 5000x1: CPU per message/);
    expect(compareWithLast([last], row('runner', { cpuMsPer1000: 110 }), peers).regressions).toEqual([]);
    const behind = compareWithLast([last], row('runner', { cpuMsPer1000: 140, missedSlots: 9_000 }), peers);
    expect(behind.regressions).toEqual([]);
    expect(behind.lines.at(-1)).toMatch(/not compared .* behind its plan in this round \(9000 slots missed\)/);
    expect(compareWithLast([], row('runner'), peers).lines.at(-1)).toMatch(/this round is the reference/);
  });
});
