/**
 * The comparison's one-line answer in real Chromium, on the page and in its HTML report: two runs
 * imported into the history, the faster one having lost a message; the verdict names the one that
 * kept every message. The report says the verdict first, its table fits at 1280 px, and axe-core
 * finds no serious or critical violation in it.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import { launchChromium, type LaunchedBrowser } from '../support/browser.ts';
import { finishedRun } from '../support/finished-run.ts';
import { chooseMode } from '../support/dashboard-form.ts';

let browser: LaunchedBrowser;
let page: Page;

beforeAll(async () => {
  browser = await launchChromium();
  page = await browser.context.newPage();
  await page.goto(inject('hubHttpUrl'));
});

afterAll(async () => {
  await browser?.close();
});

/** Imports these runs into the history and compares them (the newest rows). */
async function compareImported(files: readonly (readonly [string, unknown])[]): Promise<void> {
  // Leave History first: the previous comparison stays on it until the new one has loaded.
  await page.getByTestId('nav-run').click();
  await page.getByTestId('compare-view').waitFor({ state: 'detached' });
  await page.getByTestId('nav-history').click();
  const rows = page.getByTestId('history-row');
  for (const [name, run] of files) {
    // Each import adds its row: the notice alone may still be the previous import's.
    const before = await rows.count();
    await page.getByTestId('history-import').setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(run)) });
    await expect.poll(() => rows.count()).toBe(before + 1);
  }
  for (let i = 0; i < (await rows.count()); i++) await rows.nth(i).getByTestId('history-select').setChecked(i < files.length);
  await page.getByTestId('history-compare').click();
  await page.waitForSelector(`[data-testid=compare-view][data-runs="${files.length}"]`);
}

/** The comparison's HTML report, opened at 1280 px. */
async function reportOf(): Promise<Page> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-testid=compare-view] [data-testid=kept-export-html]').click()]);
  const html = await readFile((await download.path())!, 'utf8');
  const report = await browser.context.newPage();
  await report.setViewportSize({ width: 1280, height: 900 });
  await report.setContent(html);
  return report;
}

describe('the comparison verdict', () => {
  it('skips the faster run that lost a message, on the page and first thing in the HTML report, which axe finds sound', async () => {
    // Made by the real engine on a fake clock: the lossy run is faster (2 ms against 30 ms).
    const lossy = await finishedRun({ protocol: 'messagepack' }, { deliveryDelayMs: 2, drop: (connection, n) => connection === 0 && n === 5 });
    const whole = await finishedRun({ protocol: 'json' }, { deliveryDelayMs: 30 });
    await page.getByTestId('nav-history').click();
    for (const [name, run] of [['lossy.json', lossy], ['whole.json', whole]] as const) {
      await page.getByTestId('history-import').setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(run)) });
      await page.getByTestId('history-notice').waitFor();
    }
    const rows = page.getByTestId('history-row');
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(2);
    // Each row gives its verdict's reason: the lossy run's lost message, nothing beside a pass.
    const reasons = await page.locator('[data-testid=history-row]').evaluateAll((trs) => trs.map((tr) => [tr.querySelector('[data-testid=history-verdict]')?.textContent, tr.querySelector('[data-testid=history-reason]')?.textContent ?? '']));
    expect(reasons.slice(0, 2)).toEqual(expect.arrayContaining([['fail', '1 lost'], ['pass', '']]));
    await rows.nth(0).getByTestId('history-select').check();
    await rows.nth(1).getByTestId('history-select').check();
    await page.getByTestId('history-compare').click();
    const verdict = page.getByTestId('compare-verdict');
    await verdict.waitFor();
    const text = (await verdict.textContent())!;
    expect(text).toMatch(/^Best: [^:]*JSON[^:]*: passed the guide's rule \(99% in under 1 s, nothing lost\), p99 30\.\d ms \(.*MessagePack.*: failed the rule, delivered 9\d\.\d\d%\)\.$/);
    // The per-column marks stay in the table; the verdict leads, above the charts.
    const verdictBox = (await verdict.boundingBox())!;
    expect(verdictBox.y).toBeLessThan((await page.getByTestId('chart-percentiles').boundingBox())!.y);

    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-testid=compare-view] [data-testid=kept-export-html]').click()]);
    const html = await readFile((await download.path())!, 'utf8');
    const report = await browser.context.newPage();
    await report.setViewportSize({ width: 1280, height: 900 });
    await report.setContent(html);
    // The verdict first: the paragraph right under the title.
    expect(await report.locator('h1 + p').getAttribute('data-testid')).toBe('report-verdict');
    expect(await report.getByTestId('report-verdict').textContent()).toBe(text);
    // The table fits: nothing to scroll sideways at 1280 px, and no header broken inside a word.
    const table = await report.locator('.scroll').evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    expect(table.scroll, `table ${table.scroll} px in ${table.client} px`).toBeLessThanOrEqual(table.client);
    expect(await report.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    const results = await new AxeBuilder({ page: report }).analyze();
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
    expect(serious).toEqual([]);
    await report.close();
  });

  it('with 20 messages a run names nobody: "too few messages to rank", the seconds it needs, the same in the report', async () => {
    // The issue's case: 4 connections, one message a second each, for 5 s; the faster p99 is one message.
    const load = { sendIntervalMs: 1_000, durationSec: 5 };
    await compareImported([['few-json.json', await finishedRun({ ...load, protocol: 'json' }, { deliveryDelayMs: 35 })], ['few-msgpack.json', await finishedRun({ ...load, protocol: 'messagepack' }, { deliveryDelayMs: 144 })]]);
    const verdict = page.getByTestId('compare-verdict');
    expect(await verdict.getAttribute('data-kind')).toBe('too-few');
    const text = (await verdict.textContent())!;
    expect(text).toMatch(/^Too few messages to rank: WebSockets \+ (JSON|MessagePack) received 20, WebSockets \+ (JSON|MessagePack) received 20; a run's p99 needs 500 messages to have 5 slower than it \(with 20 it is the slowest message itself\)\. Run at least 125 s at this load\.$/);
    const evidence = await page.getByTestId('compare-evidence').locator('li').allTextContents();
    expect(evidence).toHaveLength(2);
    for (const line of evidence) expect(line).toMatch(/; 20 messages, none slower than p99: it is the slowest message \(too few to rank: 500 needed\)\.$/);
    // The table marks no p99 or p99.9 best either: they say how many messages that needs.
    expect(await page.locator('[data-testid=compare-row] td.win[data-column=p99], [data-testid=compare-row] td.win[data-column=p999]').count()).toBe(0);
    expect(await page.getByTestId('compare-too-few').textContent()).toBe('No best marked for p99 (500 messages a run needed), p99.9 (5,000 messages a run needed): too few messages.');
    // The comparison on the page, its evidence and its picker of one combination's charts, is axe-sound.
    const onPage = await new AxeBuilder({ page }).include('[data-testid=compare-view]').analyze();
    expect(onPage.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`))).toEqual([]);
    const report = await reportOf();
    expect(await report.getByTestId('report-verdict').textContent()).toBe(text);
    expect(await report.getByTestId('report-evidence').locator('li').allTextContents()).toEqual(evidence);
    await report.close();
  });

  it('names the winner when enough messages put its p99 interval below the other, on the page and in the report', async () => {
    // 20 connections, ten messages a second each, for 3 s: 600 messages a run.
    const load = { connections: 20, sendIntervalMs: 100, durationSec: 3 };
    await compareImported([['many-json.json', await finishedRun({ ...load, protocol: 'json' }, { deliveryDelayMs: 30 })], ['many-msgpack.json', await finishedRun({ ...load, protocol: 'messagepack' }, { deliveryDelayMs: 2 })]]);
    const verdict = page.getByTestId('compare-verdict');
    expect(await verdict.getAttribute('data-kind')).toBe('best');
    const text = (await verdict.textContent())!;
    expect(text).toMatch(/^Best: [^:]*MessagePack[^:]*: passed the guide's rule \(99% in under 1 s, nothing lost\) with the lowest p99, 2\.\d\d ms, 95%: 2\.\d\d ms–2\.\d\d ms, below every other run's interval \([^:]*JSON[^:]*: p99 30\.\d ms, 95%: 30\.\d ms–30\.\d ms\)\.$/);
    const report = await reportOf();
    expect(await report.getByTestId('report-verdict').textContent()).toBe(text);
    await report.close();
  });

  it('stops a comparison at its first combination when no connection could be opened: the others would meet the same hub', async () => {
    await page.getByTestId('nav-run').click();
    const endpoint = page.locator('input[name=endpointUrl]');
    await endpoint.fill('http://127.0.0.1:1/signalrbench');
    await page.fill('input[name=connections]', '4');
    await chooseMode(page, 'compare');
    for (const key of ['WebSockets:json', 'WebSockets:messagepack', 'ServerSentEvents:json', 'LongPolling:json', 'LongPolling:messagepack']) {
      await page.getByTestId(`compare-${key}`).setChecked(key === 'WebSockets:json' || key === 'LongPolling:json');
    }
    await page.fill('input[name=comparePauseSec]', '0');
    await page.getByTestId('compare-start').click();
    const problem = page.getByTestId('compare-problem');
    await problem.waitFor({ timeout: 30_000 });
    expect(await problem.textContent()).toMatch(/^WebSockets \+ JSON failed: no connection could be opened\. .* The comparison stopped there/);
    // One run, failed; the second combination never started.
    expect(await page.getByTestId('run-bar-title').textContent()).toBe('Failed');
    expect(await page.getByTestId('run-bar-step').count()).toBe(0);
    expect(await page.getByTestId('failed-run').count()).toBe(1);
  });
});
