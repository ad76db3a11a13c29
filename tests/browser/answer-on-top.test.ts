/**
 * The answer on top, in real Chromium against a real hub-sample: after a single run the first
 * card under the run bar is its verdict, its share of the tier and its diagnosis, whole in the
 * first screen of a laptop (1280x720) and of a phone (390x844), the charts below it; on a phone
 * the form stays one line after the run. A kept run opened in History is in the address: Back and
 * Forward walk it, a reload and a bookmark reopen it. Screenshots of the Live page after a run at
 * the four sizes go to test-results/screenshots.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { dashboardOnOwnHub, type OwnDashboard } from '../support/own-dashboard.ts';
import { openAdvanced } from '../support/dashboard-form.ts';

const SCREENSHOTS = 'test-results/screenshots';
const SIZES = [
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
  { width: 1920, height: 1080 },
  { width: 390, height: 844 },
] as const;

let own: OwnDashboard;
let page: Page;
const consoleErrors: string[] = [];

beforeAll(async () => {
  await mkdir(SCREENSHOTS, { recursive: true });
  own = await dashboardOnOwnHub([]);
  page = own.page;
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
});

afterAll(() => own?.close());

/** The element's box, wholly inside the first screen. */
async function wholeInFirstScreen(testId: string): Promise<boolean> {
  const box = await page.getByTestId(testId).first().boundingBox();
  const viewport = page.viewportSize()!;
  return box !== null && box.y >= 0 && box.y + box.height <= viewport.height && box.x >= 0 && box.x + box.width <= viewport.width + 0.5;
}

const pageOverflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

async function runOnce(durationSec: string): Promise<void> {
  await page.fill('input[name=connections]', '10');
  await page.fill('input[name=sendIntervalMs]', '250');
  await page.fill('input[name=durationSec]', durationSec);
  await openAdvanced(page);
  await page.fill('input[name=workers]', '1');
  await page.getByTestId('start').click();
  await page.waitForSelector('[data-testid=run-bar][data-phase=done]', { timeout: 60_000 });
}

describe('the answer on top', () => {
  it('says on the first screen what the tool does and what Start makes in each mode, and the Endpoint field shows a real hub URL whole', async () => {
    await page.setViewportSize({ width: 1280, height: 720 });
    expect(await page.getByTestId('about').textContent()).toMatch(/^Runs the loops of Microsoft's performance guide for Azure SignalR Service .* beside the guide's tier figures\.$/);
    expect(await wholeInFirstScreen('about')).toBe(true);
    // In "Find capacity" the form says the search it will make, not a single run's 30 s.
    await page.getByTestId('mode-find-capacity').click();
    const searchLine = (await page.getByTestId('empty-setup').textContent())!;
    expect(searchLine).toMatch(/^Find capacity runs: Echo · WebSockets \+ JSON · 20 connections · 2,048 B · http:\/\/127\.0\.0\.1:\d+\/signalrbench · a search of at most 13 steps of 20 s \(the first 3 s of each not judged\): 100 to 1,000 msg\/s by 100 until a step breaks the guide's rule, then 2 bisections and the break run again\.$/);
    expect(searchLine).not.toMatch(/\b30 s\b/);
    await page.getByTestId('capacity-max').fill('400');
    expect(await page.getByTestId('empty-setup').textContent()).toMatch(/at most 7 steps .*100 to 400 msg\/s by 100/);
    await page.getByTestId('mode-single').click();
    expect(await page.getByTestId('empty-setup').textContent()).toMatch(/^Start runs: Echo · WebSockets \+ JSON · 20 connections every 1,000 ms · 2,048 B · 30 s · /);
    const url = 'https://contoso-bench.service.signalr.net/client/?hub=signalrbench';
    for (const size of SIZES.filter((s) => s.width >= 1280)) {
      await page.setViewportSize(size);
      // The text's width against the field's: the whole URL is in sight, not "…/signalrb".
      const fits = await page.locator('input[name=endpointUrl]').evaluate((input: HTMLInputElement, text) => {
        const probe = document.createElement('span');
        probe.style.cssText = `position:absolute;visibility:hidden;white-space:pre;font:${getComputedStyle(input).font}`;
        probe.textContent = text;
        document.body.append(probe);
        const width = probe.getBoundingClientRect().width;
        probe.remove();
        const style = getComputedStyle(input);
        return { width, room: input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) };
      }, url);
      expect(fits.room, `at ${size.width} px`).toBeGreaterThanOrEqual(fits.width);
    }
  });

  it('after a run at 1280x720: the verdict, the tier share and the diagnosis in one card, whole in the first screen, the charts below it', async () => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await runOnce('3');
    const answer = page.getByTestId('answer');
    await answer.waitFor();
    expect(await answer.getByTestId('answer-verdict').textContent()).toMatch(/^Pass: 100\.00% of \d+ planned receptions arrived in under 1 s/);
    expect(await answer.getByTestId('answer-tier').textContent()).toMatch(/^Tier: Unit1, the smallest tier of the current edition, covers every limit\./);
    // 40 msg/s planned; a message more or less inside the 2 s judged (a slot at its edge on a busy
    // machine) reads 39.5 or 40.5, and the share 4% or 4.1%.
    expect(await answer.getByTestId('answer-tier-share').textContent()).toMatch(/^Its largest share of Unit1: (inbound|outbound) messages, (39\.5|40|40\.5) msg\/s out of Unit1's 1,000 \((3\.9|4|4\.1)%\)\.$/);
    expect(await answer.getByTestId('diagnosis').getAttribute('data-cause')).toBe('held');
    expect(await wholeInFirstScreen('answer')).toBe(true);
    // It is the first card: right under the run bar, above the form and every chart.
    const answerBox = (await answer.boundingBox())!;
    expect((await page.getByTestId('run-bar').boundingBox())!.y).toBeLessThan(answerBox.y);
    expect((await page.locator('form[aria-label="Run setup"]').boundingBox())!.y).toBeGreaterThan(answerBox.y + answerBox.height);
    expect((await page.getByTestId('chart-latency').boundingBox())!.y).toBeGreaterThan(answerBox.y + answerBox.height);
    // Said once: the key figures below no longer repeat the verdict or the diagnosis.
    expect(await page.getByTestId('hero-verdict').count()).toBe(0);
    expect(await page.getByTestId('hero').getByTestId('diagnosis').count()).toBe(0);
    expect(await page.getByTestId('drop-view').count()).toBe(0);
    // Drag across a time chart to zoom into some seconds; a double-click shows the whole run again.
    const chart = page.getByTestId('chart-latency');
    const whole = { min: Number(await chart.getAttribute('data-x-min')), max: Number(await chart.getAttribute('data-x-max')) };
    await chart.scrollIntoViewIfNeeded();
    const plot = (await chart.locator('.u-over').boundingBox())!;
    await page.mouse.move(plot.x + plot.width * 0.3, plot.y + plot.height / 2);
    await page.mouse.down();
    await page.mouse.move(plot.x + plot.width * 0.6, plot.y + plot.height / 2, { steps: 5 });
    await page.mouse.up();
    await expect.poll(async () => Number(await chart.getAttribute('data-x-max')) - Number(await chart.getAttribute('data-x-min'))).toBeLessThan((whole.max - whole.min) * 0.5);
    expect(Number(await chart.getAttribute('data-x-min'))).toBeGreaterThan(whole.min);
    // The charts on the run's one clock zoom together, and go back together.
    const rate = page.getByTestId('chart-rate');
    expect(await rate.getAttribute('data-x-min')).toBe(await chart.getAttribute('data-x-min'));
    expect(await rate.getAttribute('data-x-max')).toBe(await chart.getAttribute('data-x-max'));
    await page.mouse.dblclick(plot.x + plot.width / 2, plot.y + plot.height / 2);
    for (const each of [chart, rate]) {
      await expect.poll(async () => [Number(await each.getAttribute('data-x-min')), Number(await each.getAttribute('data-x-max'))]).toEqual([whole.min, whole.max]);
    }
    await page.evaluate(() => window.scrollTo(0, 0));

    for (const size of SIZES) {
      await page.setViewportSize(size);
      await page.screenshot({ path: `${SCREENSHOTS}/live-answer-pass-${size.width}x${size.height}.png` });
      expect(await pageOverflow(), `overflow at ${size.width} px`).toBe(0);
    }
  });

  it('on a phone: the form stays one line after the run, and the answer is whole in the first screen', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.getByTestId('setup-folded').isVisible()).toBe(true);
    await page.getByTestId('setup-edit').click();
    await runOnce('2');
    await page.getByTestId('answer').waitFor();
    expect(await page.getByTestId('setup-folded').isVisible()).toBe(true);
    expect(await page.getByTestId('page-run').locator('input[name=connections]').count()).toBe(0);
    expect(await wholeInFirstScreen('answer')).toBe(true);
    expect(await page.getByTestId('setup-folded').textContent()).toMatch(/Echo · WebSockets \+ JSON · 10 connections every 250 ms · 2,048 B · 2 s/);
    // Start again from the line: the same setup, without unfolding.
    await page.getByTestId('setup-again').click();
    await page.waitForSelector('[data-testid=run-bar][data-phase=done]', { timeout: 60_000 });
    await page.getByTestId('answer').waitFor();
    expect(await wholeInFirstScreen('answer')).toBe(true);
    await page.getByTestId('setup-edit').click();
    expect(await page.getByTestId('page-run').locator('input[name=connections]').inputValue()).toBe('10');
  });

  it('a kept run opened in History is in the address: Back and Forward walk it, a reload and a bookmark reopen it', async () => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.getByTestId('nav-history').click();
    expect(new URL(page.url()).hash).toBe('#history');
    const row = page.getByTestId('history-row').first();
    await row.waitFor();
    await row.getByTestId('history-open').click();
    const detail = page.getByTestId('run-detail');
    await detail.waitFor();
    const id = (await detail.getAttribute('data-run-id'))!;
    expect(new URL(page.url()).hash).toBe(`#history/run/${encodeURIComponent(id)}`);
    const address = page.url();

    await page.goBack();
    await expect.poll(() => detail.count()).toBe(0);
    expect(new URL(page.url()).hash).toBe('#history');
    await page.goBack();
    await expect.poll(() => page.getByTestId('page-run').isVisible()).toBe(true);
    expect(new URL(page.url()).hash).toBe('');
    await page.goForward();
    await page.goForward();
    await detail.waitFor();
    expect(await detail.getAttribute('data-run-id')).toBe(id);

    await page.reload();
    await detail.waitFor();
    expect(await detail.getAttribute('data-run-id')).toBe(id);
    expect(await page.getByTestId('nav-history').getAttribute('aria-current')).toBe('page');

    // A bookmark, opened in another tab of this browser.
    const other = await own.browser.context.newPage();
    await other.goto(address);
    await other.getByTestId('run-detail').waitFor();
    expect(await other.getByTestId('run-detail').getAttribute('data-run-id')).toBe(id);
    // One not kept here says so, in the list's words.
    await other.goto(address.replace(/run\/.*$/, 'run/not-a-kept-run'));
    await other.reload();
    expect(await other.getByTestId('history-problem').textContent()).toMatch(/^The run this address opens is not kept in this browser/);
    await other.close();

    // Closing the run goes back to the list, in the address too.
    await page.getByTestId('run-detail-close').click();
    expect(new URL(page.url()).hash).toBe('#history');
    await page.getByTestId('nav-run').click();
    expect(new URL(page.url()).hash).toBe('');
  });

  it('logged no errors in the page console', () => {
    expect(consoleErrors).toEqual([]);
  });
});
