/**
 * The dashboard keeps its access token field and says when the token it holds (a JWT's exp)
 * expires during the planned run (warm-up, sends and drain), never showing the token.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchChromium, type LaunchedBrowser } from '../support/browser.ts';
import { openAdvanced } from '../support/dashboard-form.ts';

let browser: LaunchedBrowser;
let page: Page;

const b64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const jwtExpiringIn = (seconds: number) => `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url({ sub: 'EXPIRYUSER', exp: Math.floor(Date.now() / 1_000) + seconds })}.c2lnbmF0dXJl`;

beforeAll(async () => {
  browser = await launchChromium();
  page = await browser.context.newPage();
  await page.goto(inject('hubHttpUrl'));
  await openAdvanced(page);
});

afterAll(async () => {
  await browser?.close();
});

describe('the access token field and the planned run', () => {
  it('says a token expires before the planned run ends, not one that outlives it or is no JWT', async () => {
    const note = page.getByTestId('token-expiry');
    await page.fill('input[name=durationSec]', '600');
    await page.fill('[data-testid=access-token]', jwtExpiringIn(300));
    await expect.poll(() => note.textContent()).toMatch(/^The access token expires at \d\d:\d\d:\d\d UTC, in (4|5) min, before the planned run of 1[01] min ends: .*--access-token-command, which fetches fresh ones\.$/);
    expect(await page.locator('body').textContent()).not.toContain('EXPIRYUSER');
    // A shorter run: the same token outlives it.
    await page.fill('input[name=durationSec]', '60');
    await expect.poll(() => note.count()).toBe(0);
    await page.fill('[data-testid=access-token]', jwtExpiringIn(-30));
    await expect.poll(() => note.textContent()).toMatch(/^The access token expired \(\d\d:\d\d:\d\d UTC, 3\d s ago\): the hub will refuse it\. Paste a fresh one\.$/);
    await page.fill('[data-testid=access-token]', 'opaque-api-key-value');
    await expect.poll(() => note.count()).toBe(0);
    await page.getByTestId('auth-clear').click();
  });
});
