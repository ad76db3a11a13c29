/**
 * The dashboard in real Chromium, served by the real hub-sample over HTTPS (HTTP/2, so long
 * polling is not held to 6 connections per origin), running short echo runs from its workers.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { readFile } from 'node:fs/promises';
import { HistogramLogReader } from 'hdr-histogram-js';
import { parseRunResult } from '../../core/result/result.ts';
import { launchChromium, type LaunchedBrowser } from '../support/browser.ts';
import { openAdvanced } from '../support/dashboard-form.ts';

let browser: LaunchedBrowser;
let page: Page;
const consoleErrors: string[] = [];

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

async function runEcho(transport: string, protocol: string, scenario = 'echo') {
  await page.selectOption('select[name=scenario]', scenario);
  await page.selectOption('select[name=transport]', transport);
  await page.selectOption('select[name=protocol]', protocol);
  await page.fill('input[name=connections]', '20');
  await openAdvanced(page);
  await page.fill('input[name=workers]', '2');
  await page.fill('input[name=sendIntervalMs]', '250');
  await page.fill('input[name=durationSec]', '4');
  await page.click('button[type=submit]');
  await page.waitForSelector('[data-testid=summary][data-phase=done]', { timeout: 60_000 });
  const summary = page.getByTestId('summary');
  return {
    received: Number(await summary.getAttribute('data-received')),
    planned: Number(await summary.getAttribute('data-planned')),
    outcome: await summary.getAttribute('data-outcome'),
    verdict: await summary.getAttribute('data-verdict'),
    lost: await summary.getAttribute('data-lost'),
    sent: Number(await summary.getAttribute('data-sent')),
    errors: Number(await summary.getAttribute('data-errors')),
    line: await page.getByTestId('summary-line').textContent(),
    latencyPoints: Number(await page.getByTestId('chart-latency').getAttribute('data-points')),
    ratePoints: Number(await page.getByTestId('chart-rate').getAttribute('data-points')),
    connectionPoints: Number(await page.getByTestId('chart-connections').getAttribute('data-points')),
    errorText: (await page.getByTestId('error-samples').count()) > 0 ? await page.getByTestId('error-samples').textContent() : '',
  };
}

/** The small-groups run several tests look at, run once by whichever test needs it first. */
let smallGroups: ReturnType<typeof runEcho> | null = null;
function smallGroupRun(): ReturnType<typeof runEcho> {
  return (smallGroups ??= runEcho('WebSockets', 'json', 'smallGroup'));
}

describe('dashboard', () => {
  it('is cross-origin isolated, for 5 us timestamps', async () => {
    expect(await page.evaluate(() => globalThis.crossOriginIsolated)).toBe(true);
    await expect.poll(() => page.getByTestId('timing').textContent()).toContain('Cross-origin isolated');
  });

  it('defaults the endpoint to the hub that serves it', async () => {
    expect(await page.inputValue('input[name=endpointUrl]')).toBe(`${inject('hubHttpsUrl')}/signalrbench`);
  });

  for (const [transport, protocol] of [['WebSockets', 'messagepack'], ['LongPolling', 'json']] as const) {
    it(`runs echo with 20 connections over ${transport} + ${protocol}: charts get points, every message is received, no errors`, async () => {
      const result = await runEcho(transport, protocol);
      expect(result.errorText).toBe('');
      expect(result.errors).toBe(0);
      // 20 connections x 4 s / 250 ms.
      expect(result.sent).toBe(320);
      expect(result.received).toBe(320);
      expect(result.line).toContain('received 320');
      expect(result.latencyPoints).toBeGreaterThanOrEqual(4);
      expect(result.ratePoints).toBe(result.latencyPoints);
      expect(result.connectionPoints).toBe(result.latencyPoints);
    });
  }

  it('runs small groups from the dashboard: 2 groups of 10, every member receives every send of its group', async () => {
    const result = await smallGroupRun();
    expect(result.errorText).toBe('');
    expect(result.sent).toBe(320);
    expect(result.planned).toBe(3_200);
    expect(result.received).toBe(3_200);
    expect(result.lost).toBe('0');
    expect(result.outcome).toBe('finished');
    expect(result.verdict).toBe('pass');
  });

  it('shows the run against the guide\'s tiers: the smallest fitting tier, ratios, the verdict', async () => {
    await smallGroupRun();
    const panel = page.getByTestId('tier-panel');
    const text = (await panel.textContent())?.replace(/\s+/g, ' ') ?? '';
    // 20 connections of small groups fit the smallest tier of the current edition.
    expect(await page.getByTestId('tier-select').inputValue()).toBe('Unit1');
    expect(text).toMatch(/msg\/s out of Unit1's/);
    expect(await page.getByTestId('tier-verdict').textContent()).toMatch(/Pass: (100\.00|99\.\d\d)% of 3,200 planned receptions arrived in under 1 s/);
  });

  it('plans a mixed workload on the tier finder page', async () => {
    await page.getByTestId('nav-finder').click();
    await expect.poll(async () => (await page.getByTestId('finder-result').textContent()) ?? '').toMatch(/Unit\d+/);
    await page.getByTestId('nav-run').click();
  });

  it('exports the finished run as JSON that reads back, and its series as CSV', async () => {
    await smallGroupRun();
    const [jsonDownload] = await Promise.all([page.waitForEvent('download'), page.getByTestId('kept-export-json').click()]);
    const text = await readFile((await jsonDownload.path())!, 'utf8');
    const result = parseRunResult(text);
    // One export path: the live run's file is the kept run's, history fields included.
    expect(JSON.parse(text).kept).toMatchObject({ status: 'finished', name: expect.stringContaining('Send to small groups') });
    expect(result.config.scenario).toBe('smallGroup');
    expect(result.totals).toMatchObject({ sent: 320, received: 3_200 });
    expect(result.fates).toMatchObject({ planned: 3_200, lost: 0 });
    expect(result.outcome.kind).toBe('finished');
    expect(result.client).toContain('Chrome');
    const [csvDownload] = await Promise.all([page.waitForEvent('download'), page.getByTestId('kept-export-csv').click()]);
    const csv = (await readFile((await csvDownload.path())!, 'utf8')).trim().split('\n');
    expect(csv[0]).toMatch(/^second,sent_per_s,received_per_s,/);
    expect(csv.length - 1).toBe(result.points.length);
    const [logDownload] = await Promise.all([page.waitForEvent('download'), page.getByTestId('kept-export-hlog').click()]);
    const log = await readFile((await logDownload.path())!, 'utf8');
    expect(log).toMatch(/#\[StartTime: /);
    // One interval line per second that received messages; their counts add up to the run's.
    const reader = new HistogramLogReader(log);
    let total = 0;
    for (let h = reader.nextIntervalHistogram(); h !== null; h = reader.nextIntervalHistogram()) total += h.totalCount;
    expect(total).toBe(3_200);
  });

  it('puts the setup in the URL, and a link opens the form with it', async () => {
    const url = new URL(page.url());
    expect(url.searchParams.get('scenario')).toBe('smallGroup');
    expect(url.searchParams.get('sendIntervalMs')).toBe('250');
    // Defaults (20 connections) stay out of the link.
    expect(url.searchParams.has('connections')).toBe(false);
    const second = await browser.context.newPage();
    await second.goto(url.toString());
    expect(await second.inputValue('select[name=scenario]')).toBe('smallGroup');
    expect(await second.inputValue('input[name=durationSec]')).toBe('4');
    await second.close();
  });

  it('lists every bad field at once and keeps what was typed', async () => {
    await page.fill('input[name=connections]', '-3');
    await page.fill('input[name=messageBytes]', '2.5');
    await page.click('button[type=submit]');
    const errors = await page.getByTestId('config-errors').textContent();
    expect(errors).toContain('Connections must be a whole number from 1 to 1,000,000, but is "-3"');
    expect(errors).toContain('Message size must be a whole number from 64 to 262,144 B, but is "2.5"');
    expect(await page.inputValue('input[name=connections]')).toBe('-3');
  });

  it('logged no errors in the page console', () => {
    expect(consoleErrors).toEqual([]);
  });
});
