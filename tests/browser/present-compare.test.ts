/**
 * Present during and after a comparison, in real Chromium against the real hub-sample (HTTPS/HTTP2,
 * so long polling is not held to 6 connections per origin): sampled every 200 ms from the moment
 * it opens, the slide is the comparison's throughout (its headline, the side-by-side charts, the
 * combination under way as a line), never the single run's blank figures at a combination's
 * start; at the end core/compare's verdict heads it, word for word as the Live page says it; a
 * kept comparison is presented from History the same way. Screenshots at the projector's and the
 * laptops' sizes and a phone's, during and after.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { chooseMode, openAdvanced } from '../support/dashboard-form.ts';
import { launchChromium, type LaunchedBrowser } from '../support/browser.ts';

let browser: LaunchedBrowser;
let page: Page;
const consoleErrors: string[] = [];

const SIZES = [
  { width: 1920, height: 1080 },
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
];

beforeAll(async () => {
  browser = await launchChromium();
  page = await browser.context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(inject('hubHttpsUrl'));
});

afterAll(async () => {
  await browser?.close();
});

interface Sample {
  atMs: number;
  slides: number;
  headline: string;
  now: string;
  charts: number;
  p99Legend: string;
  runs: number;
  running: string;
  /** The single run's figures and state, which must not stand in for the comparison's slide. */
  runFigures: number;
}

function sample(startedAt: number): Promise<Sample> {
  return page.evaluate((startedAt) => {
    const slide = document.querySelector<HTMLElement>('[data-testid=presentation] [data-testid=present-compare]');
    const text = (selector: string) => (slide?.querySelector(selector)?.textContent ?? '').replace(/\s+/g, ' ').trim();
    return {
      atMs: Date.now() - startedAt,
      slides: document.querySelectorAll('[data-testid=presentation] [data-testid=present-compare]').length,
      headline: text('[data-testid=present-compare-verdict]'),
      now: text('[data-testid=present-compare-now]'),
      charts: slide?.querySelectorAll('[data-testid=present-compare-charts] figure').length ?? 0,
      p99Legend: text('[data-testid=present-compare-p99-legend]'),
      runs: Number(slide?.dataset.runs ?? -1),
      running: slide?.dataset.running ?? '',
      runFigures: document.querySelectorAll('[data-testid=present-rate], [data-testid=present-p99], [data-testid=present-connections], [data-testid=present-status]').length,
    };
  }, startedAt);
}

/** Whether an element is wholly on screen, and how far the presentation overflows sideways. */
async function onScreen(testId: string): Promise<{ visible: boolean; overflowX: number }> {
  const box = await page.locator(`[data-testid=presentation] [data-testid=${testId}]`).boundingBox();
  const size = page.viewportSize()!;
  const overflowX = await page.evaluate(() => {
    const el = document.querySelector<HTMLElement>('[data-testid=presentation]')!;
    return el.scrollWidth - el.clientWidth;
  });
  return { visible: box !== null && box.y >= 0 && box.y + box.height <= size.height && box.x >= 0 && box.x + box.width <= size.width, overflowX };
}

/** How far the slide runs below the screen, and its smallest chart text (legends, notes, the plots' axis font). */
function slideFit(): Promise<{ downwards: number; smallestChartText: number }> {
  return page.evaluate(() => {
    const root = document.querySelector<HTMLElement>('[data-testid=presentation]')!;
    const chartText = [...root.querySelectorAll<HTMLElement>('[data-testid=present-compare-charts] :is(.legend li, .note, .plot, .u-legend th)')].map((e) => parseFloat(getComputedStyle(e).fontSize));
    return { downwards: root.scrollHeight - root.clientHeight, smallestChartText: Math.min(...chartText) };
  });
}

/** Serious and critical axe-core violations on the slide, as "rule: target" lines (empty: none). */
async function accessibilityProblems(): Promise<string[]> {
  const results = await new AxeBuilder({ page }).include('[data-testid=presentation]').analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')} – ${v.help}`));
}

async function shootEverySize(name: string): Promise<void> {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await page.waitForTimeout(250);
    await page.screenshot({ path: `/tmp/present-compare-${name}-${size.width}x${size.height}.png` });
    expect(await onScreen('present-compare-verdict'), `${name} ${size.width}x${size.height}`).toEqual({ visible: true, overflowX: 0 });
    // A projector's or a laptop's screen holds the whole slide, its chart text at 16 px or more; a phone scrolls under the verdict.
    const fit = await slideFit();
    if (size.width >= 1280) expect(fit.downwards, `${name} ${size.width}x${size.height}: ${fit.downwards} px below the screen`).toBe(0);
    expect(fit.smallestChartText, `${name} ${size.width}x${size.height}`).toBeGreaterThanOrEqual(16);
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

describe('Present a comparison', () => {
  let liveHeadline = '';

  it('during and after a two-combination comparison: the side-by-side slide in every 200 ms sample, never blank; at the end the page\'s verdict', async () => {
    await page.selectOption('select[name=scenario]', 'echo');
    await page.fill('input[name=connections]', '10');
    await openAdvanced(page);
    await page.fill('input[name=workers]', '2');
    await page.fill('input[name=sendIntervalMs]', '250');
    await page.fill('input[name=durationSec]', '4');
    await chooseMode(page, 'compare');
    for (const key of ['WebSockets:json', 'WebSockets:messagepack', 'ServerSentEvents:json', 'LongPolling:json', 'LongPolling:messagepack']) {
      await page.getByTestId(`compare-${key}`).setChecked(key === 'WebSockets:json' || key === 'LongPolling:json');
    }
    await page.fill('input[name=comparePauseSec]', '1');
    await page.getByTestId('compare-start').click();
    await page.getByTestId('nav-present').click();
    const startedAt = Date.now();
    const samples: Sample[] = [];
    let shotDuring = false;
    for (;;) {
      const taken = await sample(startedAt);
      samples.push(taken);
      if (taken.runs === 2 && taken.running === 'false' && !taken.now.startsWith('Comparison')) break;
      expect(samples.length, 'the comparison took too long').toBeLessThan(600);
      // Once the second combination has sent a few seconds, the slide during a comparison at every size.
      if (!shotDuring && taken.runs === 1 && /^Comparison 2 of 2: .* · Running/.test(taken.now)) {
        shotDuring = true;
        await shootEverySize('during');
      }
      await page.waitForTimeout(200);
    }
    expect(shotDuring).toBe(true);
    expect(samples.length).toBeGreaterThan(20);
    const seen = (pattern: RegExp) => samples.filter((s) => pattern.test(s.now)).length;
    // Each combination's start was sampled: its connecting, the pause before the second, the second running.
    expect(seen(/^Comparison 1 of 2: WebSockets \+ JSON/)).toBeGreaterThan(0);
    expect(seen(/^Comparison 2 of 2: Long Polling \+ JSON starts in \d s$/)).toBeGreaterThan(0);
    expect(seen(/^Comparison 2 of 2: Long Polling \+ JSON · /)).toBeGreaterThan(0);
    for (const s of samples) {
      const at = `sample at ${s.atMs} ms: ${JSON.stringify(s)}`;
      // Never blank: the comparison's slide, a headline, its three charts and what runs; never the run's own tiles.
      expect(s.slides, at).toBe(1);
      expect(s.headline, at).not.toBe('');
      expect(s.charts, at).toBe(3);
      expect(s.now, at).not.toBe('');
      expect(s.runFigures, at).toBe(0);
      // Once a combination has finished, its line stays in the charts through the next one's start.
      if (s.runs >= 1) expect(s.p99Legend, at).toMatch(/WebSockets/);
      if (s.runs < 2) expect(s.headline, at).toMatch(/^(0|1) of 2 combinations run: the verdict comes once two have\.$/);
    }
    // The second combination joins the charts as it runs, named so.
    expect(samples.some((s) => s.runs === 1 && /Long Polling.*\(running\)/.test(s.p99Legend))).toBe(true);

    const last = samples.at(-1)!;
    expect(last.now).toMatch(/^The same load for every run: /);
    await shootEverySize('after');
    expect(await accessibilityProblems()).toEqual([]);
    // Dark, for a dim room: the same slide, still readable.
    await page.getByTestId('presentation-theme').click();
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.waitForTimeout(250);
    await page.screenshot({ path: '/tmp/present-compare-after-dark-1920x1080.png' });
    expect(await accessibilityProblems()).toEqual([]);
    await page.getByTestId('presentation-theme').click();
    await page.setViewportSize({ width: 1280, height: 720 });
    liveHeadline = last.headline;
    await page.getByTestId('presentation-close').click();
    // The slide's verdict is core/compare's, word for word as the Live page's comparison says it.
    expect(await page.getByTestId('compare-verdict').textContent()).toBe(liveHeadline);
    expect(consoleErrors).toEqual([]);
  });

  it('a kept comparison, from History: the same slide, the verdict History gives, nothing running', async () => {
    expect(liveHeadline).not.toBe('');
    await page.getByTestId('nav-history').click();
    await page.getByTestId('history-select-comparison').first().click();
    await page.getByTestId('history-compare').click();
    // History lists the runs newest first, and compares them in that order: the slide says what the page under it says.
    // (The Live page stays mounted, hidden, with its own comparison view.)
    const keptVerdict = await page.locator('main:not([data-testid=page-run]) [data-testid=compare-verdict]').textContent();
    expect(keptVerdict).toMatch(/Long Polling \+ JSON/);
    await page.getByTestId('history-compare-present').click();
    const slide = page.locator('[data-testid=presentation] [data-testid=present-compare]');
    await slide.waitFor();
    expect(await slide.getAttribute('data-runs')).toBe('2');
    expect(await slide.getAttribute('data-running')).toBe('false');
    expect(await slide.getByTestId('present-compare-verdict').textContent()).toBe(keptVerdict);
    expect(await slide.getByTestId('present-compare-run').count()).toBe(2);
    expect(await slide.locator('[data-testid=present-compare-charts] figure').count()).toBe(3);
    await page.screenshot({ path: '/tmp/present-compare-history-1280x720.png' });
    expect(await onScreen('present-compare-verdict')).toEqual({ visible: true, overflowX: 0 });
    await page.getByTestId('presentation-close').click();
    expect(consoleErrors).toEqual([]);
  });
});
