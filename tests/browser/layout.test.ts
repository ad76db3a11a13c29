/**
 * The dashboard as a person sees it, in real Chromium against the real hub, at a laptop's
 * 1280x720, a desktop's 1440x900 and a phone's 390x844: every page without horizontal overflow,
 * the run bar in the first screen within 1 s of Start, the key figures above the fold while
 * running, a presentation whose figures fit their tiles, tables whose buttons stay in sight, and
 * no serious or critical accessibility violation (axe-core). Screenshots of every state are saved
 * to test-results/screenshots for people to look at.
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
  { width: 390, height: 844 },
] as const;

let browser: LaunchedBrowser;
let page: Page;
const consoleErrors: string[] = [];

beforeAll(async () => {
  await mkdir(SCREENSHOTS, { recursive: true });
  browser = await launchChromium();
  page = await browser.context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
});

afterAll(async () => {
  await browser?.close();
});

/** Pixels the document is wider than the viewport (0: no sideways scrolling). */
const pageOverflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

async function look(name: string, viewport: { width: number; height: number }): Promise<void> {
  await page.screenshot({ path: `${SCREENSHOTS}/${name}-${viewport.width}x${viewport.height}.png` });
  expect(await pageOverflow(), `${name} at ${viewport.width} px overflows sideways`).toBe(0);
}

/** Serious and critical axe-core violations, as "rule: target" lines (empty: none). */
async function accessibilityProblems(): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')} – ${v.help}`));
}

/** Whether the element's box lies within the first screen. */
async function inFirstScreen(testId: string): Promise<boolean> {
  const box = await page.getByTestId(testId).boundingBox();
  const viewport = page.viewportSize()!;
  return box !== null && box.y >= 0 && box.y + box.height <= viewport.height && box.x >= 0 && box.x + box.width <= viewport.width + 0.5;
}

/** On a phone the form stays one line after a run (the answer first): Edit unfolds it. */
async function unfold() {
  if (await page.getByTestId('setup-edit').isVisible()) await page.getByTestId('setup-edit').click();
}

async function setLoad(connections: string, durationSec: string) {
  await unfold();
  await page.getByTestId('mode-single').click();
  await page.selectOption('select[name=scenario]', 'echo');
  await page.selectOption('select[name=transport]', 'WebSockets');
  await page.fill('input[name=connections]', connections);
  await page.fill('input[name=sendIntervalMs]', '250');
  await page.fill('input[name=durationSec]', durationSec);
}

describe.each(VIEWPORTS)('the dashboard at $width x $height', (viewport) => {
  const phone = viewport.width < 600;

  beforeAll(async () => {
    await page.setViewportSize(viewport);
    await page.goto(inject('hubHttpsUrl'));
  });

  it('idle: a compact form, advanced settings and the comparison folded, an empty state instead of empty charts', async () => {
    await page.getByTestId('empty-state').waitFor();
    expect(await page.getByTestId('empty-state').textContent()).toMatch(/Start runs: Echo · WebSockets \+ JSON · 20 connections every 1,000 ms/);
    expect(await page.getByTestId('advanced').getAttribute('open')).toBeNull();
    expect(await page.getByTestId('compare-setup').count()).toBe(0);
    expect(await page.locator('[data-testid^=chart-]').count()).toBe(0);
    expect(await page.getByTestId('start').isVisible()).toBe(true);
    if (!phone) expect(await inFirstScreen('start')).toBe(true);
    await look('live-idle', viewport);
    expect(await accessibilityProblems()).toEqual([]);
  });

  it('shows the run bar in the first screen within 1 s of Start, the form folded to one line, then the figures while it runs', async () => {
    await setLoad('20', '5');
    const clickedAt = Date.now();
    await page.getByTestId('start').click();
    await page.getByTestId('run-bar').waitFor({ timeout: 1_000 });
    expect(Date.now() - clickedAt).toBeLessThan(1_000);
    expect(await inFirstScreen('run-bar')).toBe(true);
    // The focus follows the run: Stop is next, for the keyboard as for the eye.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('run-stop');
    expect(await page.getByTestId('run-bar').getAttribute('data-phase')).toMatch(/^(preparing|connecting|starting|running)$/);
    expect(await page.getByTestId('setup-folded').textContent()).toMatch(/Echo · WebSockets \+ JSON · 20 connections every 250 ms · 2,048 B · 5 s/);
    await look('live-connecting', viewport);

    await page.waitForSelector('[data-testid=run-bar][data-phase=running]', { timeout: 20_000 });
    await expect.poll(() => page.getByTestId('hero-received').locator('.value').textContent(), { timeout: 10_000 }).toMatch(/^\d/);
    expect(await page.getByTestId('run-bar-detail').textContent()).toMatch(/^\d+ of 5 s · \d+ s left$/);
    expect(await inFirstScreen('run-bar')).toBe(true);
    // A laptop's first screen holds the figures and the verdict line, the charts start on it.
    if (!phone) {
      for (const figure of ['hero-connections', 'hero-received', 'hero-sent', 'hero-p99Recent', 'hero-p99Run', 'hero-delivery', 'hero-verdict']) expect(await inFirstScreen(figure), figure).toBe(true);
      const chartTop = (await page.getByTestId('chart-latency').boundingBox())!.y;
      expect(chartTop).toBeLessThan(viewport.height);
    }
    await look('live-running', viewport);
    expect(await accessibilityProblems()).toEqual([]);
  });

  it('finished: the outcome in the run bar, the run\'s figures, charts with units and whole-second ticks', async () => {
    await page.waitForSelector('[data-testid=run-bar][data-phase=done]', { timeout: 60_000 });
    expect(await page.getByTestId('run-bar-title').textContent()).toBe('Finished');
    expect(await page.getByTestId('hero-delivery').textContent()).toMatch(/100\.00%/);
    // After the end, msg/s is the run's mean, not the last (partial) second's rate.
    const received = (await page.getByTestId('hero-received').textContent())!;
    expect(received).toMatch(/mean of the run/);
    // 20 connections every 250 ms: 80 a second, give or take an uneven second.
    expect(Number(/(\d+)\s*mean/.exec(received)![1])).toBeGreaterThanOrEqual(72);
    expect(Number(/(\d+)\s*mean/.exec(received)![1])).toBeLessThanOrEqual(88);
    expect(await page.getByTestId('hero-p99Recent').count()).toBe(0);
    const legend = await page.getByTestId('chart-rate-legend').textContent();
    expect(legend).toMatch(/received \(out\)\s*\d[\d,.]* msg\/s/);
    expect(await page.getByTestId('chart-bandwidth-legend').textContent()).toMatch(/KBps/);
    if (!phone) expect(await inFirstScreen('run-bar')).toBe(true);
    // The answer first, whole on the first screen; on a phone the form stays one line.
    expect(await inFirstScreen('answer')).toBe(true);
    expect(await page.getByTestId('setup-folded').isVisible()).toBe(phone);
    await look('live-finished', viewport);
    expect(await accessibilityProblems()).toEqual([]);
  });

  it('presents the run: focus moves in, figures fit their tiles and never touch, focus returns on close', async () => {
    await page.getByTestId('nav-present').click();
    const present = page.getByTestId('presentation');
    await present.waitFor();
    try {
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('presentation-close');
    expect(await page.getByTestId('present-p99-label').textContent()).toBe('p99 of the run');
    const fit = await present.evaluate((root) => {
      const tiles = [...root.querySelectorAll<HTMLElement>('.tile')].map((tile) => {
        const value = tile.querySelector<HTMLElement>('.value')!;
        const v = value.getBoundingClientRect();
        return { left: v.left, right: v.left + value.scrollWidth, top: v.top, bottom: v.bottom, tileRight: tile.getBoundingClientRect().right };
      });
      // Chart text: legends, notes and the canvas's axis font (read from the plot's own size).
      const chartText = [...root.querySelectorAll<HTMLElement>('.charts .legend li, .charts .note, .charts .plot')].map((e) => parseFloat(getComputedStyle(e).fontSize));
      return { tiles, sideways: root.scrollWidth - root.clientWidth, downwards: root.scrollHeight - root.clientHeight, width: root.clientWidth, smallestChartText: Math.min(...chartText) };
    });
    expect(fit.sideways).toBe(0);
    // A projector's screen holds it all: figures, charts and legends, nothing below the fold.
    if (viewport.width >= 1280) expect(fit.downwards, `${fit.downwards} px below the screen`).toBe(0);
    expect(fit.smallestChartText).toBeGreaterThanOrEqual(16);
    for (const tile of fit.tiles) expect(tile.right).toBeLessThanOrEqual(tile.tileRight + 1);
    for (let i = 1; i < fit.tiles.length; i++) {
      const [a, b] = [fit.tiles[i - 1]!, fit.tiles[i]!];
      const apart = a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
      expect(apart, 'two figures overlap').toBe(true);
    }
    await page.screenshot({ path: `${SCREENSHOTS}/presentation-${viewport.width}x${viewport.height}.png` });
    expect(await accessibilityProblems()).toEqual([]);
    } finally {
      // Closed whatever failed above, so the next test finds the page.
      await page.keyboard.press('Escape');
      await present.waitFor({ state: 'detached' });
    }
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('nav-present');
  });

  it('history: says where runs are kept, and every row\'s buttons stay in sight', async () => {
    await page.getByTestId('nav-history').click();
    await page.getByTestId('history-row').first().waitFor();
    expect(await page.getByTestId('history-where').textContent()).toMatch(/kept in this browser for this address/);
    const viewportWidth = viewport.width;
    for (const button of await page.getByTestId('history-delete').all()) {
      const box = (await button.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(viewportWidth);
    }
    await look('history', viewport);
    expect(await accessibilityProblems()).toEqual([]);
    await page.getByTestId('history-row').first().getByTestId('history-open').click();
    await page.getByTestId('run-detail').waitFor();
    // A kept run draws the live run's charts.
    for (const chart of ['latency', 'rate', 'bandwidth', 'connections', 'client']) expect(await page.getByTestId(`kept-chart-${chart}`).count()).toBe(1);
    await look('history-run', viewport);
    // Present from History shows the kept run as it ended.
    await page.getByTestId('run-detail-present').click();
    await page.getByTestId('presentation').waitFor();
    expect(await page.getByTestId('present-status').getAttribute('data-phase')).toBe('done');
    expect(await page.getByTestId('present-rate').textContent()).toMatch(/^[\d,]+$/);
    expect(await page.getByTestId('present-capacity').count()).toBe(0);
    await page.getByTestId('presentation-close').click();
  });

  it('tier finder: no overflow, no serious accessibility problem', async () => {
    await page.getByTestId('nav-finder').click();
    await page.getByTestId('finder-result').waitFor();
    await look('tier-finder', viewport);
    expect(await accessibilityProblems()).toEqual([]);
    await page.getByTestId('nav-run').click();
  });

  it('failed: a hub without the benchmark\'s endpoint ends as failed, in the run bar', async () => {
    await setLoad('2', '2');
    await page.fill('input[name=endpointUrl]', `${inject('hubHttpsUrl')}/no-such-hub`);
    await page.getByTestId('start').click();
    await page.waitForSelector('[data-testid=run-bar][data-phase=done]', { timeout: 60_000 });
    expect(await page.getByTestId('run-bar-title').textContent()).toBe('Failed');
    expect(await page.getByTestId('run-bar').getAttribute('class')).toMatch(/\bbad\b/);
    // Why it failed, first in the error box: no hub at that path, the set-up's to fix; on a
    // laptop's screen and larger without scrolling.
    const diagnosis = page.getByTestId('failed-run').getByTestId('diagnosis');
    await diagnosis.waitFor();
    expect(await diagnosis.getAttribute('data-side')).toBe('setup');
    if (!phone) expect(await inFirstScreen('diagnosis-sentence'), 'the diagnosis in the first screen').toBe(true);
    await look('live-failed', viewport);
    expect(await accessibilityProblems()).toEqual([]);
    await unfold();
    await page.fill('input[name=endpointUrl]', `${inject('hubHttpsUrl')}/signalrbench`);
  });

  it('refuses Start when the browser cannot hold the plan, saying why, and outlines the field', async () => {
    await page.fill('input[name=connections]', '100000');
    await page.getByTestId('start').click();
    expect(await page.getByTestId('config-errors').textContent()).toMatch(/Start refused: Chromium allows 255 WebSockets/);
    expect(await page.getByTestId('page-run').locator('input[name=connections]').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByTestId('run-bar').getAttribute('data-phase')).toBe('done');
    await page.fill('input[name=connections]', '20');
  });

  it('your hub: the profile editor readable, its problems beside it, the shape choice, no overflow, no serious accessibility problem', async () => {
    await page.selectOption('select[name=scenario]', 'yourHub');
    const editor = page.getByTestId('hub-profile-text');
    await editor.fill('{ "name": "chat", "send": { "method": "Send Message", "args": ["{message}"] } }');
    await page.getByTestId('hub-profile-errors').waitFor();
    expect(await editor.getAttribute('aria-invalid')).toBe('true');
    // Monospace at a size a phone can read, and as wide as the form allows.
    const type = await editor.evaluate((el) => ({ size: parseFloat(getComputedStyle(el).fontSize), family: getComputedStyle(el).fontFamily, width: el.getBoundingClientRect().width }));
    expect(type.size).toBeGreaterThanOrEqual(13);
    expect(type.family).toMatch(/mono|consolas|menlo/i);
    expect(type.width).toBeGreaterThan(phone ? 300 : 600);
    await look('your-hub-problems', viewport);
    expect(await accessibilityProblems()).toEqual([]);
    await page.selectOption('[data-testid=hub-profile-examples]', 'chat-rooms');
    await page.getByTestId('hub-profile-shape').waitFor();
    await look('your-hub', viewport);
    expect(await accessibilityProblems()).toEqual([]);
    await page.selectOption('select[name=scenario]', 'echo');
  });
});

describe('a comparison, read without scrolling sideways', () => {
  it('runs two combinations and shows every column of the table at 1280 and 1440 px, and fits a phone', async () => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(inject('hubHttpsUrl'));
    await page.fill('input[name=connections]', '10');
    await page.fill('input[name=sendIntervalMs]', '250');
    await page.fill('input[name=durationSec]', '3');
    await page.getByTestId('mode-compare').click();
    for (const key of ['WebSockets:json', 'WebSockets:messagepack', 'ServerSentEvents:json', 'LongPolling:json', 'LongPolling:messagepack']) {
      await page.getByTestId(`compare-${key}`).setChecked(key === 'WebSockets:json' || key === 'LongPolling:json');
    }
    // Limits are shown only for the transports ticked.
    expect((await page.getByTestId('compare-limit-ServerSentEvents').textContent())?.trim()).toBe('');
    await page.fill('input[name=comparePauseSec]', '1');
    await page.getByTestId('compare-start').click();
    await page.waitForSelector('[data-testid=run-bar-step]', { timeout: 30_000 });
    expect(await page.getByTestId('run-bar-step').textContent()).toMatch(/^Comparison 1 of 2: WebSockets \+ JSON/);
    await look('comparison-running', { width: 1280, height: 720 });
    await page.waitForSelector('[data-testid=compare-view][data-runs="2"]', { timeout: 90_000 });
    await page.waitForSelector('[data-testid=run-bar-step]', { state: 'detached', timeout: 30_000 });
    const rows = await page.getByTestId('compare-row').allTextContents();
    expect(rows[0]).toMatch(/^\s*WebSockets \+ JSON/);
    expect(await page.getByTestId('compare-load').textContent()).toMatch(/Echo/);
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      const table = await page.getByTestId('compare-table').evaluate((t) => ({ width: t.scrollWidth, room: t.parentElement!.clientWidth }));
      if (viewport.width >= 1280) expect(table.width, `the comparison table at ${viewport.width} px`).toBeLessThanOrEqual(table.room);
      await page.getByTestId('compare-view').scrollIntoViewIfNeeded();
      await look('comparison', viewport);
      await page.getByTestId('compare-limits').scrollIntoViewIfNeeded();
      await look('comparison-limits', viewport);
      // The percentile axis's labels never run into each other: on a phone they drop their "%".
      const ticks = await page.getByTestId('chart-percentiles').first().getAttribute('data-tick-labels');
      if (viewport.width < 600) expect(ticks).toBe('0 90 99 99.9 99.99 max');
      else expect(ticks).toMatch(/^0%? 90%? 99%? 99\.9%? 99\.99%? max$/);
    }
    expect(await accessibilityProblems()).toEqual([]);
  });

  it('logged no errors in the page console', () => {
    // The failed runs' refused negotiate shows as a failed request (404), nothing else.
    expect(consoleErrors.filter((e) => !/404|no-such-hub/.test(e))).toEqual([]);
  });
});
