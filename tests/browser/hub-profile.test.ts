/**
 * "Your hub" in real Chromium against the real hub-sample: a pasted profile drives a short run
 * that finishes with every planned message and the profile named in the run bar, the page's link
 * and the history; a bad profile is refused beside the field, and nothing starts.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchChromium, type LaunchedBrowser } from '../support/browser.ts';
import { openAdvanced } from '../support/dashboard-form.ts';
import { BUILT_IN_PROFILES } from '../../core/profiles/index.ts';

let browser: LaunchedBrowser;
let page: Page;
const consoleErrors: string[] = [];

/** The bundled contract's echo, under a name of its own: the same hub methods any profile drives. */
const profile = { ...BUILT_IN_PROFILES.echo, name: 'pasted echo' };

beforeAll(async () => {
  browser = await launchChromium();
  page = await browser.context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  await page.goto(inject('hubHttpsUrl'));
});

afterAll(async () => {
  await browser?.close();
});

describe('Your hub', () => {
  it('refuses a bad profile beside the field, with the sentence Start refuses with', async () => {
    await page.selectOption('select[name=scenario]', 'yourHub');
    const editor = page.getByTestId('hub-profile-text');
    await editor.fill(JSON.stringify({ ...profile, send: { method: 'Echo', args: ['{time}', '{mesage}'] } }));
    const beside = page.getByTestId('hub-profile-errors');
    await expect.poll(() => beside.textContent()).toContain('Hub profile: send.args[1]: "{mesage}" is not a placeholder');
    expect(await editor.getAttribute('aria-invalid')).toBe('true');
    expect(await editor.getAttribute('aria-describedby')).toBe('hub-profile-errors');
    await page.getByTestId('start').click();
    const refused = page.getByTestId('config-errors');
    await expect.poll(() => refused.textContent()).toContain('Hub profile: send.args: {message} is missing');
    expect(await refused.textContent()).toContain('Hub profile: send.args[1]: "{mesage}" is not a placeholder');
    expect(await page.getByTestId('run-bar').count()).toBe(0);
  });

  it('runs a pasted profile to the end, every planned message received, the profile named', async () => {
    await page.getByTestId('hub-profile-text').fill(JSON.stringify(profile, null, 2));
    await expect.poll(() => page.getByTestId('hub-profile-errors').count()).toBe(0);
    expect(await page.getByTestId('hub-profile-runs-as').textContent()).toBe('Runs as echo: every connection sends.');
    await page.fill('input[name=connections]', '4');
    await page.fill('input[name=sendIntervalMs]', '250');
    await page.fill('input[name=durationSec]', '2');
    await openAdvanced(page);
    await page.fill('input[name=workers]', '1');
    await page.getByTestId('start').click();
    const label = 'pasted echo profile: Echo → Measure, to the sender';
    await expect.poll(() => page.getByTestId('run-bar-profile').textContent()).toBe(label);
    await page.waitForSelector('[data-testid=summary][data-phase=done]', { timeout: 30_000 });
    const summary = page.getByTestId('summary');
    // 4 connections x 2 s / 250 ms, each echoed to its sender.
    expect(Number(await summary.getAttribute('data-planned'))).toBe(32);
    expect(Number(await summary.getAttribute('data-received'))).toBe(32);
    expect(await summary.getAttribute('data-verdict')).toBe('pass');
    expect(await page.getByTestId('run-bar-profile').textContent()).toBe(label);
    // The page's link carries the profile, so a shared link opens the same setup.
    expect(JSON.parse(new URL(page.url()).searchParams.get('hubProfile')!)).toEqual(profile);

    await page.getByTestId('nav-history').click();
    const row = page.getByTestId('history-row').first();
    expect(await row.getByTestId('history-name').textContent()).toBe(`${label} · WebSockets + JSON · 4 connections`);
    expect(consoleErrors).toEqual([]);
  });
});
