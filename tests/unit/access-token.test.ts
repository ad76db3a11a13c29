/** Tokens that expire (core/run-config/access-token.ts): when a JWT expires, when to fetch the next, what the page says. */
import { describe, expect, it } from 'vitest';
import { expiryText, jwtExpiryS, nextRefreshDelayMs, tokenExpiryNotice } from '../../core/run-config/access-token.ts';

const b64url = (value: object) => btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const jwt = (payload: object) => `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url(payload)}.c2lnbmF0dXJl`;
const NOW_MS = Date.UTC(2026, 11, 6, 4, 0, 0);

describe('a JWT\'s expiry', () => {
  it('reads exp, and nothing from what is not a JWT with one', () => {
    expect(jwtExpiryS(jwt({ sub: 'u', exp: 1_796_529_600 }))).toBe(1_796_529_600);
    expect(jwtExpiryS(jwt({ sub: 'u' }))).toBeNull();
    expect(jwtExpiryS('opaque-api-token')).toBeNull();
    expect(jwtExpiryS('a.!!!.c')).toBeNull();
  });
});

describe('when the next token is fetched', () => {
  it('a third of the time left before expiry, 2 s to 60 s early', () => {
    expect(nextRefreshDelayMs(jwt({ exp: NOW_MS / 1_000 + 3_600 }), NOW_MS, 300)).toEqual({ delayMs: 3_540_000, expiresAtMs: NOW_MS + 3_600_000 });
    expect(nextRefreshDelayMs(jwt({ exp: NOW_MS / 1_000 + 9 }), NOW_MS, 300)).toEqual({ delayMs: 6_000, expiresAtMs: NOW_MS + 9_000 });
    expect(nextRefreshDelayMs(jwt({ exp: NOW_MS / 1_000 + 5 }), NOW_MS, 300)).toEqual({ delayMs: 3_000, expiresAtMs: NOW_MS + 5_000 });
    expect(nextRefreshDelayMs(jwt({ exp: NOW_MS / 1_000 + 2 }), NOW_MS, 300).delayMs).toBe(1_000);
  });

  it('never sooner than 1 s, even for a token that has expired; every --access-token-refresh-s without an exp', () => {
    expect(nextRefreshDelayMs(jwt({ exp: NOW_MS / 1_000 - 10 }), NOW_MS, 300).delayMs).toBe(1_000);
    expect(nextRefreshDelayMs('opaque-api-token', NOW_MS, 300)).toEqual({ delayMs: 300_000, expiresAtMs: null });
  });
});

describe('what is said of an expiry', () => {
  it('the time in UTC and how far', () => {
    expect(expiryText(NOW_MS + 6_000, NOW_MS)).toBe('04:00:06 UTC, in 6 s');
    expect(expiryText(NOW_MS + 3_600_000, NOW_MS)).toBe('05:00:00 UTC, in 60 min');
    expect(expiryText(NOW_MS - 3_000, NOW_MS)).toBe('03:59:57 UTC, 3 s ago');
  });

  it('the page: a token that expires before the planned run ends, or has expired; nothing for one that outlives it or is no JWT', () => {
    const token = jwt({ exp: NOW_MS / 1_000 + 600 });
    expect(tokenExpiryNotice(token, NOW_MS, 900)).toBe('The access token expires at 04:10:00 UTC, in 10 min, before the planned run of 15 min ends: a hub may close its connections then, and reconnects and long polling\'s requests would carry an expired token. Paste a token that outlives the run, or run it with the runner\'s --access-token-command, which fetches fresh ones.');
    expect(tokenExpiryNotice(token, NOW_MS, 300)).toBeNull();
    expect(tokenExpiryNotice(jwt({ exp: NOW_MS / 1_000 - 5 }), NOW_MS, 30)).toBe('The access token expired (03:59:55 UTC, 5 s ago): the hub will refuse it. Paste a fresh one.');
    expect(tokenExpiryNotice('opaque-api-token', NOW_MS, 30)).toBeNull();
    expect(tokenExpiryNotice(token, NOW_MS, 900)).not.toContain(token);
  });
});
