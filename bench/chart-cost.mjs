// Drawing the live charts: what one new second costs the page's main thread as a run grows, the
// way the charts drew before (every column remapped, every point drawn) and now (columns
// extended, a long run drawn min/max-decimated: core/charts/columns.ts, core/charts/decimate.ts).
// Five uPlot charts like the dashboard's (16 lines, 440 px) in Chromium launched directly; the
// renderer's main-thread CPU from /proc over 30 s per case, after 5 s to settle.
// Usage: node bench/chart-cost.mjs [mode:seconds ...]   (default: full and decimated at 60, 600, 1800, 3600)
//        CHART_COST_PORT (default 5348) serves the page; CHART_COST_SECONDS (default 30) per case.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromiumCpu, launchChromium } from './tool/lib/chromium.mjs';
import { CpuSampler } from './tool/lib/cpu.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const port = Number(process.env.CHART_COST_PORT ?? 5348);
const measureSec = Number(process.env.CHART_COST_SECONDS ?? 30);
const cases = (process.argv.length > 2 ? process.argv.slice(2) : ['full:60', 'decimated:60', 'full:600', 'decimated:600', 'full:1800', 'decimated:1800', 'full:3600', 'decimated:3600'])
  .map((c) => ({ mode: c.split(':')[0], seconds: Number(c.split(':')[1]) }));

const dir = mkdtempSync(path.join(os.tmpdir(), 'chart-cost-'));
execFileSync('npx', ['rolldown', path.join(root, 'bench/chart-cost/page.ts'), '--file', path.join(dir, 'page.js'), '--format', 'esm'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
const files = {
  '/': { type: 'text/html', body: '<!doctype html><link rel="stylesheet" href="uPlot.min.css"><script type="module" src="page.js"></script>' },
  '/page.js': { type: 'text/javascript', body: readFileSync(path.join(dir, 'page.js')) },
  '/uPlot.min.css': { type: 'text/css', body: readFileSync(path.join(root, 'node_modules/uplot/dist/uPlot.min.css')) },
};
const server = http.createServer((req, res) => {
  const file = files[new URL(req.url, 'http://x').pathname];
  if (!file) return (res.statusCode = 404), res.end();
  res.setHeader('Content-Type', file.type);
  res.end(file.body);
});
await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
try {
  for (const c of cases) {
    const browser = launchChromium(`http://127.0.0.1:${port}/?mode=${c.mode}&n=${c.seconds}`);
    const cpu = new CpuSampler(chromiumCpu(browser));
    await new Promise((r) => setTimeout(r, 5_000));
    const fromMs = Date.now();
    await new Promise((r) => setTimeout(r, measureSec * 1_000));
    const toMs = Date.now();
    cpu.stop();
    const mainMsPerSec = (1_000 * cpu.between(fromMs, toMs).pageMain) / ((toMs - fromMs) / 1_000);
    console.log(`${c.mode.padEnd(9)} ${String(c.seconds).padStart(5)} s of run: main thread ${mainMsPerSec.toFixed(1)} ms per second (${(mainMsPerSec / 10).toFixed(2)}%)`);
    await browser.close();
  }
} finally {
  server.close();
}
