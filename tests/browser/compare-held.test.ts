/**
 * Comparing combinations by what each holds, in real Chromium against a hub-sample limited to a
 * known message rate: a capacity search per combination on one ramp, then one bar per combination
 * with its held load and its break, and a verdict that names the one that holds more only when it
 * held more than a step above the other (here both meet the same limit: too close, or one named).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import AxeBuilder from '@axe-core/playwright';
import { chooseMode, openAdvanced } from '../support/dashboard-form.ts';
import { dashboardOnOwnHub, type OwnDashboard } from '../support/own-dashboard.ts';

/** The ramp, msg/s: 4 connections 100 ms apart at the first step, so that a browser beside other
 *  browser files keeps its schedule (a send one interval late is a missed slot). */
const START = 40;
const STEP = 40;
/** Messages per second the hub delivers promptly: between the ramp's first step (held) and its
 *  second (broken by a quarter late), so that each search is three steps: held, broke, the break
 *  once more. What a comparison by held load says does not need bisections: the searches' own
 *  bisections are checked in capacity.test.ts. */
const LIMIT = 60;

let page: Page;
let own: OwnDashboard;

beforeAll(async () => {
  own = await dashboardOnOwnHub(['--EnableTestHubs', 'true', '--TestMessageRateLimit', String(LIMIT)]);
  ({ page } = own);
});

afterAll(() => own?.close());

/** Serious and critical axe-core violations inside `selector`, as "rule: target" lines. */
async function axeProblems(selector: string): Promise<string[]> {
  const results = await new AxeBuilder({ page }).include(selector).analyze();
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
}

describe('a comparison by what each holds', () => {
  it('searches WebSockets and long polling on one ramp and says which holds more, or too close, each with its break', async () => {
    await openAdvanced(page);
    // Long polling over http:// gets 4 usable connections in a browser: the same 4 for both.
    await page.fill('input[name=connections]', '4');
    await page.fill('input[name=workers]', '1');
    await chooseMode(page, 'compare');
    for (const key of ['WebSockets:json', 'WebSockets:messagepack', 'ServerSentEvents:json', 'LongPolling:json', 'LongPolling:messagepack']) {
      await page.getByTestId(`compare-${key}`).setChecked(key === 'WebSockets:json' || key === 'LongPolling:json');
    }
    await page.getByTestId('compare-by-held').check();
    await page.getByTestId('capacity-ramp').selectOption('rate');
    for (const [field, value] of [['start', String(START)], ['step', String(STEP)], ['max', String(START + 3 * STEP)], ['step-sec', '2'], ['settle-sec', '1'], ['bisect', '0']]) {
      await page.getByTestId(`capacity-${field}`).fill(value!);
    }
    await page.fill('input[name=comparePauseSec]', '0');
    // Over http:// the form says before Start what long polling needs to be ranked, with the HTTPS page offered.
    expect(await page.getByTestId('compare-ranking-needs').textContent()).toMatch(/^Over http:\/\/ this browser gives long polling 6 connections per origin \(4 usable\)/);
    expect(await page.getByTestId('compare-https-link').getAttribute('href')).toMatch(/^https:\/\/127\.0\.0\.1:5181\//);
    expect(await axeProblems('[data-testid=compare-setup]')).toEqual([]);
    await page.getByTestId('compare-start').click();
    await page.getByTestId('run-bar-step').waitFor();
    const verdict = page.getByTestId('compare-held-verdict');
    await verdict.waitFor({ timeout: 150_000 });
    const rows = page.getByTestId('compare-held-row');
    expect(await rows.count()).toBe(2);
    const held = await rows.evaluateAll((items) => items.map((li) => Number(li.getAttribute('data-held'))));
    // Each held at least the first step and no more than the hub's limit (the hub's break or this client's).
    for (const load of held) {
      expect(load).toBeGreaterThanOrEqual(START);
      expect(load).toBeLessThanOrEqual(LIMIT);
    }
    const broke = await page.getByTestId('compare-held-broke').allTextContents();
    for (const line of broke) expect(line).toMatch(/broke first, between [\d,]+ and [\d,]+ msg\/s/);
    const kind = await verdict.getAttribute('data-kind');
    const text = (await verdict.textContent())!;
    if (Math.abs(held[0]! - held[1]!) <= STEP) {
      expect(kind).toBe('too-close');
      expect(text).toMatch(new RegExp(String.raw`^Too close to call: (WebSockets|Long Polling) \+ JSON held (at least )?[\d,]+ msg\/s, (WebSockets|Long Polling) \+ JSON held (at least )?[\d,]+ msg\/s: no more than one step \(${STEP} msg\/s\) apart\.$`));
    } else {
      expect(kind).toMatch(/^(best|none)$/);
      expect(text).toMatch(/^(Holds the most|No winner): /);
    }
    expect(await axeProblems('[data-testid=compare-held]')).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.getByTestId('compare-held').scrollIntoViewIfNeeded();
    await page.screenshot({ path: '/tmp/compare-held-1280.png' });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('compare-held').scrollIntoViewIfNeeded();
    await page.screenshot({ path: '/tmp/compare-held-390.png' });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
  });
});
