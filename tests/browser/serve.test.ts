/**
 * `live-bench serve` in Chromium: the page it serves is cross-origin isolated (5 µs clock), names
 * its versions, and runs a short benchmark against a hub on another origin that allows it. Served
 * by the checkout's bin/live-bench.js: the installed package's `serve` is the same code and files,
 * and tests/integration/package.test.ts checks it answers with the same headers; installing the
 * package a second time here would cost half a minute for nothing more.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pkg from '../../package.json';
import { launchChromium, type LaunchedBrowser } from '../support/browser.ts';
import { openAdvanced } from '../support/dashboard-form.ts';
import { REPO_ROOT, startHub, type RunningHub } from '../support/hub-process.ts';
import { freshBuilds } from '../support/package-build.ts';

let served: ChildProcess;
let pageUrl: string;
let hub: RunningHub;
let browser: LaunchedBrowser;
let page: Page;

beforeAll(async () => {
  await freshBuilds();
  served = spawn(process.execPath, [path.join(REPO_ROOT, 'bin/live-bench.js'), 'serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  pageUrl = await new Promise<string>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`live-bench serve printed no address within 15 s:\n${output}`)), 15_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = output.match(/the dashboard is at (http:\S+?),? /);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    served.stdout!.on('data', onData);
    served.stderr!.on('data', onData);
    served.once('exit', (code) => reject(new Error(`live-bench serve exited with code ${code}:\n${output}`)));
  });
  // Another origin: the hub allows the served page's, as a user starts it with --CorsOrigins.
  hub = await startHub({ extraArgs: ['--CorsOrigins', new URL(pageUrl).origin] });
  browser = await launchChromium();
  page = await browser.context.newPage();
  await page.goto(pageUrl);
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await hub?.stop();
  if (served && served.exitCode === null) {
    const exited = new Promise((resolve) => served.once('exit', resolve));
    served.kill('SIGTERM');
    await exited;
  }
});

describe('the dashboard served by live-bench serve', () => {
  it('is cross-origin isolated and names its versions', async () => {
    expect(await page.evaluate(() => globalThis.crossOriginIsolated)).toBe(true);
    expect(await page.getByTestId('timing').textContent()).toContain('timestamps to 5 µs');
    expect(await page.getByTestId('versions').textContent()).toBe(`SignalR Live Bench ${pkg.version} · @microsoft/signalr ${pkg.dependencies['@microsoft/signalr']}`);
    // The footer reads as the rest of the page does: no serious or critical axe-core finding on it.
    const axe = await new AxeBuilder({ page }).include('[data-testid=versions]').analyze();
    expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
  });

  it('runs a short benchmark against the hub typed into it, and its CSV names the versions', async () => {
    await page.fill('input[name=endpointUrl]', `${hub.httpUrl}/signalrbench`);
    await page.fill('input[name=connections]', '4');
    await openAdvanced(page);
    await page.fill('input[name=workers]', '1');
    await page.fill('input[name=sendIntervalMs]', '250');
    await page.fill('input[name=durationSec]', '2');
    await page.click('button[type=submit]');
    await page.waitForSelector('[data-testid=summary][data-phase=done]', { timeout: 60_000 });
    const summary = page.getByTestId('summary');
    expect(await summary.getAttribute('data-outcome')).toBe('finished');
    expect(await summary.getAttribute('data-verdict')).toBe('pass');
    expect(Number(await summary.getAttribute('data-planned'))).toBeGreaterThan(0);
    expect(await summary.getAttribute('data-lost')).toBe('0');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('kept-export-csv').click()]);
    const csv = (await readFile((await download.path())!, 'utf8')).trim().split('\n');
    expect(csv[0]).toMatch(/,tool_version,signalr_client_version$/);
    expect(csv[1]).toMatch(new RegExp(`,${pkg.version.replace(/\./g, '\\.')},${pkg.dependencies['@microsoft/signalr'].replace(/\./g, '\\.')}$`));
  });
});
