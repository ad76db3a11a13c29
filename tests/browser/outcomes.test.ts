/**
 * How a run ends, as a person sees it in real Chromium: a hub killed mid-run turns the run bar and
 * the rates at once and ends the run early as failed (never a pass), says why under the verdict
 * (its diagnosis: the hub crashed, the service's side, in the words of the run's JSON), and so in
 * the history; a run stopped a third of the way reads "stopped", with no verdict; a hub that
 * cannot be reached, or one frozen before the run, shows one error box and nothing else, within
 * seconds, its diagnosis read first and the client library's words folded.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIRST_ANSWER_MS } from '../../core/run-config/config.ts';
import type { Page } from 'playwright-core';
import { openAdvanced } from '../support/dashboard-form.ts';
import { dashboardOnOwnHub, type OwnDashboard } from '../support/own-dashboard.ts';
import { startHub, type RunningHub } from '../support/hub-process.ts';

let page: Page;
let hub: RunningHub;

let own: OwnDashboard;

beforeAll(async () => {
  // Its own hub, serving the page too: killing it leaves the loaded page (and its IndexedDB) working.
  own = await dashboardOnOwnHub([]);
  ({ hub, page } = own);
});

afterAll(() => own?.close());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The run opened in History, as its JSON export. */
async function downloadedRun(): Promise<{ diagnosis?: { cause: string; side: string; sentence: string; advice: string } }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('run-detail').getByTestId('kept-export-json').click()]);
  return JSON.parse(await readFile((await download.path())!, 'utf8'));
}

/** Whether the element's box lies within the first screen. */
async function inFirstScreen(locator: ReturnType<Page['getByTestId']>): Promise<boolean> {
  const box = await locator.boundingBox();
  const viewport = page.viewportSize()!;
  return box !== null && box.y >= 0 && box.y + box.height <= viewport.height;
}

async function start(durationSec: string) {
  await page.fill('input[name=connections]', '10');
  await openAdvanced(page);
  await page.fill('input[name=workers]', '1');
  await page.fill('input[name=sendIntervalMs]', '250');
  await page.fill('input[name=durationSec]', durationSec);
  await page.click('button[type=submit]');
  await page.waitForSelector('[data-testid=summary][data-phase=running]', { timeout: 30_000 });
}

async function historyRowOfLatest() {
  await page.getByTestId('nav-history').click();
  const row = page.getByTestId('history-row').first();
  await row.waitFor();
  return row;
}

describe('outcomes in the dashboard', () => {
  it('Stop a third of the way: "stopped at n of 9 s", no verdict, and so in the history', async () => {
    await start('9');
    await sleep(3_000);
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.waitForSelector('[data-testid=summary][data-phase=done]', { timeout: 30_000 });
    const summary = page.getByTestId('summary');
    expect(await summary.getAttribute('data-outcome')).toBe('stopped');
    expect(await summary.getAttribute('data-verdict')).toBe('none');
    expect(await page.getByTestId('summary-outcome').textContent()).toMatch(/^stopped at [1-5] of 9 s$/);
    const verdict = page.getByTestId('summary-verdict');
    expect(await verdict.textContent()).toMatch(/^Stopped at [1-5] of 9 s: no verdict for an incomplete run/);
    expect(await verdict.getAttribute('class')).not.toMatch(/\bgood\b/);
    // The run bar says how far it got, never in the pass colour.
    expect(await page.getByTestId('run-bar-title').textContent()).toBe('Stopped');
    expect(await page.getByTestId('run-bar-detail').textContent()).toMatch(/^stopped at [1-5] of 9 s$/);
    expect(await page.getByTestId('run-bar').getAttribute('class')).not.toMatch(/\bgood\b/);
    const row = await historyRowOfLatest();
    expect(await row.getAttribute('data-status')).toBe('stopped');
    expect(await row.getByTestId('history-verdict').textContent()).toBe('no verdict');
    await page.getByTestId('nav-run').click();
  });

  it('a hub frozen before the run: failed within seconds, with the same reason as the runner', async () => {
    const frozen = await startHub();
    try {
      frozen.process.kill('SIGSTOP');
      await page.goto(hub.httpUrl!);
      await page.fill('input[name=endpointUrl]', `${frozen.httpUrl}/signalrbench`);
      await page.fill('input[name=connections]', '200');
      await openAdvanced(page);
      await page.fill('input[name=durationSec]', '5');
      const startedMs = Date.now();
      await page.click('button[type=submit]');
      const box = page.getByTestId('failed-run');
      await box.waitFor({ timeout: 30_000 });
      // FIRST_ANSWER_MS decides; 6 s more leaves room for a loaded machine.
      expect(Date.now() - startedMs).toBeLessThan(FIRST_ANSWER_MS + 6_000);
      expect(await box.textContent()).toContain(`no connect answered within ${FIRST_ANSWER_MS / 1_000} s and none opened: the hub is stalled or not answering`);
      // Its diagnosis first in the box.
      const diagnosis = box.getByTestId('diagnosis');
      expect(await diagnosis.getAttribute('data-side')).not.toBe('none');
      expect(await box.evaluate((el) => el.firstElementChild?.getAttribute('data-testid'))).toBe('diagnosis');
    } finally {
      frozen.process.kill('SIGCONT');
      await frozen.stop();
      // The next test runs against the page's own hub again.
      await page.goto(hub.httpUrl!);
      await page.fill('input[name=endpointUrl]', `${hub.httpUrl}/signalrbench`);
    }
  });

  it('a hub that cannot be reached: one error box, the sentence first and the library folded; no charts, figures or tier panel', async () => {
    const endpoint = page.locator('input[name=endpointUrl]');
    const ownUrl = await endpoint.inputValue();
    await endpoint.fill('http://127.0.0.1:1/signalrbench');
    await page.fill('input[name=connections]', '10');
    await page.click('button[type=submit]');
    const box = page.getByTestId('failed-run');
    await box.waitFor({ timeout: 30_000 });
    // The diagnosis is read first: nothing answers at that port, the set-up's to fix.
    const diagnosis = box.getByTestId('diagnosis');
    await page.waitForFunction(() => document.querySelector('[data-testid=failed-run] [data-testid=diagnosis]')?.getAttribute('data-cause') === 'unreachable', null, { timeout: 10_000 });
    expect(await diagnosis.getAttribute('data-side')).toBe('setup');
    expect(await diagnosis.getByTestId('diagnosis-heading').textContent()).toBe('Why: the set-up');
    const sentence = (await diagnosis.getByTestId('diagnosis-sentence').textContent())!;
    expect(sentence).toMatch(/^Nothing accepted the connection at http:\/\/127\.0\.0\.1:1\/signalrbench/);
    expect(await diagnosis.getByTestId('diagnosis-advice').textContent()).toMatch(/^What to do: Check the URL/);
    const text = (await box.textContent())!.replace(/\s+/g, ' ').trim();
    expect(text.startsWith(`Why: the set-up ${sentence}`)).toBe(true);
    expect(await inFirstScreen(diagnosis.getByTestId('diagnosis-sentence'))).toBe(true);
    expect(await page.getByTestId('failed-run-where').textContent()).toMatch(/10 of 10 connections failed · WebSockets \+ JSON to http:\/\/127\.0\.0\.1:1\/signalrbench/);
    // The library's words are there, folded, after it.
    const details = page.getByTestId('failed-run-details');
    expect(await details.getAttribute('open')).toBeNull();
    expect(await details.textContent()).toMatch(/What the client library said/);
    expect(text.indexOf(sentence)).toBeLessThan(text.indexOf('What the client library said'));
    for (const testId of ['hero', 'chart-latency', 'chart-rate', 'tier-verdict', 'summary', 'charts-waiting']) expect(await page.getByTestId(testId).count(), testId).toBe(0);
    expect(await page.getByTestId('run-bar-title').textContent()).toBe('Failed');
    expect(await page.getByTestId('run-bar-detail').textContent()).toBe('no connection could be opened.');
    await endpoint.fill(ownUrl);
  });

  it('the hub killed mid-run (reconnect off): the run bar and the rates turn within seconds, and the run ends early as failed', async () => {
    await start('30');
    await sleep(3_000);
    const received = async () => Number((await page.getByTestId('hero-received').locator('.value').textContent())!.replace(/,/g, ''));
    const before = await received();
    expect(before).toBeGreaterThan(20);
    const killedAt = Date.now();
    hub.process.kill('SIGKILL');
    const bar = page.getByTestId('run-bar');
    await page.waitForFunction(() => /\bbad\b/.test(document.querySelector('[data-testid=run-bar]')?.className ?? ''), null, { timeout: 10_000, polling: 100 });
    const barTurnedMs = Date.now() - killedAt;
    // The last seconds' rate falls while the run goes on; a run that ends first (every connection
    // closed, Reconnect off) shows its mean over the seconds it ran instead, checked below.
    await page.waitForFunction(
      (b) => Number(document.querySelector('[data-testid=hero-received] .value')?.textContent?.replace(/,/g, '')) < b || document.querySelector('[data-testid=run-bar]')?.getAttribute('data-phase') === 'done',
      before,
      { timeout: 10_000, polling: 100 },
    );
    const ratesTurnedMs = Date.now() - killedAt;
    // Within 2 s when the machine is idle; the margin is for a loaded one.
    expect(barTurnedMs, `run bar turned after ${barTurnedMs} ms`).toBeLessThan(4_000);
    expect(ratesTurnedMs, `received rate fell after ${ratesTurnedMs} ms`).toBeLessThan(4_000);
    const detail = (await page.getByTestId('run-bar-detail').textContent())!;
    if ((await page.getByTestId('run-bar').getAttribute('data-phase')) === 'running') expect(detail).toMatch(/10 of 10 closed( \(\d{4}\))? at \d+ s; reconnect off$/);
    // Nothing is left to measure: it ends now, not at its planned 30 s.
    await page.waitForSelector('[data-testid=summary][data-phase=done]', { timeout: 15_000 });
    expect(Date.now() - killedAt).toBeLessThan(15_000);
    const summary = page.getByTestId('summary');
    expect(await summary.getAttribute('data-outcome')).toBe('failed');
    expect(await summary.getAttribute('data-verdict')).toBe('fail');
    expect(await page.getByTestId('summary-verdict').textContent()).toMatch(/^Failed: every connection was closed by \d+ s and Reconnect is off: nothing was left to measure\./);
    expect(await bar.getAttribute('class')).toMatch(/\bbad\b/);
    expect(await page.getByTestId('run-bar-title').textContent()).toBe('Failed');
    expect(await page.getByTestId('hero-delivery').getAttribute('class')).toMatch(/\bbad\b/);
    // Why, in the answer on top of the page and never folded: the hub crashed, the service's
    // side, in the words of the run's own JSON; whole in a laptop's first screen.
    const diagnosis = page.getByTestId('answer').getByTestId('diagnosis');
    await diagnosis.waitFor({ timeout: 5_000 });
    expect(await diagnosis.getAttribute('data-cause')).toBe('hubCrashed');
    expect(await diagnosis.getAttribute('data-side')).toBe('service');
    expect(await diagnosis.getByTestId('diagnosis-heading').textContent()).toBe('Why: the service');
    const sentence = (await diagnosis.getByTestId('diagnosis-sentence').textContent())!;
    expect(sentence).toMatch(/^The hub at http:\/\/127\.0\.0\.1:\d+\/signalrbench went away mid-run: /);
    expect(await diagnosis.evaluate((el) => el.closest('details') === null)).toBe(true);
    expect(await diagnosis.getByTestId('diagnosis-evidence').locator('li').count()).toBeGreaterThan(0);
    for (const size of [{ width: 1280, height: 720 }, { width: 1440, height: 900 }, { width: 1920, height: 1080 }, { width: 390, height: 844 }]) {
      await page.setViewportSize(size);
      await page.evaluate(() => window.scrollTo(0, 0));
      expect(await inFirstScreen(page.getByTestId('answer')), `the answer at ${size.width} px`).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
      await page.screenshot({ path: `test-results/screenshots/live-answer-killed-${size.width}x${size.height}.png` });
    }
    await page.setViewportSize({ width: 1280, height: 1000 });
    // No drop was planned and none came back: no "Drop and reconnect" panel for a drop that never
    // happened.
    expect(await page.getByTestId('drop-view').count()).toBe(0);
    // Its rates over the seconds it ran (10 connections, one send each 250 ms: 40 a second), not
    // divided by the 30 s it planned.
    expect(Number(await page.getByTestId('hero-received').locator('.value').textContent())).toBeGreaterThanOrEqual(36);
    expect(Number(await page.getByTestId('tier-row-outboundMessagesPerSecond').getAttribute('data-ratio'))).toBeGreaterThan(0.035);
    expect(await page.getByTestId('tier-row-connections').getAttribute('data-ratio')).toBe('0.01');
    const row = await historyRowOfLatest();
    expect(await row.getAttribute('data-status')).toBe('failed');
    expect(await row.getByTestId('history-verdict').textContent()).toBe('fail');
    expect(await row.getByTestId('history-cause').textContent()).toBe('hub crashed');
    expect(await row.getByTestId('history-cause').getAttribute('data-side')).toBe('service');
    // Opened from the history: the same block under the summary's verdict, the same sentence.
    await row.getByTestId('history-open').click();
    const kept = page.getByTestId('run-detail').getByTestId('diagnosis');
    await kept.waitFor();
    expect(await kept.getAttribute('data-cause')).toBe('hubCrashed');
    expect(await kept.getByTestId('diagnosis-sentence').textContent()).toBe(sentence);
    expect(await page.getByTestId('run-detail').getByTestId('drop-view').count()).toBe(0);
    // And in the kept run's JSON: the page rendered the document's words, not its own.
    expect((await downloadedRun()).diagnosis).toMatchObject({ cause: 'hubCrashed', side: 'service', sentence });
    await page.getByTestId('run-detail-close').click();
  });

});
