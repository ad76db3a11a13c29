import { describe, expect, it } from 'vitest';
import { emptyFates } from '../../core/accounting/fates.ts';
import type { SecondPoint } from '../../core/execution/aggregator.ts';
import { resultPoints } from '../../core/result/result.ts';

const point = (second: number): SecondPoint => ({
  second, sent: 10, received: 10, sentBytes: 100, receivedBytes: 100, fates: { ...emptyFates(), planned: 10 },
  connectionsOpen: 1, eventLoopLagMs: 0, maxSendLagMs: 0, reconnects: 0, dropped: 0,
  latency: { count: 10, p50Us: 1, p90Us: 1, p99Us: 1, p999Us: 1, maxUs: 1, meanUs: 1 },
});

describe('a running run\'s points, copied once a second', () => {
  it('reuses the copies of older seconds and copies the last ones afresh, as a full copy would give them', () => {
    const live = Array.from({ length: 100 }, (_, i) => point(i + 1));
    const earlier = resultPoints(live.slice(0, 90), false);
    // Receptions keep arriving for recent seconds.
    live[85]!.fates.underOneSecond = 7;
    const next = resultPoints(live, false, { points: earlier, freshSeconds: 20 });
    expect(next).toEqual(resultPoints(live, false));
    expect(next[10]).toBe(earlier[10]);
    expect(next[85]).not.toBe(earlier[85]);
    // The copies never share the live fates object.
    expect(next[99]!.fates).not.toBe(live[99]!.fates);
  });

  it('copies every second once the run has drained, whatever it could reuse', () => {
    const live = Array.from({ length: 50 }, (_, i) => point(i + 1));
    const earlier = resultPoints(live, false);
    live[3]!.fates.underOneSecond = 9;
    const done = resultPoints(live, true, { points: earlier, freshSeconds: 20 });
    expect(done[3]!.fates.underOneSecond).toBe(9);
    expect(done).toEqual(resultPoints(live, true));
  });
});
