/**
 * The dashboard over a scaled-out hub in real Chromium: two hub-samples on one Redis, both URLs
 * in the Endpoint field; the run spreads over both, the summary gives a row per instance, and the
 * server's charts read each instance's /metrics and draw each beside the combination.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openAdvanced } from '../support/dashboard-form.ts';
import { launchChromium, type LaunchedBrowser } from '../support/browser.ts';
import { startHub, type RunningHub } from '../support/hub-process.ts';
import { freePort, startRedis, type RunningRedis } from '../support/redis-process.ts';

let redis: RunningRedis;
let hubs: RunningHub[] = [];
let browser: LaunchedBrowser;
let page: Page;

beforeAll(async () => {
  redis = await startRedis();
  // The page is served by the first instance: the second must accept its origin (CORS and Origin check).
  const firstPort = await freePort();
  hubs = await Promise.all([
    startHub({ port: firstPort, extraArgs: ['--Redis', redis.configuration] }),
    startHub({ extraArgs: ['--Redis', redis.configuration, '--CorsOrigins', `http://127.0.0.1:${firstPort}`] }),
  ]);
  const first = hubs[0]!;
  browser = await launchChromium();
  page = await browser.context.newPage();
  await page.goto(first.httpUrl!);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all(hubs.map((hub) => hub.stop()));
  await redis?.stop();
});

describe('the dashboard over two hub-samples on one Redis', () => {
  it('spreads the run over both URLs of the Endpoint field, gives each instance its row, and charts each one\'s server', async () => {
    const [a, b] = hubs.map((hub) => `${hub.httpUrl}/signalrbench`);
    await page.fill('input[name=endpointUrl]', `${a}, ${b}`);
    await page.selectOption('select[name=scenario]', 'broadcast');
    await openAdvanced(page);
    await page.fill('input[name=connections]', '10');
    await page.fill('input[name=workers]', '1');
    await page.fill('input[name=sendIntervalMs]', '250');
    await page.fill('input[name=durationSec]', '2');
    await page.click('button[type=submit]');
    await page.waitForSelector('[data-testid=summary][data-phase=done]', { timeout: 60_000 });
    const summary = page.getByTestId('summary');
    expect(await summary.getAttribute('data-verdict')).toBe('pass');
    // 2 senders, 8 slots each, every one to the 10 connections: 5 on each instance.
    expect(await summary.getAttribute('data-planned')).toBe('160');
    const rows = page.locator('[data-testid=summary-instances] tbody tr');
    expect(await rows.evaluateAll((trs) => trs.map((tr) => [tr.getAttribute('data-planned'), tr.getAttribute('data-not-arrived')]))).toEqual([['80', '0'], ['80', '0']]);
    expect(await rows.nth(1).textContent()).toContain(`${b}5 planned, 5 opened, 0 failed`);
    // The link carries both instances, as the form takes them.
    expect(new URL(page.url()).searchParams.get('endpointUrl')).toBe(`${a},${b}`);
    const charts = page.getByTestId('server-charts');
    expect(await charts.getAttribute('data-url')).toBe(hubs.map((hub) => `${hub.httpUrl}/metrics`).join(', '));
    expect(await page.getByTestId('chart-server-cpu').textContent()).toContain(`${new URL(b!).host}: CPU`);
    expect(await page.getByTestId('chart-server-connections').textContent()).toContain('server: hub connections, all instances');
  }, 60_000);
});
