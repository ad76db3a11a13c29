/**
 * Tokens that expire: real deployments hand out access tokens that live an hour or less, so a
 * long run or a soak outlives them. When a token is a JWT its `exp` says when it expires; the
 * runner fetches a fresh one before then (--access-token-command) and the page says when the
 * token it holds expires during the planned run. Said in times and durations, never the token.
 */
import { RUN_CONFIG_WORDS as W } from './words.ts';

/** A token's expiry from its JWT `exp` claim, epoch s; null when it is not a JWT or has no `exp`. */
export function jwtExpiryS(token: string): number | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  try {
    const base64 = parts[1]!.replace(/-/g, '+').replace(/_/g, '/');
    const payload = JSON.parse(atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '='))) as { exp?: unknown } | null;
    return typeof payload?.exp === 'number' && Number.isFinite(payload.exp) ? payload.exp : null;
  } catch {
    return null;
  }
}

/** How long before a token's expiry a fresh one is fetched: a third of the time it had left
 *  when fetched, from 2 s to 60 s, so a one-hour token is replaced a minute early and a test's
 *  8 s token about 2.7 s early: time for the command to run and the token to reach the agents. */
const REFRESH_SHARE = 1 / 3;
const MIN_REFRESH_LEAD_MS = 2_000;
const MAX_REFRESH_LEAD_MS = 60_000;
/** Never sooner than this after a fetch, ms: a command that hands out nearly expired tokens is not run in a loop. */
export const MIN_REFRESH_DELAY_MS = 1_000;

/** When to fetch the next token, ms from `nowMs`: before the JWT's expiry when it has one, else
 *  every `everySec`. */
export function nextRefreshDelayMs(token: string, nowMs: number, everySec: number): { delayMs: number; expiresAtMs: number | null } {
  const expiryS = jwtExpiryS(token);
  if (expiryS === null) return { delayMs: everySec * 1_000, expiresAtMs: null };
  const expiresAtMs = expiryS * 1_000;
  const leftMs = expiresAtMs - nowMs;
  const leadMs = Math.min(MAX_REFRESH_LEAD_MS, Math.max(MIN_REFRESH_LEAD_MS, leftMs * REFRESH_SHARE));
  return { delayMs: Math.max(MIN_REFRESH_DELAY_MS, leftMs - leadMs), expiresAtMs };
}

/** "04:12:03 UTC, in 6 s" (or "… 3 s ago"): when a token expires, for people. */
export function expiryText(expiresAtMs: number, nowMs: number): string {
  const clock = new Date(expiresAtMs).toISOString().slice(11, 19);
  const seconds = Math.round((expiresAtMs - nowMs) / 1_000);
  return `${clock} UTC, ${seconds >= 0 ? `in ${durationText(seconds)}` : `${durationText(-seconds)} ago`}`;
}

/** A duration for people: seconds up to 2 min, then minutes, then hours. */
export function durationText(seconds: number): string {
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7_200) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3_600).toFixed(1)} h`;
}

/**
 * What the page says about the token it holds when it is a JWT that expires before the planned
 * run ends (`runSec` from now: warm-up, sends and drain), or has already expired; null otherwise.
 * Reconnects and long polling's requests carry the token again, and a hub may close a connection
 * when its token expires.
 */
export function tokenExpiryNotice(token: string, nowMs: number, runSec: number): string | null {
  const expiryS = jwtExpiryS(token);
  if (expiryS === null) return null;
  const expiresAtMs = expiryS * 1_000;
  if (expiresAtMs <= nowMs) return W.tokenExpired({ when: expiryText(expiresAtMs, nowMs) });
  if (expiresAtMs >= nowMs + runSec * 1_000) return null;
  return W.tokenExpiresInRun({ when: expiryText(expiresAtMs, nowMs), run: durationText(runSec) });
}
