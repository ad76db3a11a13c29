/**
 * Comparison runs, the run history and the reports in real Chromium against the real hub-sample
 * (HTTPS/HTTP2, so long polling is not held to 6 connections per origin): a two-combination
 * comparison, a reload, both runs found in the history, the files downloaded and read back.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Download, Page } from 'playwright-core';
import { readFile } from 'node:fs/promises';
import { HistogramLogReader } from 'hdr-histogram-js';
import { importRuns } from '../../core/history/kept-run.ts';
import { parseRunResult } from '../../core/result/result.ts';
import { chooseMode, openAdvanced } from '../support/dashboard-form.ts';
import { launchChromium, type LaunchedBrowser } from '../support/browser.ts';

let browser: LaunchedBrowser;
let page: Page;
const consoleErrors: string[] = [];
// 10 connections x 3 s / 250 ms.
const SENDS_PER_RUN = 120;

beforeAll(async () => {
  browser = await launchChromium();
  page = await browser.context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  await page.goto(inject('hubHttpsUrl'));
});

afterAll(async () => {
  await browser?.close();
});

async function downloaded(testId: string): Promise<{ download: Download; text: string }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).first().click()]);
  return { download, text: await readFile((await download.path())!, 'utf8') };
}

async function setLoad(durationSec: string) {
  await page.selectOption('select[name=scenario]', 'echo');
  await page.fill('input[name=connections]', '10');
  await openAdvanced(page);
  await page.fill('input[name=workers]', '2');
  await page.fill('input[name=sendIntervalMs]', '250');
  await page.fill('input[name=durationSec]', durationSec);
}

const historyRows = () => page.getByTestId('history-row');

/**
 * The two-combination comparison several tests look at, run once on the Live page by whichever
 * test needs it first: each test sets up what it needs, in any order, alone or with the others.
 */
let comparisonDone: Promise<void> | null = null;
function comparison(): Promise<void> {
  return (comparisonDone ??= (async () => {
    await page.getByTestId('nav-run').click();
    await setLoad('3');
    await chooseMode(page, 'compare');
    for (const key of ['WebSockets:json', 'WebSockets:messagepack', 'ServerSentEvents:json', 'LongPolling:json', 'LongPolling:messagepack']) {
      await page.getByTestId(`compare-${key}`).setChecked(key === 'WebSockets:json' || key === 'LongPolling:messagepack');
    }
    await page.fill('input[name=comparePauseSec]', '1');
    await page.getByTestId('compare-start').click();
    // The run bar says which combination runs while the form is folded.
    await page.waitForSelector('[data-testid=run-bar-step]:has-text("Comparison 1 of 2")', { timeout: 30_000 });
    // The live charts under it say whose they are.
    await page.waitForSelector('[data-testid=live-charts-of]:has-text("Charts of WebSockets + JSON, running (1 of 2)")', { timeout: 30_000 });
    await page.waitForSelector('[data-testid=compare-view][data-runs="2"]', { timeout: 90_000 });
    await page.waitForSelector('[data-testid=run-bar-step]', { state: 'detached', timeout: 30_000 });
  })());
}

describe('comparison, history and reports', () => {
  it('refuses Server-Sent Events with MessagePack beside the combination, with the reason', async () => {
    await chooseMode(page, 'compare');
    const refused = page.getByTestId('compare-refused-ServerSentEvents:messagepack');
    expect(await refused.textContent()).toMatch(/Server-Sent Events carry text only/);
    expect(await page.getByTestId('compare-limit-WebSockets').textContent()).toMatch(/within the browser's limits/);
  });

  it('says why a comparison of one combination cannot start', async () => {
    await setLoad('3');
    await chooseMode(page, 'compare');
    for (const key of ['WebSockets:json', 'WebSockets:messagepack', 'ServerSentEvents:json', 'LongPolling:json', 'LongPolling:messagepack']) {
      await page.getByTestId(`compare-${key}`).setChecked(key === 'WebSockets:json');
    }
    await page.getByTestId('compare-start').click();
    expect(await page.getByTestId('compare-problem').textContent()).toMatch(/at least two combinations that can run; only one is chosen/);
  });

  it('runs WebSockets + JSON and Long Polling + MessagePack in turn and shows them side by side', async () => {
    await comparison();
    const rows = await page.getByTestId('compare-row').allTextContents();
    expect(rows).toHaveLength(2);
    expect(rows[0]).toContain('WebSockets + JSON');
    expect(rows[1]).toContain('Long Polling + MessagePack');
    // Every message of both runs arrived.
    const delivered = await page.locator('[data-testid=compare-row] td[data-column=delivered]').allTextContents();
    expect(delivered).toEqual(['100.00%', '100.00%']);
    expect(await page.getByTestId('chart-percentiles').getAttribute('data-lines')).toBe('2');
    expect(Number(await page.getByTestId('compare-chart-p99').getAttribute('data-points'))).toBeGreaterThanOrEqual(4);
    expect(await page.getByTestId('compare-chart-rate').textContent()).toContain('Long Polling + MessagePack');
    // Both delivered everything, so p99 would decide; 120 messages a run are too few to rank by it.
    expect(await page.getByTestId('compare-verdict').textContent()).toMatch(/^Too few messages to rank: WebSockets \+ JSON received 120, Long Polling \+ MessagePack received 120; a run's p99 needs 500 messages to have 5 slower than it\. Run at least 15 s at this load\.$/);
    expect(await page.getByTestId('compare-evidence').locator('li').allTextContents()).toEqual([
      expect.stringMatching(/^WebSockets \+ JSON: p99 [\d.]+ m?s, 95%: [\d.]+ m?s–[\d.]+ m?s from 1,000 draws of its \d seconds; 120 messages, 1 slower than p99 \(too few to rank: 500 needed\)\.$/),
      expect.stringMatching(/^Long Polling \+ MessagePack: p99 /),
    ]);
    // One clock: both time charts on the send clock, over the same x range, with one cursor.
    const ranges = await page.locator('[data-testid=compare-chart-p99], [data-testid=compare-chart-rate]').evaluateAll((charts) => charts.map((c) => `${c.getAttribute('data-x-min')}..${c.getAttribute('data-x-max')}`));
    expect(ranges[0]).toMatch(/^-?\d+(\.\d+)?\.\.\d+(\.\d+)?$/);
    expect(ranges[1]).toBe(ranges[0]);
    const p99Plot = page.locator('[data-testid=compare-chart-p99] .u-over');
    await p99Plot.scrollIntoViewIfNeeded();
    const box = (await p99Plot.boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2);
    const when = (id: string) => page.locator(`[data-testid=${id}-legend] .when`).textContent();
    await expect.poll(() => when('compare-chart-p99')).toMatch(/^at -?\d+(\.\d)? s$/);
    expect(await when('compare-chart-rate')).toBe(await when('compare-chart-p99'));
    await page.mouse.move(0, 0);
    // One combination's own charts under the comparison, named, the last one first; the picker shows
    // another. The page's live charts, the last combination's unnamed, are gone.
    expect(await page.getByTestId('chart-latency').count()).toBe(0);
    expect(await page.getByTestId('live-charts-of').count()).toBe(0);
    expect(await page.getByTestId('compare-run-name').textContent()).toBe('Charts of Long Polling + MessagePack');
    await page.getByTestId('compare-run-pick').selectOption({ label: 'WebSockets + JSON' });
    expect(await page.getByTestId('compare-run-name').textContent()).toBe('Charts of WebSockets + JSON');
    expect(Number(await page.getByTestId('compare-run-chart-latency').getAttribute('data-points'))).toBeGreaterThanOrEqual(3);
    // Which side set each run's limit, in the summary's words, one line per run: the hub's
    // metrics were read, so each names the server's CPU.
    const sides = page.getByTestId('compare-limits').locator('li');
    expect(await sides.allTextContents()).toEqual([
      expect.stringMatching(/^WebSockets \+ JSON: .*\b\d+% CPU\b/),
      expect.stringMatching(/^Long Polling \+ MessagePack: .*\b\d+% CPU\b/),
    ]);
    // Light runs on both sides: neither is near its limit over the sending seconds.
    expect(await sides.evaluateAll((items) => items.map((li) => li.getAttribute('data-limit')))).toEqual(['neither', 'neither']);
    // The link carries the comparison's combinations.
    expect(new URL(page.url()).searchParams.get('compare')).toBe('WebSockets:json,LongPolling:messagepack');
  });

  it('downloads the charts as PNG images', async () => {
    await comparison();
    await page.getByTestId('nav-run').click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('chart-percentiles-png').click()]);
    const bytes = await readFile((await download.path())!);
    expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(download.suggestedFilename()).toBe('WebSockets-JSON-vs-Long-Polling-MessagePack-latency-percentiles.png');
    const [perSecond] = await Promise.all([page.waitForEvent('download'), page.getByTestId('compare-run-chart-latency-png').click()]);
    // The run's name, then the chart's.
    expect(perSecond.suggestedFilename()).toMatch(/^Echo-.*-Latency-per-second\.png$/);
    expect([...(await readFile((await perSecond.path())!)).subarray(1, 4)]).toEqual([0x50, 0x4e, 0x47]);
  });

  it("presents the comparison full screen, its verdict the page's sentence, light and dark", async () => {
    await comparison();
    await page.getByTestId('nav-run').click();
    const sentence = await page.getByTestId('compare-verdict').textContent();
    await page.getByTestId('nav-present').click();
    const present = page.getByTestId('presentation');
    await present.waitFor();
    // After a comparison the slide is the comparison (src/components/present/CompareSlide.svelte).
    expect(await page.getByTestId('present-compare-verdict').textContent()).toBe(sentence);
    const before = await present.getAttribute('data-theme');
    await page.getByTestId('presentation-theme').click();
    expect(await present.getAttribute('data-theme')).not.toBe(before);
    await page.getByTestId('presentation-close').click();
    await present.waitFor({ state: 'detached' });
  });

  it('finds both runs in the history after a reload, and downloads the comparison as JSON and as an HTML report', async () => {
    await comparison();
    await page.reload();
    await page.getByTestId('nav-history').click();
    await expect.poll(() => historyRows().count()).toBeGreaterThanOrEqual(2);
    const ws = historyRows().filter({ hasText: 'WebSockets + JSON' }).first();
    const lp = historyRows().filter({ hasText: 'Long Polling + MessagePack' }).first();
    expect(await ws.getAttribute('data-status')).toBe('finished');
    expect(await lp.getAttribute('data-status')).toBe('finished');
    expect(await ws.getAttribute('data-comparison')).toBe(await lp.getAttribute('data-comparison'));
    // One click picks every run of the comparison.
    await ws.getByTestId('history-select-comparison').click();
    expect(await lp.getByTestId('history-select').isChecked()).toBe(true);
    await page.getByTestId('history-compare').click();
    await page.waitForSelector('[data-testid=compare-view][data-runs="2"]');

    const json = await downloaded('kept-export-json');
    const runs = importRuns(json.text, new Date());
    expect(runs.map((r) => r.result.config.transport).sort()).toEqual(['LongPolling', 'WebSockets']);
    for (const run of runs) {
      expect(run.status).toBe('finished');
      expect(run.result.totals).toMatchObject({ sent: SENDS_PER_RUN, received: SENDS_PER_RUN });
      expect(run.result.fates.planned).toBe(SENDS_PER_RUN);
      expect(run.result.histograms.length).toBeGreaterThan(0);
      expect(run.result.client).toContain('Chrome');
      expect(run.signalrClientVersion).toBe('10.0.11');
      expect(run.result.verdict.status).toBe('pass');
    }

    // The series of both runs in one CSV, and both runs' histograms in one log, a tag per run.
    const csv = (await downloaded('kept-export-csv')).text.trim().split('\n');
    expect(csv[0]).toMatch(/^run,second,/);
    expect(new Set(csv.slice(1).map((line) => line.split(',')[0]))).toEqual(new Set(['WebSockets + JSON', 'Long Polling + MessagePack']));
    const reader = new HistogramLogReader((await downloaded('kept-export-hlog')).text);
    const perTag = new Map<string, number>();
    for (let h = reader.nextIntervalHistogram(); h !== null; h = reader.nextIntervalHistogram()) perTag.set(h.tag!, (perTag.get(h.tag!) ?? 0) + h.totalCount);
    expect(Object.fromEntries(perTag)).toEqual({ 'WebSockets_+_JSON': SENDS_PER_RUN, 'Long_Polling_+_MessagePack': SENDS_PER_RUN });

    const html = await downloaded('kept-export-html');
    expect(html.download.suggestedFilename()).toMatch(/\.html$/);
    expect(html.text).toContain('Side by side');
    expect(html.text).toContain('WebSockets + JSON');
    expect(html.text).toContain('Long Polling + MessagePack');
    expect(html.text).toMatch(/Pass: (100\.00|99\.\d\d)% of [\d,]+ planned receptions arrived in under 1 s/);
    expect(html.text).not.toMatch(/<script|<link /i);
    // The report opens on its own, offline: load it in a page with no server behind it.
    const offline = await browser.context.newPage();
    await offline.setContent(html.text);
    expect(await offline.locator('svg').count()).toBeGreaterThanOrEqual(3);
    expect(await offline.locator('table.compare tr').count()).toBe(3);
    await offline.close();
  });

  it('opens a kept run, renames it (kept across reloads) and downloads it as JSON that reads back', async () => {
    await comparison();
    await page.getByTestId('nav-history').click();
    const row = historyRows().filter({ hasText: 'Long Polling + MessagePack' }).first();
    const id = await row.getAttribute('data-run-id');
    await row.getByTestId('history-open').click();
    await page.waitForSelector(`[data-testid=run-detail][data-run-id="${id}"]`);
    const { text } = await downloaded('kept-export-json');
    const doc = parseRunResult(text);
    expect(doc.config).toMatchObject({ transport: 'LongPolling', protocol: 'messagepack', connections: 10 });
    await row.getByTestId('history-rename').click();
    await page.getByTestId('history-rename-input').fill('LP msgpack baseline');
    await page.getByTestId('history-rename-save').click();
    await expect.poll(() => row.getByTestId('history-name').textContent()).toBe('LP msgpack baseline');
    await page.reload();
    await page.getByTestId('nav-history').click();
    await expect.poll(() => page.locator(`[data-testid=history-row][data-run-id="${id}"] [data-testid=history-name]`).textContent()).toBe('LP msgpack baseline');
  });

  it('imports a file, and explains a bad one', async () => {
    await comparison();
    await page.getByTestId('nav-history').click();
    await page.getByTestId('history-import').setInputFiles({ name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from('{"hello": "world"}') });
    expect(await page.getByTestId('history-problem').textContent()).toMatch(/notes\.json could not be imported: This JSON is not a SignalR Live Bench run/);
    const before = await historyRows().count();
    // The headless runner's kind of file: a run document without the history's fields.
    await historyRows().first().getByTestId('history-open').click();
    const run = { ...parseRunResult((await downloaded('kept-export-json')).text), startedAt: '2020-01-01T00:00:00.000Z', kept: undefined };
    await page.getByTestId('history-import').setInputFiles({ name: 'runner.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(run)) });
    expect(await page.getByTestId('history-notice').textContent()).toMatch(/Imported ".*" from runner\.json/);
    await expect.poll(() => historyRows().count()).toBe(before + 1);
    // A file of a run kept here already (the history's own export, with its id) changes nothing, and says so.
    const keptFile = (await downloaded('kept-export-json')).text;
    await page.getByTestId('history-import').setInputFiles({ name: 'kept.json', mimeType: 'application/json', buffer: Buffer.from(keptFile) });
    expect(await page.getByTestId('history-notice').textContent()).toMatch(/^Nothing imported: ".*" from kept\.json is already kept here; left as it is\.$/);
    expect(await historyRows().count()).toBe(before + 1);
  });

  it('keeps a run cut off by a reload as interrupted at once, with the seconds it had', async () => {
    await page.getByTestId('nav-run').click();
    await setLoad('60');
    await chooseMode(page, 'single');
    await page.selectOption('select[name=transport]', 'WebSockets');
    await page.selectOption('select[name=protocol]', 'json');
    await page.click('button[type=submit]');
    await expect.poll(async () => Number(await page.getByTestId('chart-latency').getAttribute('data-points')), { timeout: 30_000 }).toBeGreaterThanOrEqual(3);
    await page.reload();
    await page.getByTestId('nav-history').click();
    const interrupted = page.locator('[data-testid=history-row][data-status=interrupted]');
    // The reloaded page held the run's Web Lock, released as it went: the history knows at once,
    // without waiting for the record to go stale (5 s) and without reloading the list.
    await expect.poll(() => interrupted.count(), { timeout: 2_000, interval: 100 }).toBe(1);
    expect(await page.locator('[data-testid=history-row][data-status=running]').count()).toBe(0);
    expect(await interrupted.getByTestId('history-verdict').textContent()).toBe('no verdict');
    await interrupted.getByTestId('history-open').click();
    expect(await page.getByTestId('run-interrupted').textContent()).toMatch(/Interrupted/);
    expect(Number(await page.getByTestId('kept-chart-latency').getAttribute('data-points'))).toBeGreaterThanOrEqual(2);
    await interrupted.getByTestId('history-delete').click();
    await interrupted.getByTestId('history-delete').click();
    await expect.poll(() => interrupted.count()).toBe(0);
  });

  it('logged no errors in the page console', () => {
    expect(consoleErrors).toEqual([]);
  });
});
