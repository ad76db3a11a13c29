// Soak: a steady run for SOAK_MINUTES (default 30) in a real browser and in the headless runner
// at once, against one local hub-sample, sampling memory every 30 s:
// - browser: the renderer process's resident memory (the page and its Web Workers live there)
//   and the page's JS heap (DevTools Performance.getMetrics);
// - headless: the runner process's resident memory (main thread and worker threads).
// Writes the samples to bench/soak-samples.csv and a summary row to bench/RESULTS.md.
// Usage: node bench/soak.mjs   (after `npm run build`; Chromium at /usr/bin/chromium or CHROMIUM_PATH)
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { startHub } from '../scripts/hub.mjs';
import { addResultRow } from './results-table.mjs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const minutes = Number(process.env.SOAK_MINUTES ?? 30);
const connections = 100;
const sampleEveryMs = 30_000;
const port = 5198;
const endpoint = `http://127.0.0.1:${port}/signalrbench`;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** Resident memory of a process in KB; NaN once it has exited (the runner may finish first). */
function rssKb(pid) {
  try {
    return Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)]).toString().trim());
  } catch {
    return NaN;
  }
}

const hub = await startHub({ port });
try {
  const durationSec = minutes * 60;
  const runner = spawn(process.execPath, ['bin/live-bench.js', '--endpoint', endpoint, '--connections', String(connections), '--workers', '2',
    '--interval-ms', '1000', '--duration', String(durationSec), '--quiet', '--json', path.join(os.tmpdir(), 'soak-headless.json')], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  const runnerExited = new Promise((resolve) => runner.on('exit', resolve));
  let runnerOut = '';
  runner.stdout.on('data', (chunk) => (runnerOut += chunk));

  const context = await chromium.launchPersistentContext(mkdtempSync(path.join(os.tmpdir(), 'soak-profile-')), {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const page = await context.newPage();
  await page.goto(`http://127.0.0.1:${port}/`);
  await page.fill('input[name=connections]', String(connections));
  await page.fill('input[name=durationSec]', String(durationSec));
  await page.click('button[type=submit]');
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  const rendererPid = () => Number(execFileSync('pgrep', ['-n', '-f', 'chromium.*--type=renderer']).toString().trim());

  const samples = ['minute,renderer_rss_mb,page_js_heap_mb,runner_rss_mb'];
  const started = Date.now();
  while (Date.now() - started < durationSec * 1_000) {
    await sleep(sampleEveryMs);
    const { metrics } = await cdp.send('Performance.getMetrics');
    const heap = metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0;
    const row = [((Date.now() - started) / 60_000).toFixed(1), (rssKb(rendererPid()) / 1024).toFixed(1), (heap / 2 ** 20).toFixed(1), (rssKb(runner.pid) / 1024).toFixed(1)];
    samples.push(row.join(','));
    console.error(`soak ${row[0]} min: renderer ${row[1]} MB, page heap ${row[2]} MB, runner ${row[3]} MB`);
  }
  await page.waitForSelector('[data-testid=summary][data-phase=done]', { timeout: 120_000 });
  const browserSummary = (await page.getByTestId('summary-line').textContent())?.replace(/\s+/g, ' ').trim();
  await context.close();
  await runnerExited;
  writeFileSync(path.join(root, 'bench/soak-samples.csv'), samples.join('\n') + '\n');

  // Growth: the last third's mean against the second third's (the first third includes the ramp).
  const rows = samples.slice(1).map((line) => line.split(',').map(Number));
  const third = Math.max(1, Math.floor(rows.length / 3));
  const mean = (slice, column) => slice.reduce((sum, r) => sum + r[column], 0) / slice.length;
  const growth = (column) => (mean(rows.slice(-third), column) - mean(rows.slice(third, 2 * third), column)).toFixed(1);
  const line = `| ${new Date().toISOString().slice(0, 10)} | ${minutes} | ${connections} + ${connections} | ${rows.at(0)?.[1]} → ${rows.at(-1)?.[1]} (${growth(1)}) | ${rows.at(0)?.[2]} → ${rows.at(-1)?.[2]} (${growth(2)}) | ${rows.at(0)?.[3]} → ${rows.at(-1)?.[3]} (${growth(3)}) | ${browserSummary} | ${runnerOut.split('\n').find((l) => l.startsWith('Messages:'))} | \`node bench/soak.mjs\` |`;
  addResultRow('Soak: memory over a steady run', line);
  console.log(line);
} finally {
  await hub.stop();
}
