/**
 * A hub on another origin that does not allow this page's origin: the browser refuses the
 * negotiate request, the run ends by itself, and the page says CORS may be why.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openAdvanced } from '../support/dashboard-form.ts';
import { launchChromium, type LaunchedBrowser } from '../support/browser.ts';
import { startHub, type RunningHub } from '../support/hub-process.ts';

let browser: LaunchedBrowser;
let page: Page;
let otherHub: RunningHub;

beforeAll(async () => {
  // Same machine, another port: another origin, and its CORS list does not name the dashboard's.
  otherHub = await startHub({ https: true });
  browser = await launchChromium();
  page = await browser.context.newPage();
  await page.goto(inject('hubHttpsUrl'));
});

afterAll(async () => {
  await browser?.close();
  await otherHub?.stop();
});

describe('a hub that refuses this origin (CORS)', () => {
  it('fails every connection with a message that names CORS and what to do', async () => {
    await page.fill('input[name=endpointUrl]', `${otherHub.httpsUrl}/signalrbench`);
    await page.fill('input[name=connections]', '2');
    await openAdvanced(page);
    await page.fill('input[name=workers]', '1');
    await page.fill('input[name=durationSec]', '1');
    await page.click('button[type=submit]');
    // Nothing connected: the one error box, with the library's words folded inside it.
    await page.getByTestId('failed-run').waitFor({ timeout: 60_000 });
    const errors = (await page.getByTestId('failed-run-details').textContent()) ?? '';
    expect(errors).toContain('negotiate ×2');
    expect(errors).toMatch(/CORS blocked it.*allows this page's origin/);
    // What the user typed is still there.
    expect(await page.inputValue('input[name=endpointUrl]')).toBe(`${otherHub.httpsUrl}/signalrbench`);
  });
});
