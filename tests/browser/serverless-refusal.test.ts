/**
 * A serverless scenario picked on the dashboard, in real Chromium against the real hub: the
 * refusal beside a Start that stays off, the runner's command for the form's setup, the docs page
 * it links (carried in the bundle) and the agents' fold; at a laptop's, a desktop's, a wide
 * screen's and a phone's size, with no sideways scrolling, the refusal and its command in the
 * first screen, and no serious or critical accessibility violation (axe-core). Screenshots go to
 * test-results/screenshots for people to look at.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { mkdir } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import { launchChromium, type LaunchedBrowser } from '../support/browser.ts';

const SCREENSHOTS = 'test-results/screenshots';
const VIEWPORTS = [
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
  { width: 1920, height: 1080 },
  { width: 390, height: 844 },
] as const;

let browser: LaunchedBrowser;
let page: Page;

beforeAll(async () => {
  await mkdir(SCREENSHOTS, { recursive: true });
  browser = await launchChromium();
  page = await browser.context.newPage();
});

afterAll(async () => {
  await browser?.close();
});

/** Whether the element's box lies within the first screen. */
async function inFirstScreen(testId: string): Promise<boolean> {
  const box = await page.getByTestId(testId).boundingBox();
  const viewport = page.viewportSize()!;
  return box !== null && box.y >= 0 && box.y + box.height <= viewport.height && box.x >= 0 && box.x + box.width <= viewport.width + 0.5;
}

describe('a serverless scenario picked on the dashboard', () => {
  it.each(VIEWPORTS)('at $width x $height: refused beside Start with the runner\'s command in the first screen, the docs page linked, axe clean', async (viewport) => {
    await page.setViewportSize(viewport);
    await page.goto(`${inject('hubHttpUrl')}/?connections=200&durationSec=60`);
    await page.selectOption('select[name=scenario]', 'restBroadcast');
    await page.getByTestId('serverless-refusal').waitFor();

    expect(await page.getByTestId('serverless-refusal-why').textContent()).toBe(
      "This page does not start Broadcast through the REST API: its sends are REST API calls signed with your service's AccessKey, and a page must not hold that key.",
    );
    expect((await page.getByTestId('serverless-command').textContent())?.replace(/\s+/g, ' ')).toBe(
      'npx live-bench --scenario restBroadcast --azure-connection-string-env SIGNALR_CONNECTION_STRING --azure-hub benchhub --connections 200 --interval-ms 1000 --message-bytes 2048 --duration 60',
    );
    const start = page.getByTestId('start');
    expect(await start.isDisabled()).toBe(true);
    expect(await start.getAttribute('aria-describedby')).toBe('serverless-refusal');
    // The empty state says why Start is off instead of what it would run.
    expect(await page.getByTestId('empty-setup').textContent()).toBe(
      "Start is off for Broadcast through the REST API: this page cannot hold the AccessKey it needs; run it with the runner's command.",
    );
    expect(await inFirstScreen('serverless-refusal-why')).toBe(true);
    expect(await inFirstScreen('serverless-command')).toBe(true);
    // Beside Start on a laptop and wider; on a phone it follows the choice of scenario instead.
    if (viewport.width >= 600) expect(await inFirstScreen('start')).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);

    // The docs page opens from the bundle, whatever serves the page.
    const doc = await page.evaluate(async () => (await fetch(document.querySelector<HTMLAnchorElement>('[data-testid="serverless-docs"]')!.href)).text());
    expect(doc.split('\n')[0]).toBe('# Serverless mode: a serverless app, or Azure SignalR Service in serverless mode');

    await page.getByTestId('serverless-agents').locator('summary').click();
    expect((await page.getByTestId('serverless-lead-command').textContent())?.replace(/\s+/g, ' ')).toMatch(
      new RegExp(`^npx live-bench --lead --agents 2 --control ${inject('hubHttpUrl').replace(/[.:/]/g, '\\$&')}/control --scenario restBroadcast `),
    );
    await page.getByTestId('serverless-agents').locator('summary').click();
    await page.screenshot({ path: `${SCREENSHOTS}/serverless-refusal-${viewport.width}x${viewport.height}.png` });

    const results = await new AxeBuilder({ page }).analyze();
    const serious = results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')} – ${v.help}`));
    expect(serious).toEqual([]);

    // Back to a scenario of the default mode: Start runs again, the refusal gone.
    await page.selectOption('select[name=scenario]', 'broadcast');
    expect(await page.getByTestId('serverless-refusal').count()).toBe(0);
    expect(await start.isDisabled()).toBe(false);
    expect(await page.getByTestId('empty-setup').textContent()).toMatch(/^Start runs: Broadcast · /);
  });
});
