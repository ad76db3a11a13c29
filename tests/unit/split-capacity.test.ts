import { describe, expect, it } from 'vitest';
import { capacityShortfall, splitWithinCapacity } from '../../core/plan/worker-shares.ts';

describe('splitting connections within capacities', () => {
  it.each([
    { name: 'no limits: an even split', connections: 10, capacities: [null, null, null], counts: [4, 3, 3] },
    { name: 'a browser capped at 255 beside a runner takes its 255, the runner the rest', connections: 1_000, capacities: [255, null], counts: [255, 745] },
    { name: 'two browser workers of 128 and 127 and two runner threads', connections: 1_000, capacities: [128, 127, null, null], counts: [128, 127, 373, 372] },
    { name: 'caps above the even share change nothing', connections: 100, capacities: [255, 255], counts: [50, 50] },
    { name: 'exactly full', connections: 8, capacities: [4, 4], counts: [4, 4] },
    { name: 'zero connections', connections: 0, capacities: [4, null], counts: [0, 0] },
  ])('$name', ({ connections, capacities, counts }) => {
    const shares = splitWithinCapacity(connections, capacities);
    expect(shares.map((s) => s.count)).toEqual(counts);
    // Contiguous run-wide indices: the scenario plans rely on them.
    let next = 0;
    for (const share of shares) {
      expect(share.firstIndex).toBe(next);
      next += share.count;
    }
    expect(next).toBe(connections);
  });

  it('says how many connections do not fit, and refuses to split them', () => {
    expect(capacityShortfall(600, [255, 255])).toBe(90);
    expect(capacityShortfall(600, [255, null])).toBe(0);
    expect(() => splitWithinCapacity(600, [255, 255])).toThrow('The workers can hold 510 of 600 connections.');
  });
});
