/**
 * How long the live page waits before it refreshes its figures (src/lib/run-controller.svelte.ts).
 * While the run sends, the figures move once per closed second: a worker's snapshot that closes
 * no second, or a server reading, waits for the next closed second, so the page restyles, lays
 * out and paints once a second rather than once per message. The wait is capped, so a run whose
 * seconds stop closing still refreshes, but the cap is longer than a second: each second closes
 * when the last worker's snapshot for it arrives, about a second after the last refresh, a few
 * ms early or late; a cap of exactly one second fired first in about a third of the seconds and
 * the closed second refreshed again tens of ms later, two refreshes in one second. Pure.
 */

/** Longest a refresh waits for the next closed second while the run sends. */
export const REFRESH_CAP_MS = 1_500;

/** Ms to wait before refreshing: 0 at once (nothing sending, or a new closed second), else what
 *  is left of the cap since the last refresh. */
export function refreshWaitMs(sending: boolean, newSecond: boolean, sinceRefreshMs: number): number {
  if (!sending || newSecond) return 0;
  return Math.max(0, REFRESH_CAP_MS - sinceRefreshMs);
}
