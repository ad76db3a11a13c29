import { describe, expect, it } from 'vitest';
import { firstLossSec, onSendClock, runMarkers, runRange, sendOffsetSec } from '../../core/charts/time-axis.ts';

describe('the send clock', () => {
  it('puts 0 at the first planned send, connecting before it negative', () => {
    const offset = sendOffsetSec({ startUs: 12_300_000, runStartUs: 10_000_000 });
    expect(offset).toBeCloseTo(2.3, 9);
    expect([1, 2, 3, 4].map((s) => onSendClock(s, offset))).toEqual([-1.3, -0.3, 0.7, 1.7]);
    // Unknown (never reached go, or kept before it was recorded): the seconds as they were.
    expect(sendOffsetSec({ startUs: 12_300_000 })).toBeNull();
    expect(sendOffsetSec(undefined)).toBeNull();
    expect(onSendClock(4, null)).toBe(4);
  });

  it('gives the client and the server charts one x range', () => {
    const client = [{ second: 1 }, { second: 2 }, { second: 9 }];
    const server = [{ second: 0 }, { second: 10 }];
    expect(runRange(client, server, 2)).toEqual({ min: -2, max: 8 });
    expect(runRange(client, [], 2)).toEqual({ min: -1, max: 7 });
    expect(runRange([], [], 2)).toBeNull();
  });

  it('marks planned drops where they were planned, and an unplanned loss when there was no drop', () => {
    expect(runMarkers({ dropAtSec: 5, dropEverySec: 10, durationSec: 30 }, null)).toEqual([{ x: 5, label: 'drop' }, { x: 15, label: 'drop' }, { x: 25, label: 'drop' }]);
    expect(runMarkers({ dropAtSec: null, dropEverySec: null, durationSec: 30 }, 8)).toEqual([{ x: 8, label: 'connections lost' }]);
    expect(runMarkers({ dropAtSec: null, dropEverySec: null, durationSec: 30 }, null)).toEqual([]);
    // A hub restart the server's readings show, on the send clock.
    expect(runMarkers({ dropAtSec: null, dropEverySec: null, durationSec: 30 }, 8, [{ second: 10 }, { second: 12, restarted: true }], 2)).toEqual([{ x: 8, label: 'connections lost' }, { x: 10, label: 'hub restarted' }]);
  });

  it('finds when open connections first fell after the first send', () => {
    const points = [3, 4, 5, 6, 7, 8].map((second, i) => ({ second, connectionsOpen: i < 4 ? 50 : 0 }));
    // Open fell in the second ending at 7 (run clock) = 4.7 s on the send clock, so "at 5 s".
    expect(firstLossSec(points, 2.3)).toBe(5);
    expect(firstLossSec(points.slice(0, 4), 2.3)).toBeNull();
    expect(firstLossSec(points, null)).toBeNull();
  });
});
