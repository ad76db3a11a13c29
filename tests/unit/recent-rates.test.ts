import { describe, expect, it } from 'vitest';
import { recentRates } from '../../core/run/recent-rates.ts';
import { emptyFates } from '../../core/run/fates.ts';
import type { SecondPoint } from '../../core/run/aggregator.ts';

const point = (second: number, sent: number, received = sent): SecondPoint => ({
  second,
  sent,
  received,
  sentBytes: sent * 2_000,
  receivedBytes: received * 2_000,
  fates: emptyFates(),
  connectionsOpen: 10,
  eventLoopLagMs: 0,
  maxSendLagMs: 0,
  latency: { count: received, p50Us: 1, p90Us: 1, p99Us: 1, p999Us: 1, maxUs: 1, meanUs: 1 },
});

describe('recentRates', () => {
  it('averages the last whole seconds of sending, leaving out the partial first and last', () => {
    const points = [point(1, 0), point(2, 300), point(3, 1_000), point(4, 1_000, 990), point(5, 1_000, 1_010), point(6, 400), point(7, 0, 5)];
    expect(recentRates(points)).toEqual({ inboundPerSec: 1_000, outboundPerSec: 1_000, inboundBytesPerSec: 2_000_000, outboundBytesPerSec: 2_000_000 });
  });

  it('uses what there is early in a run', () => {
    expect(recentRates([point(1, 0), point(2, 200)]).inboundPerSec).toBe(200);
    expect(recentRates([]).inboundPerSec).toBe(0);
  });

  it('keeps to the window', () => {
    const points = [point(1, 10), ...[2, 3, 4, 5, 6, 7, 8].map((s) => point(s, s * 100)), point(9, 10)];
    // Whole seconds 2..8; the last five are 4..8.
    expect(recentRates(points, 5).inboundPerSec).toBe(600);
  });

  it('gives what averaging every second with sends gives, reading only the end of the run', () => {
    const reference = (points: readonly SecondPoint[], windowSec: number) => {
      let busy = points.filter((p) => p.sent > 0);
      if (busy.length > 2) busy = busy.slice(1, -1);
      busy = busy.slice(-windowSec);
      return busy.length === 0 ? 0 : busy.reduce((sum, p) => sum + p.sent, 0) / busy.length;
    };
    let seed = 7;
    const random = () => ((seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647);
    for (let trial = 0; trial < 300; trial++) {
      const points = Array.from({ length: Math.floor(random() * 20) }, (_, i) => point(i + 1, random() < 0.3 ? 0 : Math.floor(random() * 1_000)));
      for (const windowSec of [1, 3, 5]) expect(recentRates(points, windowSec).inboundPerSec).toBe(reference(points, windowSec));
    }
  });
});
