/**
 * A hub on another origin that does not allow this page's origin: the browser refuses the
 * negotiate request, the run ends by itself, and the page names CORS (its origin answered a
 * no-cors request) with the three ways out; a dead address is said as such.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openAdvanced } from '../support/dashboard-form.ts';
import { launchChromium, type LaunchedBrowser } from '../support/browser.ts';
import { startHub, type RunningHub } from '../support/hub-process.ts';
import { freePort } from '../support/redis-process.ts';

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
    // The diagnosis tells CORS from a dead host: the hub's origin answered a no-cors request
    // (asked once the run has ended: until its answer comes the page says it cannot tell).
    const diagnosis = page.getByTestId('diagnosis');
    await page.waitForFunction(() => document.querySelector('[data-testid=diagnosis]')?.getAttribute('data-cause') !== 'unknown', undefined, { timeout: 10_000 });
    expect(await diagnosis.getAttribute('data-cause'), await diagnosis.textContent() ?? '').toBe('corsBlocked');
    expect(await diagnosis.getAttribute('data-side')).toBe('setup');
    expect(await page.getByTestId('diagnosis-sentence').textContent()).toContain('the server answers, but not with CORS headers that allow this page\'s origin');
    expect(await page.getByTestId('diagnosis-advice').textContent()).toMatch(/Allow this page's origin .* Skip negotiation .* headless runner/);
    // What the user typed is still there.
    expect(await page.inputValue('input[name=endpointUrl]')).toBe(`${otherHub.httpsUrl}/signalrbench`);
  });

  it('a dead address is not CORS: its origin answers nothing, and the page says nothing accepted the connection', async () => {
    const port = await freePort();
    await page.fill('input[name=endpointUrl]', `https://127.0.0.1:${port}/signalrbench`);
    await page.click('button[type=submit]');
    const diagnosis = page.getByTestId('diagnosis');
    await diagnosis.waitFor({ timeout: 60_000 });
    await page.waitForFunction(() => document.querySelector('[data-testid=diagnosis]')?.getAttribute('data-cause') !== 'unknown', undefined, { timeout: 10_000 });
    expect(await diagnosis.getAttribute('data-cause')).toBe('unreachable');
    expect(await page.getByTestId('diagnosis-sentence').textContent()).toContain(`Nothing accepted the connection at https://127.0.0.1:${port}/signalrbench`);
  });
});
