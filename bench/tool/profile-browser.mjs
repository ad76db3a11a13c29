// CPU profiles of the tab and of raw WebSockets in the same browser at one fixed load, for
// finding where the tab's worker CPU goes (lib/cdp-profile.mjs; summarise with
// bench/tool/profile-summary.mjs). Not a benchmark: the profiler's sampling costs CPU.
// Usage: BENCH_PORT_BASE=5320 node bench/tool/profile-browser.mjs [intervalMs=250] [clients=tab,browserRaw] [durationSec=16]
// Needs the builds of bench:tool (`npm run build:bench`: dist/ with the benchmark hook and dist-bench/; the hub). Profiles go to BENCH_CPU_PROFILE_DIR
// (default a temporary folder), from 8 s after the page loads for 6 s (BENCH_CPU_PROFILE_FROM_SEC/SEC).
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
process.env.BENCH_CPU_PROFILE_DIR ??= mkdtempSync(path.join(os.tmpdir(), 'tool-profile-'));
const portBase = Number(process.env.BENCH_PORT_BASE ?? 5310);
process.env.BENCH_CDP_PORT ??= String(portBase + 3);
const { startHub } = await import('../../scripts/hub.mjs');
const { startCollector } = await import('./lib/collector.mjs');
const { runBrowserRaw, runNodeClient, runTab } = await import('./lib/runs.mjs');
const { describe } = await import('./benches/throughput.mjs');

const intervalMs = Number(process.argv[2] ?? 250);
const clients = (process.argv[3] ?? 'tab,browserRaw').split(',');
const durationSec = Number(process.argv[4] ?? 16);
const ports = { http: portBase, https: portBase + 1, collector: portBase + 2 };
const ctx = { root, log: console.error };
ctx.hub = await startHub({ port: ports.http, httpsPort: ports.https, extraArgs: ['--CorsOrigins', `http://127.0.0.1:${ports.collector}`] });
ctx.collector = await startCollector(ports.collector);
try {
  const dir = process.env.BENCH_CPU_PROFILE_DIR;
  delete process.env.BENCH_CPU_PROFILE_DIR;
  await runNodeClient(ctx, 'raw', { connections: 255, intervalMs: 100, durationSec: 4 });
  process.env.BENCH_CPU_PROFILE_DIR = dir;
  const load = { connections: 255, intervalMs, durationSec, warmupSec: 2 };
  for (const client of clients) {
    // tab@<name>: the dashboard built into dist/<name>/ (see benches/throughput.mjs BENCH_TAB_PAGES).
    const r = client.startsWith('tab') ? await runTab(ctx, load, { page: client.includes('@') ? `${client.split('@')[1]}/` : '' })
      : await runBrowserRaw(ctx, load, { library: client === 'browserLibrary' });
    const parts = Object.entries(r.cpuSec).filter(([k]) => k !== 'total').map(([k, v]) => `${k} ${(v / r.measuredSec).toFixed(2)}`).join(', ');
    console.log(`${client} ${r.targetPerSec}/s: ${describe(r)}; cores: ${parts}`);
  }
  console.log(`profiles in ${dir}`);
} finally {
  await ctx.collector.close();
  await ctx.hub.stop();
}
