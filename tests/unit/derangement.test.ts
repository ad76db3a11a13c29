/**
 * Send-to-connection targets: a permutation with no fixed points, checked for every count from 2
 * to 200 over several seeds, plus the uniformity of Sattolo's algorithm over the single cycles.
 */
import { describe, expect, it } from 'vitest';
import { derangement } from '../../core/plan/derangement.ts';
import { seeded } from '../support/seeded-random.ts';


/** Length of the cycle through 0: equal to count exactly when the permutation is one cycle. */
function cycleLengthThroughZero(p: number[]): number {
  let length = 1;
  for (let i = p[0]!; i !== 0; i = p[i]!) length++;
  return length;
}

describe('derangement', () => {
  const seeds = [1, 2, 3, 42, 20_240_601];

  for (const seed of seeds) {
    it(`is a permutation without fixed points for every count 2..200 (seed ${seed})`, () => {
      const random = seeded(seed);
      for (let count = 2; count <= 200; count++) {
        const p = derangement(count, random);
        expect(p).toHaveLength(count);
        expect([...p].sort((a, b) => a - b)).toEqual(Array.from({ length: count }, (_, i) => i));
        const fixed = p.filter((target, i) => target === i);
        expect(fixed, `count ${count}`).toEqual([]);
        // Sattolo's algorithm gives one single cycle; a plain shuffle would fail this.
        expect(cycleLengthThroughZero(p), `count ${count}`).toBe(count);
      }
    });
  }

  it('gives [] for no connections', () => {
    expect(derangement(0, Math.random)).toEqual([]);
  });

  it('refuses one connection and says to use at least 2', () => {
    expect(() => derangement(1, Math.random)).toThrow(/cannot send to another connection.*at least 2/s);
  });

  it('refuses counts that are not whole numbers of at least 0', () => {
    expect(() => derangement(-1, Math.random)).toThrow(/whole number of at least 0/);
    expect(() => derangement(2.5, Math.random)).toThrow(/whole number/);
    expect(() => derangement(Number.NaN, Math.random)).toThrow(/whole number/);
  });

  it('stays a derangement with generators stuck at the ends of [0, 1], even at 1', () => {
    for (const stuck of [0, 0.999_999_999_999, 1]) {
      for (const count of [2, 3, 10, 57]) {
        const p = derangement(count, () => stuck);
        expect(p.every((target, i) => target !== i && target >= 0 && target < count)).toBe(true);
        expect(new Set(p).size).toBe(count);
      }
    }
  });

  it('draws the 6 cycles of 4 connections about equally often', () => {
    const draws = 60_000;
    const counts = new Map<string, number>();
    const random = seeded(7);
    for (let n = 0; n < draws; n++) {
      const key = derangement(4, random).join(',');
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    // 3! = 6 single cycles; the standard deviation of each count is about 91, so ±500 is ±5.5 sd
    // (and the seed is fixed, so the test cannot flake).
    expect(counts.size).toBe(6);
    for (const [key, seen] of counts) {
      expect(Math.abs(seen - draws / 6), key).toBeLessThan(500);
    }
  });
});
