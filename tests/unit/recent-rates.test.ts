import { describe, expect, it } from 'vitest';
import { recentRates, runRates, sendingSecOf } from '../../core/execution/recent-rates.ts';
import { emptyFates } from '../../core/accounting/fates.ts';
import type { SecondPoint } from '../../core/execution/aggregator.ts';

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
  reconnects: 0,
  dropped: 0,
  latency: { count: received, p50Us: 1, p90Us: 1, p99Us: 1, p999Us: 1, maxUs: 1, meanUs: 1 },
});

describe('recentRates', () => {
  it('averages the last whole seconds of sending, leaving out the partial first and last', () => {
    const points = [point(1, 0), point(2, 300), point(3, 1_000), point(4, 1_000, 990), point(5, 1_000, 1_010), point(6, 400), point(7, 0, 5)];
    // Sending planned over 4 s from second 2: seconds 3..5 whole, 6 partial, 7 the drain.
    expect(recentRates(points, 5, 4)).toEqual({ inboundPerSec: 1_000, outboundPerSec: 1_000, inboundBytesPerSec: 2_000_000, outboundBytesPerSec: 2_000_000 });
    // Kept without its plan: sending ends in the last second with a send.
    expect(recentRates(points).inboundPerSec).toBe(1_000);
  });

  it('uses what there is early in a run', () => {
    expect(recentRates([point(1, 0), point(2, 200)], 5, 30).inboundPerSec).toBe(200);
    expect(recentRates([point(1, 0), point(2, 200), point(3, 500)], 5, 30).inboundPerSec).toBe(500);
    expect(recentRates([]).inboundPerSec).toBe(0);
  });

  it('keeps to the window', () => {
    const points = [point(1, 10), ...[2, 3, 4, 5, 6, 7, 8].map((s) => point(s, s * 100)), point(9, 10)];
    // Whole seconds 2..8; the last five are 4..8.
    expect(recentRates(points, 5, 8).inboundPerSec).toBe(600);
    expect(recentRates(points, 5).inboundPerSec).toBe(600);
  });

  it('counts a silent second as 0: a hub that stopped answering reads 0 at once', () => {
    const alive = [point(1, 0), point(2, 20), ...[3, 4, 5, 6, 7, 8].map((s) => point(s, 50))];
    expect(recentRates(alive, 5, 30).outboundPerSec).toBe(50);
    const dead = [...alive, point(9, 0, 0)];
    expect(recentRates(dead, 5, 30).outboundPerSec).toBe(40);
    const longDead = [...dead, ...[10, 11, 12, 13].map((s) => point(s, 0, 0))];
    expect(recentRates(longDead, 5, 30).outboundPerSec).toBe(0);
    expect(recentRates(longDead, 5, 30).inboundPerSec).toBe(0);
  });

  it("takes the run's mean over the time it sent, silent seconds included, not the drain", () => {
    // 10 s of sending from second 2: whole seconds 3..11; the hub died after second 6.
    const points = [point(1, 0), point(2, 20), ...[3, 4, 5, 6].map((s) => point(s, 50)), ...[7, 8, 9, 10, 11].map((s) => point(s, 0, 0)), point(12, 10, 0), point(13, 0, 0)];
    expect(runRates({ points, config: { durationSec: 10 }, outcome: { kind: 'finished' } }).outboundPerSec).toBeCloseTo((4 * 50) / 9, 9);
    // Stopped at 4 of 10 s: seconds 3..5 whole, the stop's second 6 partial.
    expect(runRates({ points, config: { durationSec: 10 }, outcome: { kind: 'stopped', stoppedAtSec: 4 } }).outboundPerSec).toBe(50);
  });

  it('takes a failed run\'s mean over the seconds it ran, not the seconds it planned', () => {
    // Planned 20 s from second 2; every connection closed in second 7 (Reconnect off): the seconds
    // after it hold only slots never sent.
    const points = [point(1, 0), point(2, 20), ...[3, 4, 5, 6].map((s) => point(s, 40)), point(7, 15, 15), ...[8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22].map((s) => point(s, 0, 0))];
    const failed = { points, config: { durationSec: 20 }, outcome: { kind: 'failed' } };
    expect(runRates(failed).inboundPerSec).toBe(40);
    expect(runRates(failed).outboundPerSec).toBe(40);
    expect(sendingSecOf(20, { kind: 'failed' })).toBeUndefined();
    expect(sendingSecOf(20, { kind: 'finished' })).toBe(20);
  });

  it('gives what averaging every whole second of sending gives, reading only the end of the run', () => {
    const reference = (points: readonly SecondPoint[], windowSec: number, sendingSec: number) => {
      const first = points.findIndex((p) => p.sent > 0);
      if (first < 0) return 0;
      const end = points[first]!.second + sendingSec;
      let span = points.filter((p) => p.second >= points[first]!.second && p.second <= end);
      const partialEnd = span[span.length - 1]!.second === end;
      if (span.length > 2) span = partialEnd ? span.slice(1, -1) : span.slice(1);
      else if (span.length === 2 && !partialEnd) span = span.slice(1);
      span = span.slice(-windowSec);
      return span.reduce((sum, p) => sum + p.sent, 0) / span.length;
    };
    let seed = 7;
    const random = () => ((seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647);
    for (let trial = 0; trial < 300; trial++) {
      const points = Array.from({ length: Math.floor(random() * 20) }, (_, i) => point(i + 1, random() < 0.3 ? 0 : Math.floor(random() * 1_000)));
      for (const windowSec of [1, 3, 5]) for (const sendingSec of [3, 10, 40]) expect(recentRates(points, windowSec, sendingSec).inboundPerSec).toBe(reference(points, windowSec, sendingSec));
    }
  });
});
