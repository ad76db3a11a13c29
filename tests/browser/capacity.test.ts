/**
 * A capacity search from the dashboard, in real Chromium, against a hub-sample limited to a
 * known message rate: the step chart fills step by step, the result card states the capacity
 * and its share of a tier, and the History keeps every step with the search.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chooseMode, openAdvanced } from '../support/dashboard-form.ts';
import { dashboardOnOwnHub, type OwnDashboard } from '../support/own-dashboard.ts';

/** Messages per second the hub delivers promptly. */
const LIMIT = 270;

let page: Page;

let own: OwnDashboard;

beforeAll(async () => {
  own = await dashboardOnOwnHub(['--EnableTestHubs', 'true', '--TestMessageRateLimit', String(LIMIT)]);
  ({ page } = own);
});

afterAll(() => own?.close());

describe('Find capacity in the dashboard', () => {
  it('bad ramp settings: every problem listed at once, nothing run', async () => {
    await openAdvanced(page);
    await page.fill('input[name=connections]', '20');
    await page.fill('input[name=workers]', '1');
    await chooseMode(page, 'find-capacity');
    await page.getByTestId('capacity-start').fill('0');
    await page.getByTestId('capacity-step-sec').fill('1');
    await page.getByTestId('find-capacity-start').click();
    const errors = page.getByTestId('capacity-errors').locator('li');
    await errors.first().waitFor();
    expect(await errors.allTextContents()).toEqual([
      expect.stringMatching(/^Ramp start .* but is "0"\.$/),
      expect.stringMatching(/^Step duration .* but is "1"\.$/),
    ]);
    expect(await page.getByTestId('summary').count()).toBe(0);
  });

  it(`finds a hub limited to ${LIMIT} msg/s: the chart fills, the card states the capacity and the tier share, the History keeps it`, async () => {
    await page.getByTestId('capacity-ramp').selectOption('rate');
    for (const [field, value] of [['start', '100'], ['step', '100'], ['max', '400'], ['step-sec', '3'], ['settle-sec', '1'], ['bisect', '1']]) {
      await page.getByTestId(`capacity-${field}`).fill(value!);
    }
    await page.getByTestId('find-capacity-start').click();
    await page.getByTestId('run-bar-step').waitFor();
    expect(await page.getByTestId('run-bar-step').textContent()).toMatch(/^Capacity step 1 of at most 6: 100 msg\/s \(20 connections every 200 ms\)$/);
    // Steps 100, 200 (held), 300 (broke), one bisection at 250, then 300 once more to confirm the break.
    await page.getByTestId('capacity-export-json').waitFor({ timeout: 120_000 });
    expect(await page.getByTestId('capacity-chart').getAttribute('data-points')).toBe('5');
    const card = page.getByTestId('capacity-card');
    expect(await card.getAttribute('data-finding')).toBe('found');
    expect(await card.getAttribute('data-limited-by')).toBe('service');
    expect(await card.getAttribute('data-confirmed')).toBe('true');
    const headline = await page.getByTestId('capacity-headline').textContent();
    const held = Number(/^Held ([\d,]+) msg\/s/.exec(headline ?? '')?.[1]?.replace(/,/g, ''));
    expect(Math.abs(held - LIMIT) / LIMIT).toBeLessThanOrEqual(0.15);
    expect(headline).toMatch(/of 2\.0 KB echo over WebSockets \+ JSON with 20 connections at p99 [\d.]+ m?s \(\d+\.\d\d% under 1 s\)\.$/);
    expect(await page.getByTestId('capacity-tier-line').first().textContent()).toMatch(/^That is \d+% of Unit1's published echo rate \(1,000 msg\/s, current edition\)\.$/);
    // What failed it (late or lost receptions), never a p99 that passes; then the second run's word.
    expect(await page.getByTestId('capacity-broke').textContent()).toMatch(/^Broke at step 3 \(299 msg\/s .*because of the service: [\d,]+ of [\d,]+ (arrived 1 s or more after their planned time|planned receptions were lost).* while the client kept its schedule\. Confirmed: the same load broke again at step 5\.$/);
    expect(await page.getByTestId('capacity-step-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-held')))).toEqual(['true', 'true', 'false', 'true', 'false']);

    await page.getByTestId('nav-history').click();
    const rows = page.locator('[data-testid=history-row][data-comparison^=cap-]');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(5);
    // The newest step's record carries the whole search.
    await rows.first().getByTestId('history-open').click();
    const kept = page.getByTestId('kept-capacity');
    await kept.waitFor();
    expect(await kept.getByTestId('capacity-headline').textContent()).toBe(headline);
    expect(await kept.getByTestId('capacity-step-row').count()).toBe(5);
  });
});
