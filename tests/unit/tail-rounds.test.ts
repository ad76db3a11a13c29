/** The tail goal is read on medians of rounds, with the spread resampling the rounds gives the ratio. */
import { describe, expect, it } from 'vitest';
import { median, medianRatio, seededRandom, summariseRounds } from '../../bench/tool/lib/rounds.mjs';

describe('median', () => {
  it('takes the middle value, or the mean of the middle two, whatever the order', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNull();
  });
});

describe('seededRandom', () => {
  it('repeats for one seed, differs for another, and stays in [0, 1)', () => {
    const a = seededRandom(7);
    const b = seededRandom(7);
    const c = seededRandom(8);
    const xs = Array.from({ length: 1_000 }, () => a());
    expect(Array.from({ length: 1_000 }, () => b())).toEqual(xs);
    expect(c()).not.toBe(xs[0]);
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...xs)).toBeLessThan(1);
  });
});

describe('medianRatio', () => {
  it('is the ratio of the medians, inside its resampled interval', () => {
    const tab = [88, 83, 43, 105, 91, 129];
    const library = [71, 87, 64, 90, 75, 75];
    const r = medianRatio(tab, library)!;
    expect(r.ratio).toBeCloseTo(89.5 / 75, 10);
    expect(r.low).toBeLessThanOrEqual(r.ratio);
    expect(r.high).toBeGreaterThanOrEqual(r.ratio);
    expect(r.high).toBeGreaterThan(r.low);
  });

  it('has no width when every round read the same, and reads the same twice', () => {
    expect(medianRatio([20, 20, 20], [10, 10, 10])).toEqual({ ratio: 2, low: 2, high: 2 });
    expect(medianRatio([3, 9, 4, 12], [5, 6, 7])).toEqual(medianRatio([3, 9, 4, 12], [5, 6, 7]));
  });

  it('narrows with more rounds of the same spread', () => {
    const spreadOf = (n: number) => {
      const random = seededRandom(n);
      const rounds = (centre: number) => Array.from({ length: n }, () => centre * (0.6 + random() * 0.8));
      const r = medianRatio(rounds(120), rounds(100))!;
      return r.high - r.low;
    };
    expect(spreadOf(60)).toBeLessThan(spreadOf(6));
  });

  it('is null without rounds on either side or with a zero baseline', () => {
    expect(medianRatio([], [1])).toBeNull();
    expect(medianRatio([1], [])).toBeNull();
    expect(medianRatio([1], [0])).toBeNull();
  });
});

describe('summariseRounds', () => {
  it('keeps each round in order, counts failed and errored rounds, and compares with the baseline', () => {
    const steps = [
      { client: 'tab', p99Ms: 120, holds: true },
      { client: 'browserLibrary', p99Ms: 60, holds: true },
      { client: 'tab', p99Ms: 1_500, holds: false },
      { client: 'browserLibrary', p99Ms: 80, holds: true },
      { client: 'tab', holds: false, error: 'The page refused the run' },
      { client: 'browserLibrary', p99Ms: 70, holds: true },
    ];
    const [tab, library] = summariseRounds(steps, 'browserLibrary');
    expect(tab).toMatchObject({ client: 'tab', p99sMs: [120, 1_500], medianP99Ms: 810, failedRounds: 2, errors: 1 });
    expect(tab!.againstBaseline!.ratio).toBeCloseTo(810 / 70, 10);
    expect(library).toMatchObject({ client: 'browserLibrary', p99sMs: [60, 80, 70], medianP99Ms: 70, failedRounds: 0, againstBaseline: null });
  });
});
