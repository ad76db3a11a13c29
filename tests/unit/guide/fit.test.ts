import { describe, it, expect } from 'vitest';
import { fitRun, type GuideRunConfig } from '../../../core/guide/capacity-formulas.ts';
import { routingLimit, tierLimits } from '../../../core/guide/tier-fit.ts';
import type { EditionId } from '../../../core/guide/types.ts';

const KB = 1024;
const run = (config: Partial<GuideRunConfig> & Pick<GuideRunConfig, 'scenario' | 'connections'>): GuideRunConfig => ({
  messageBytes: 2048,
  sendIntervalMs: 1000,
  ...config,
});
const check = (config: GuideRunConfig, id: EditionId, tierName: string) => {
  const found = fitRun(config)[id].checks.find((c) => c.tier === tierName);
  if (!found) throw new Error(`no check for ${tierName}`);
  return found;
};

describe('tier limits come from the quick-evaluation tables', () => {
  it.each([
    { id: '2019' as EditionId, tier: 'Unit5', limits: { connections: 5000, inboundBytesPerSecond: 10_240_000, outboundBytesPerSecond: 20_480_000 } },
    { id: 'current' as EditionId, tier: 'Unit200', limits: { connections: 200_000, inboundBytesPerSecond: 409_600_000, outboundBytesPerSecond: 819_200_000 } },
  ])('$id $tier', ({ id, tier, limits }) => {
    expect(tierLimits(id, tier)).toEqual(limits);
  });

  it('rejects an unknown tier', () => {
    expect(() => tierLimits('2019', 'Unit200')).toThrow(/Unknown tier "Unit200" in the 2019 edition/);
  });
});

describe('smallest fitting tier at the boundaries', () => {
  const cases: Array<{ name: string; config: GuideRunConfig; tier2019: string | null; tierCurrent: string | null }> = [
    { name: 'echo 1,000 x 2,048 B/s: exactly Unit1 (connections and inbound at the limit)', config: run({ scenario: 'echo', connections: 1000 }), tier2019: 'Unit1', tierCurrent: 'Unit1' },
    { name: 'echo 1,001 connections: one over Unit1', config: run({ scenario: 'echo', connections: 1001 }), tier2019: 'Unit2', tierCurrent: 'Unit2' },
    { name: 'echo 1,000 x 2,049 B: one byte over Unit1 inbound', config: run({ scenario: 'echo', connections: 1000, messageBytes: 2049 }), tier2019: 'Unit2', tierCurrent: 'Unit2' },
    { name: 'echo 2,001 connections: 2019 has Unit5, current jumps to Unit10', config: run({ scenario: 'echo', connections: 2001 }), tier2019: 'Unit5', tierCurrent: 'Unit10' },
    { name: 'echo 100,000: exactly Unit100', config: run({ scenario: 'echo', connections: 100_000 }), tier2019: 'Unit100', tierCurrent: 'Unit100' },
    { name: 'echo 100,001: beyond 2019, Unit200 (Premium_P2) now', config: run({ scenario: 'echo', connections: 100_001 }), tier2019: null, tierCurrent: 'Unit200' },
    { name: 'broadcast 2 senders to 1,000: exactly Unit1 outbound (4 MBps)', config: run({ scenario: 'broadcast', connections: 1000, senders: 2 }), tier2019: 'Unit1', tierCurrent: 'Unit1' },
    { name: 'broadcast 3 senders to 1,000: outbound over Unit1', config: run({ scenario: 'broadcast', connections: 1000, senders: 3 }), tier2019: 'Unit2', tierCurrent: 'Unit2' },
    { name: 'worked example: 1 sender, 20 KB every 5 s to 100,000', config: run({ scenario: 'broadcast', connections: 100_000, messageBytes: 20 * KB, sendIntervalMs: 5000 }), tier2019: 'Unit100', tierCurrent: 'Unit100' },
    { name: 'worked example, every 4.999 s: outbound over Unit100', config: run({ scenario: 'broadcast', connections: 100_000, messageBytes: 20 * KB, sendIntervalMs: 4999 }), tier2019: null, tierCurrent: 'Unit200' },
    { name: 'send to connection 8,000/s on 10,000: exactly 2019 Unit10 routing', config: run({ scenario: 'sendToConnection', connections: 10_000, senders: 8000 }), tier2019: 'Unit10', tierCurrent: 'Unit50' },
    { name: 'send to connection 8,001/s: over 2019 Unit10 routing', config: run({ scenario: 'sendToConnection', connections: 10_000, senders: 8001 }), tier2019: 'Unit20', tierCurrent: 'Unit50' },
    { name: 'send to connection 20,001/s: routing cap no 2019 tier lifts', config: run({ scenario: 'sendToConnection', connections: 50_000, senders: 20_001 }), tier2019: null, tierCurrent: 'Unit200' },
    { name: 'small group 2,000/s on 10,000: 2019 Unit10', config: run({ scenario: 'smallGroup', connections: 10_000, senders: 2000 }), tier2019: 'Unit10', tierCurrent: 'Unit10' },
    { name: 'small group 2,500/s on 10,000 (2019 Unit10 row): 50 MBps out exceeds Unit10', config: run({ scenario: 'smallGroup', connections: 10_000, senders: 2500 }), tier2019: 'Unit20', tierCurrent: 'Unit50' },
    { name: 'small group 7,001/s: over 2019 Unit50 and Unit100 routing', config: run({ scenario: 'smallGroup', connections: 50_000, senders: 7001 }), tier2019: null, tierCurrent: 'Unit50' },
    { name: 'small group 10,001/s on 100,000: over current Unit100 routing', config: run({ scenario: 'smallGroup', connections: 100_000, senders: 10_001 }), tier2019: null, tierCurrent: 'Unit200' },
    { name: '512 B every 500 ms on 1,000: counts as 1,024 B, exactly Unit1', config: run({ scenario: 'echo', connections: 1000, messageBytes: 512, sendIntervalMs: 500 }), tier2019: 'Unit1', tierCurrent: 'Unit1' },
    { name: '512 B every 499 ms on 1,000: over Unit1 only because of the 1,024-B rule', config: run({ scenario: 'echo', connections: 1000, messageBytes: 512, sendIntervalMs: 499 }), tier2019: 'Unit2', tierCurrent: 'Unit2' },
  ];
  it.each(cases)('$name -> 2019 $tier2019, current $tierCurrent', ({ config, tier2019, tierCurrent }) => {
    const fits = fitRun(config);
    expect(fits['2019'].tier).toBe(tier2019);
    expect(fits.current.tier).toBe(tierCurrent);
  });

  it.each(cases)('every non-fitting tier says why: $name', ({ config }) => {
    for (const fit of Object.values(fitRun(config))) {
      for (const c of fit.checks) expect(c.fits ? c.reasons.length === 0 : c.reasons.length > 0).toBe(true);
    }
  });
});

describe('reasons name the limit that was exceeded', () => {
  it('one connection over: only the connection limit', () => {
    expect(check(run({ scenario: 'echo', connections: 1001, messageBytes: 1024 }), '2019', 'Unit1').reasons).toEqual([
      "1,001 connections exceed Unit1's 1,000.",
    ]);
  });

  it('one byte over: only inbound bandwidth, with both numbers', () => {
    expect(check(run({ scenario: 'echo', connections: 1000, messageBytes: 2049 }), '2019', 'Unit1').reasons).toEqual([
      "inbound 2,049,000 B/s (2.001 MBps) exceeds Unit1's maximum inbound bandwidth 2,048,000 B/s (2 MBps, echo table).",
    ]);
  });

  it('broadcast over: outbound bandwidth', () => {
    const reasons = check(run({ scenario: 'broadcast', connections: 1000, senders: 3 }), 'current', 'Unit1').reasons;
    expect(reasons).toEqual(["outbound 6,144,000 B/s (6 MBps) exceeds Unit1's maximum outbound bandwidth 4,096,000 B/s (4 MBps, broadcast table)."]);
  });

  it('send to connection over the routing rate', () => {
    expect(check(run({ scenario: 'sendToConnection', connections: 10_000, senders: 8001 }), '2019', 'Unit10').reasons).toEqual([
      "routing: 8,001 send-to-connection messages/s (Unit10 allows 8,000/s) need 100.01% of Unit10's published routing capacity.",
    ]);
  });

  it('small group at the 2019 Unit50 routing cap', () => {
    const reasons = check(run({ scenario: 'smallGroup', connections: 50_000, senders: 7001 }), '2019', 'Unit100').reasons;
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toMatch(/^routing: 7,001 send-to-small-group messages\/s \(Unit100 allows 7,000\/s\)/);
  });
});

describe('a tier missing from a routing table borrows the next smaller published rate', () => {
  it('current send to connection has no Unit10 row: Unit2\'s 2,000/s is used, with a note', () => {
    expect(routingLimit('current', 'sendToConnection', 'Unit10')).toEqual({ inboundMessagesPerSecond: 2000, basisTier: 'Unit2' });
    const c = check(run({ scenario: 'sendToConnection', connections: 5000, senders: 2000 }), 'current', 'Unit10');
    expect(c.fits).toBe(true);
    expect(c.notes).toEqual(["No published send-to-connection row for Unit10; using Unit2's 2,000 messages/s as a lower bound."]);
  });

  it('one message over that bound moves to Unit50', () => {
    const fits = fitRun(run({ scenario: 'sendToConnection', connections: 5000, senders: 2001 }));
    expect(fits.current.tier).toBe('Unit50');
    expect(fits.current.checks[2]?.reasons[0]).toMatch(/^routing: 2,001 send-to-connection/);
  });

  it('a published tier uses its own row', () => {
    expect(routingLimit('current', 'sendToConnection', 'Unit50')).toEqual({ inboundMessagesPerSecond: 20_000, basisTier: 'Unit50' });
  });
});

describe('fitRun editions', () => {
  it('evaluates only the editions asked for', () => {
    expect(Object.keys(fitRun(run({ scenario: 'echo', connections: 10 }), ['current']))).toEqual(['current']);
  });

  it('checks every tier of the edition in order', () => {
    expect(fitRun(run({ scenario: 'echo', connections: 10 })).current.checks.map((c) => c.units)).toEqual([1, 2, 10, 50, 100, 200, 500, 1000]);
  });
});
