import { describe, it, expect } from 'vitest';
import { estimateWorkload, type WorkloadPart } from '../../../core/guide/workload.ts';
import type { EditionId } from '../../../core/guide/types.ts';

const part = (p: Partial<WorkloadPart> & Pick<WorkloadPart, 'scenario' | 'connections'>): WorkloadPart => ({
  messageBytes: 2048,
  sendIntervalMs: 1000,
  ...p,
});
const caveatIds = (parts: WorkloadPart[], id: EditionId) =>
  (estimateWorkload(parts).byEdition[id]?.caveats ?? []).map((c) => c.id).sort();
const advice = (parts: WorkloadPart[], id: EditionId) => {
  const found = estimateWorkload(parts).byEdition[id];
  if (!found) throw new Error(`no advice for ${id}`);
  return found;
};

describe('mixed workloads: split, compute each part, sum, pick the tier', () => {
  // 4,000 echo clients plus a ticker broadcasting 100-B messages (counted as 1,024 B) to 6,000.
  const chatAndTicker = [
    part({ scenario: 'echo', connections: 4000, label: 'chat' }),
    part({ scenario: 'broadcast', connections: 6000, senders: 2, messageBytes: 100, label: 'ticker' }),
  ];

  it('sums messages and bandwidth over the parts', () => {
    expect(estimateWorkload(chatAndTicker).totals).toEqual({
      connections: 10_000,
      inboundMessagesPerSecond: 4002,
      outboundMessagesPerSecond: 16_000,
      inboundBytesPerSecond: 4000 * 2048 + 200,
      outboundBytesPerSecond: 4000 * 2048 + 12_000 * 100,
      effectiveInboundBytesPerSecond: 4000 * 2048 + 2 * 1024,
      effectiveOutboundBytesPerSecond: 4000 * 2048 + 12_000 * 1024,
    });
  });

  it('fits Unit10: outbound is exactly Unit5\'s 20 MBps but 10,000 connections exceed it', () => {
    const fit = advice(chatAndTicker, '2019').fit;
    expect(fit.tier).toBe('Unit10');
    expect(fit.checks.find((c) => c.tier === 'Unit5')?.reasons).toEqual(["10,000 connections exceed Unit5's 5,000."]);
  });

  it.each([
    { name: 'two halves of Unit1 sum to exactly Unit1', extra: 0, tier: 'Unit1' },
    { name: 'one more connection on top moves to Unit2', extra: 1, tier: 'Unit2' },
  ])('$name', ({ extra, tier }) => {
    const parts = [part({ scenario: 'echo', connections: 500 }), part({ scenario: 'echo', connections: 500 })];
    if (extra) parts.push(part({ scenario: 'echo', connections: extra }));
    expect(advice(parts, '2019').fit.tier).toBe(tier);
  });

  it('labels unlabeled parts by scenario and position', () => {
    expect(estimateWorkload([part({ scenario: 'echo', connections: 1 }), part({ scenario: 'echo', connections: 1 })]).parts.map((p) => p.label)).toEqual(['echo #1', 'echo #2']);
  });

  it('rejects an empty workload', () => {
    expect(() => estimateWorkload([])).toThrow(/at least one part/);
  });
});

describe('routing capacity is shared between small groups and send to connection', () => {
  // 2019 Unit10 routes 2,500 small-group or 8,000 send-to-connection messages/s.
  const mix = (toConnection: number) => [
    part({ scenario: 'smallGroup', connections: 5000, senders: 1250 }),
    part({ scenario: 'sendToConnection', connections: 5000, senders: toConnection }),
  ];

  it('50% + 50% of Unit10\'s rates fits Unit10 exactly', () => {
    expect(advice(mix(4000), '2019').fit.tier).toBe('Unit10');
  });

  it('one message more needs Unit20, and the reason names both parts', () => {
    const fit = advice(mix(4001), '2019').fit;
    expect(fit.tier).toBe('Unit20');
    expect(fit.checks.find((c) => c.tier === 'Unit10')?.reasons).toEqual([
      "routing: 1,250 send-to-small-group messages/s (Unit10 allows 2,500/s) plus 4,001 send-to-connection messages/s (Unit10 allows 8,000/s) need 100.01% of Unit10's published routing capacity.",
    ]);
  });
});

describe('app servers from the guide\'s tables', () => {
  it.each([
    { id: '2019' as EditionId, perPart: [2, 2], recommended: 4, minimum: 2 },
    { id: 'current' as EditionId, perPart: [1, 1], recommended: 2, minimum: 1 },
  ])('$id: echo 4,000 + broadcast 6,000 -> $recommended', ({ id, perPart, recommended, minimum }) => {
    const servers = advice([part({ scenario: 'echo', connections: 4000 }), part({ scenario: 'broadcast', connections: 6000 })], id).appServers;
    expect(servers.perPart.map((p) => p.appServers)).toEqual(perPart);
    expect([servers.recommended, servers.minimum]).toEqual([recommended, minimum]);
  });

  it.each([
    { name: '2019 echo 10,000 -> Unit10 row, 3', id: '2019' as EditionId, scenario: 'echo' as const, connections: 10_000, basis: 'Unit10', count: 3 },
    { name: '2019 echo 10,001 -> Unit20 row, 3', id: '2019' as EditionId, scenario: 'echo' as const, connections: 10_001, basis: 'Unit20', count: 3 },
    { name: '2019 send to connection 20,001 -> Unit50 row, 10', id: '2019' as EditionId, scenario: 'sendToConnection' as const, connections: 20_001, basis: 'Unit50', count: 10 },
    { name: 'current small group 100,001 -> Unit200 row, 20', id: 'current' as EditionId, scenario: 'smallGroup' as const, connections: 100_001, basis: 'Unit200', count: 20 },
    { name: 'current big group 10,000 -> Unit10 row, 2', id: 'current' as EditionId, scenario: 'bigGroup' as const, connections: 10_000, basis: 'Unit10', count: 2 },
  ])('$name', ({ id, scenario, connections, basis, count }) => {
    const servers = advice([part({ scenario, connections })], id).appServers;
    expect(servers.perPart[0]).toMatchObject({ basisTier: basis, appServers: count });
    expect(servers.recommended).toBe(count);
  });

  it('a part beyond the table leaves the recommendation open and says why', () => {
    const servers = advice([part({ scenario: 'echo', connections: 150_000 })], '2019').appServers;
    expect(servers.recommended).toBeNull();
    expect(servers.notes[0]).toMatch(/150,000 connections are beyond the 2019 echo app-server table \(largest row Unit100, 100,000\)/);
  });
});

describe('the guide\'s caveats, as data, applied to the workload', () => {
  it('current, send to connection at Unit100: server load, routing cost at Unit50+, Unit20 plateau', () => {
    const parts = [part({ scenario: 'sendToConnection', connections: 60_000, senders: 20_000 })];
    expect(advice(parts, 'current').fit.tier).toBe('Unit100');
    expect(caveatIds(parts, 'current')).toEqual(
      ['appServerNotBottleneck', 'mixedRoutingCost', 'routingCostNotInServerLoad', 'sendToConnectionRoutingLimit', 'serverLoadUnder70Percent'].sort(),
    );
  });

  it('current, groups of 25 at Unit50: no "group size < 20" routing caveat, but the Unit50 small-group limit', () => {
    const parts = [part({ scenario: 'smallGroup', connections: 50_000, groupSize: 25, senders: 1000 })];
    expect(advice(parts, 'current').fit.tier).toBe('Unit50');
    const ids = caveatIds(parts, 'current');
    expect(ids).not.toContain('routingCostNotInServerLoad');
    expect(ids).toContain('smallGroupRoutingLimit');
    expect(ids).toContain('groupSizesNotHardLimits');
  });

  it('current, groups of 10 at Unit50: the routing caveat applies', () => {
    expect(caveatIds([part({ scenario: 'smallGroup', connections: 50_000, senders: 1000 })], 'current')).toContain('routingCostNotInServerLoad');
  });

  it('current, above Unit100: Premium_P2', () => {
    const parts = [part({ scenario: 'echo', connections: 150_000 })];
    expect(advice(parts, 'current').fit.tier).toBe('Unit200');
    expect(caveatIds(parts, 'current')).toEqual(['appServerNotBottleneck', 'premiumP2AboveUnit100', 'serverLoadUnder70Percent']);
  });

  it('2019, beyond Unit100: no tier, contact support; no 70% server-load caveat in 2019', () => {
    expect(caveatIds([part({ scenario: 'echo', connections: 150_000 })], '2019')).toEqual(['appServerNotBottleneck', 'noPublishedTierFits']);
  });

  it('2019, small messages in a broadcast: the 1,024-B rule and 40 server connections', () => {
    expect(caveatIds([part({ scenario: 'broadcast', connections: 100, messageBytes: 512 })], '2019')).toEqual(
      ['appServerNotBottleneck', 'serverConnections40', 'smallMessagesCountAs1024'],
    );
  });

  it('2019, send to connection below Unit50: routing-cost note but not the Unit50 limit', () => {
    const ids = caveatIds([part({ scenario: 'sendToConnection', connections: 1000 })], '2019');
    expect(ids).toEqual(['appServerNotBottleneck', 'mixedRoutingCost']);
  });
});
