/**
 * The server's view beside the client's in real Chromium: the page reads the hub's /metrics once
 * a second during a run and charts it; with metrics switched off on the hub it says so once and
 * the run completes as before.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openAdvanced } from '../support/dashboard-form.ts';
import { launchChromium, type LaunchedBrowser } from '../support/browser.ts';
import { startHub, type RunningHub } from '../support/hub-process.ts';

const opened: { browser: LaunchedBrowser; hub: RunningHub }[] = [];

afterAll(async () => {
  for (const { browser, hub } of opened) {
    await browser.close();
    await hub.stop();
  }
});

async function dashboardOn(extraArgs: string[]): Promise<Page> {
  return (await dashboardAndHub(extraArgs)).page;
}

async function dashboardAndHub(extraArgs: string[]): Promise<{ page: Page; hub: RunningHub }> {
  const hub = await startHub({ extraArgs });
  const browser = await launchChromium();
  opened.push({ browser, hub });
  const page = await browser.context.newPage();
  await page.goto(hub.httpUrl);
  return { page, hub };
}

/** Another hub whose /metrics the page reads from another origin. */
async function otherHub(extraArgs: string[]): Promise<RunningHub> {
  const hub = await startHub({ extraArgs });
  others.push(hub);
  return hub;
}

const others: RunningHub[] = [];
afterAll(async () => {
  for (const hub of others) await hub.stop();
});

async function start(page: Page, durationSec: string): Promise<void> {
  await openAdvanced(page);
  await page.fill('input[name=connections]', '10');
  await page.fill('input[name=workers]', '1');
  await page.fill('input[name=sendIntervalMs]', '250');
  await page.fill('input[name=durationSec]', durationSec);
  await page.click('button[type=submit]');
  await page.waitForSelector('[data-testid=summary][data-phase=running]', { timeout: 30_000 });
}

const points = async (page: Page) => Number(await page.getByTestId('server-charts').getAttribute('data-points'));

describe('server metrics in the dashboard', () => {
  it('charts the hub\'s CPU, connections and deliveries while the run goes, and names the limit in words', async () => {
    const page = await dashboardOn([]);
    await start(page, '6');
    // Points arrive during the run, not only at its end.
    await page.waitForFunction(() => Number(document.querySelector('[data-testid=server-charts]')?.getAttribute('data-points')) >= 3, undefined, { timeout: 15_000 });
    expect(await page.getByTestId('summary').getAttribute('data-phase')).not.toBe('done');
    await page.waitForSelector('[data-testid=summary][data-phase=done]', { timeout: 60_000 });
    expect(await page.getByTestId('summary').getAttribute('data-verdict')).toBe('pass');
    expect(await points(page)).toBeGreaterThanOrEqual(6);
    expect(await page.getByTestId('server-charts').getAttribute('data-url')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    expect(await page.getByTestId('server-metrics-problem').count()).toBe(0);
    for (const chart of ['cpu', 'connections', 'deliveries', 'gc', 'queue']) {
      expect(await page.locator(`[data-testid=chart-server-${chart}] canvas`).count(), chart).toBeGreaterThan(0);
    }
    // One clock: every chart, the client's and the server's, draws the same x range, from the
    // connecting before the first planned send (negative) to the last second any of them has.
    // A chart off screen draws its latest data when it comes on screen: each is looked at first.
    for (const chart of await page.locator('[data-testid^=chart-][data-x-min]').all()) {
      await chart.scrollIntoViewIfNeeded();
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    }
    const ranges = await page.evaluate(() => [...document.querySelectorAll('[data-testid^=chart-][data-x-min]')].map((e) => ({ id: e.getAttribute('data-testid'), min: Number(e.getAttribute('data-x-min')), max: Number(e.getAttribute('data-x-max')) })));
    expect(ranges.map((r) => r.id)).toEqual(expect.arrayContaining(['chart-latency', 'chart-rate', 'chart-connections', 'chart-server-cpu', 'chart-server-deliveries']));
    for (const range of ranges) expect({ id: range.id, min: range.min, max: range.max }, range.id!).toEqual({ id: range.id, min: ranges[0]!.min, max: ranges[0]!.max });
    expect(ranges[0]!.min).toBeLessThan(0.5);
    expect(ranges[0]!.max).toBeGreaterThanOrEqual(6);
    // The connections chart's legend shows the server's latest count: the 10 connections, closed by now or not.
    const limit = page.getByTestId('summary-limit');
    // 10 connections at 4 msg/s: the hub is nowhere near its limit over the sending seconds (the
    // one window for both: the connects, the warm-up and the drain are outside it). The page's
    // workers share two cores with another browser file, and may fall behind their schedule: then
    // the client is named, from its own lateness, never the server.
    const side = await limit.getAttribute('data-limit');
    expect(['neither', 'client']).toContain(side);
    expect(await limit.textContent()).toMatch(side === 'neither'
      ? /^Neither was saturated: the server peaked at \d+% CPU and the client kept its schedule\.$/
      : /^The client .+ while the server peaked at \d+% CPU: the client is the limit\.$/);
    for (const [width, height] of [[1280, 720], [1440, 900], [390, 844]] as const) {
      await page.setViewportSize({ width, height });
      await page.getByTestId('server-charts').scrollIntoViewIfNeeded();
      // The server's part of the page fits the width (the form above is another component's).
      const wider = await page.evaluate(() => [...document.querySelectorAll('[data-testid=server-charts], [data-testid=server-charts] *, [data-testid=server-metrics-field] *')]
        .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1).map((e) => e.tagName));
      expect(wider, `wider than ${width}x${height}`).toEqual([]);
      if (process.env.SCREENSHOT_DIR) await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/server-charts-${width}x${height}.png` });
    }
    await page.setViewportSize({ width: 1280, height: 1000 });

    // Kept in the browser: the run opened from the History draws the same server charts.
    const livePoints = await points(page);
    const liveLimit = await limit.textContent();
    await page.getByTestId('nav-history').click();
    await page.getByTestId('history-row').first().getByTestId('history-open').click();
    const kept = page.locator('[data-testid=run-detail] [data-testid=server-charts]');
    await kept.waitFor();
    expect(Number(await kept.getAttribute('data-points'))).toBe(livePoints);
    expect(await page.locator('[data-testid=kept-chart-server-cpu] canvas').count()).toBeGreaterThan(0);
    // The kept run draws on the same clock as the live one did.
    expect(Number(await page.getByTestId('kept-chart-server-cpu').getAttribute('data-x-min'))).toBe(ranges[0]!.min);
    expect(Number(await page.getByTestId('kept-chart-latency').getAttribute('data-x-max'))).toBe(ranges[0]!.max);
    expect(await page.locator('[data-testid=run-detail] [data-testid=summary-limit]').textContent()).toBe(liveLimit);
    await page.getByTestId('nav-run').click();
  }, 120_000);

  it('reads another origin\'s /metrics from the cross-origin isolated page when that app allows the page\'s origin, and says once when it does not', async () => {
    const { page, hub } = await dashboardAndHub([]);
    expect(await page.evaluate(() => globalThis.crossOriginIsolated)).toBe(true);
    const allowing = await otherHub(['--CorsOrigins', hub.httpUrl]);
    await page.fill('[data-testid=server-metrics-address]', `${allowing.httpUrl}/metrics`);
    await start(page, '3');
    await page.waitForSelector('[data-testid=summary][data-phase=done]', { timeout: 60_000 });
    expect(await points(page)).toBeGreaterThanOrEqual(3);
    expect(await page.getByTestId('server-metrics-problem').count()).toBe(0);
    // The link carries the address, and a page opened from it reads the same one.
    expect(new URL(page.url()).searchParams.get('metrics')).toBe(`${allowing.httpUrl}/metrics`);
    const shared = await page.context().newPage();
    await shared.goto(page.url());
    expect(await shared.getByTestId('server-metrics-address').inputValue()).toBe(`${allowing.httpUrl}/metrics`);
    await shared.close();

    const refusing = await otherHub([]);
    await page.fill('[data-testid=server-metrics-address]', `${refusing.httpUrl}/metrics`);
    await start(page, '3');
    await page.waitForSelector('[data-testid=summary][data-phase=done]', { timeout: 60_000 });
    const problem = page.getByTestId('server-metrics-problem');
    expect(await problem.count()).toBe(1);
    expect(await problem.textContent()).toContain('does not allow this page\'s origin');
    expect(await page.getByTestId('summary').getAttribute('data-verdict')).toBe('pass');
  }, 120_000);

  it('a link that switched the metrics off opens with them off, and the run reads none', async () => {
    const { page, hub } = await dashboardAndHub([]);
    await page.goto(`${hub.httpUrl}/?metrics=off`);
    expect(await page.getByTestId('server-metrics-enabled').isChecked()).toBe(false);
    expect(await page.getByTestId('server-metrics-address').count()).toBe(0);
    await start(page, '2');
    await page.waitForSelector('[data-testid=summary][data-phase=done]', { timeout: 60_000 });
    expect(new URL(page.url()).searchParams.get('metrics')).toBe('off');
    expect(await page.locator('[data-testid=server-charts] canvas').count()).toBe(0);
    expect(await page.getByTestId('summary-limit').getAttribute('data-limit')).toBe('unknown');
  }, 120_000);

  it('with /metrics switched off on the hub: says so once, and the run completes with its verdict', async () => {
    const page = await dashboardOn(['--EnableMetrics', 'false']);
    await start(page, '4');
    await page.waitForSelector('[data-testid=server-metrics-problem]', { timeout: 15_000 });
    await page.waitForSelector('[data-testid=summary][data-phase=done]', { timeout: 60_000 });
    const problem = page.getByTestId('server-metrics-problem');
    expect(await problem.count()).toBe(1);
    expect(await problem.textContent()).toMatch(/^Server metrics at http:\/\/127\.0\.0\.1:\d+\/metrics could not be read: 404 Not Found .*--EnableMetrics must be true\)\. The run goes on without them/);
    expect(await page.locator('[data-testid=server-charts] canvas').count()).toBe(0);
    const summary = page.getByTestId('summary');
    expect(await summary.getAttribute('data-outcome')).toBe('finished');
    expect(await summary.getAttribute('data-verdict')).toBe('pass');
    expect(await page.getByTestId('summary-limit').getAttribute('data-limit')).toBe('unknown');
  }, 120_000);
});
