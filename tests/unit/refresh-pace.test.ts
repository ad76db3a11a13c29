import { describe, expect, it } from 'vitest';
import { REFRESH_CAP_MS, refreshWaitMs } from '../../src/lib/refresh-pace.ts';

describe('refreshWaitMs', () => {
  it('refreshes at once while the run does not send, and for each new closed second', () => {
    expect(refreshWaitMs(false, false, 10)).toBe(0);
    expect(refreshWaitMs(true, true, 10)).toBe(0);
  });

  it('lets a snapshot that closes no second wait past one second, so the closed second refreshes, not a timer just before it', () => {
    // A snapshot 950 ms after the last refresh; the second it belongs to closes ~60 ms later.
    const waitMs = refreshWaitMs(true, false, 950);
    expect(waitMs).toBeGreaterThan(60);
    expect(waitMs).toBe(REFRESH_CAP_MS - 950);
    expect(REFRESH_CAP_MS).toBeGreaterThan(1_000);
  });

  it('still refreshes a run whose seconds stop closing, once the cap has passed', () => {
    expect(refreshWaitMs(true, false, REFRESH_CAP_MS)).toBe(0);
    expect(refreshWaitMs(true, false, REFRESH_CAP_MS + 400)).toBe(0);
  });
});
