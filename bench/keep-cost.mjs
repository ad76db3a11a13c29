// Keeping a run: what one per-second write to IndexedDB costs the page as a run grows. The
// dashboard keeps a run as a head plus one row per second (src/lib/run-store.ts) and, once per
// closed second, writes the head and the new second in one transaction, awaited until it
// commits. This measures those same steps in real Chromium with 60 s, 10 min and 1 h of seconds
// already stored, and, for contrast, rewriting the whole run as one record each time.
// Writes a summary row to bench/RESULTS.md.
// Usage: node bench/keep-cost.mjs   (after `npm run build` and `npm run build:bench`; Chromium at /usr/bin/chromium or CHROMIUM_PATH)
import { startHub } from '../scripts/hub.mjs';
import { mkdtempSync, rmSync } from 'node:fs';
import { addResultRow } from './results-table.mjs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLatencyHistogram, encodeHistogram } from '../dist-bench/kit.js';
import { chromium } from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SECONDS = [60, 600, 3_600];
const WRITES_PER_SIZE = 20;
/** Messages per second in the synthetic run (200 connections echoing every 100 ms). */
const MESSAGES_PER_SECOND = 2_000;

// Distinct per-second histograms, built by the tool's own settings (core/latency/latency.ts, through the kit).
function secondHistogram(seed) {
  const h = createLatencyHistogram();
  let x = seed;
  for (let i = 0; i < MESSAGES_PER_SECOND; i++) {
    x = (x * 1_103_515_245 + 12_345) % 2 ** 31;
    // Log-normal-ish latencies around 1 ms with a tail to ~100 ms.
    h.recordValue(Math.max(1, Math.round(700 * Math.exp(((x / 2 ** 31) - 0.5) * 5))));
  }
  return encodeHistogram(h);
}
const histograms = Array.from({ length: 60 }, (_, i) => secondHistogram(i + 1));

const hub = await startHub();
const profile = mkdtempSync(path.join(os.tmpdir(), 'keep-cost-'));
let context;
try {
  const url = hub.httpUrl;
  context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const page = await context.newPage();
  await page.goto(url);
  const rows = await page.evaluate(async ({ seconds, histograms, writes, perSecond }) => {
    const open = indexedDB.open('keep-cost-bench', 1);
    open.onupgradeneeded = () => {
      open.result.createObjectStore('runs', { keyPath: 'id' });
      open.result.createObjectStore('seconds', { keyPath: ['runId', 'second'] });
      open.result.createObjectStore('whole', { keyPath: 'id' });
    };
    const db = await new Promise((resolve, reject) => { open.onsuccess = () => resolve(open.result); open.onerror = () => reject(open.error); });
    const commit = (tx) => new Promise((resolve, reject) => { tx.oncomplete = resolve; tx.onerror = () => reject(tx.error); });
    const latency = { count: perSecond, p50Us: 700, p90Us: 3_000, p99Us: 20_000, p999Us: 60_000, maxUs: 90_000, meanUs: 1_500 };
    const point = (s) => ({ second: s, latency, sent: perSecond, received: perSecond, fates: { planned: perSecond, underOneSecond: perSecond, late: 0, afterDrain: 0, notSent: { backedUp: 0, reconnecting: 0, writeFailed: 0, disconnected: 0 }, lost: 0 }, sentBytes: perSecond * 2_100, receivedBytes: perSecond * 2_100, connectionsOpen: 200, eventLoopLagMs: 1.2, maxSendLagMs: 3.4 });
    const row = (id, s) => ({ runId: id, second: s, point: point(s), histogram: histograms[s % histograms.length] });
    const summary = { count: perSecond * 10, p50Us: 700, p90Us: 3_000, p99Us: 20_000, p999Us: 60_000, maxUs: 90_000, meanUs: 1_500 };
    const head = (id, n) => ({
      id, name: 'bench', status: 'running', savedAt: new Date().toISOString(), toolVersion: 'bench', signalrClientVersion: 'bench', comparisonId: null, verdict: null, seconds: n,
      result: { format: 'signalr-live-bench/run', version: 1, startedAt: new Date().toISOString(), config: { scenario: 'echo', connections: 200 }, client: navigator.userAgent, latency: summary, uncorrectedLatency: summary, connectTimes: summary },
    });
    const median = (times) => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)];
    const results = [];
    for (const n of seconds) {
      const id = `run-${n}`;
      let tx = db.transaction('seconds', 'readwrite');
      for (let s = 1; s <= n; s++) tx.objectStore('seconds').put(row(id, s));
      await commit(tx);
      const incremental = [];
      for (let w = 1; w <= writes; w++) {
        const start = performance.now();
        tx = db.transaction(['runs', 'seconds'], 'readwrite');
        tx.objectStore('runs').put(head(id, n + w));
        tx.objectStore('seconds').put(row(id, n + w));
        await commit(tx);
        incremental.push(performance.now() - start);
      }
      const whole = { ...head(`whole-${n}`, n), result: { ...head('', n).result, points: Array.from({ length: n }, (_, s) => point(s + 1)), histograms: Array.from({ length: n }, (_, s) => ({ second: s + 1, latency: histograms[s % histograms.length] })) } };
      const wholeTimes = [];
      for (let w = 0; w < writes; w++) {
        const start = performance.now();
        tx = db.transaction('whole', 'readwrite');
        tx.objectStore('whole').put(whole);
        await commit(tx);
        wholeTimes.push(performance.now() - start);
      }
      results.push({ seconds: n, kb: Math.round(JSON.stringify(whole).length / 1_024), medianMs: median(incremental), maxMs: Math.max(...incremental), wholeMedianMs: median(wholeTimes) });
    }
    return results;
  }, { seconds: SECONDS, histograms, writes: WRITES_PER_SIZE, perSecond: MESSAGES_PER_SECOND });
  for (const r of rows) console.log(`${r.seconds} s stored (${r.kb} KB as one record): head + new second median ${r.medianMs.toFixed(1)} ms, max ${r.maxMs.toFixed(1)} ms; whole record rewritten median ${r.wholeMedianMs.toFixed(1)} ms`);
  const cells = rows.map((r) => `${r.medianMs.toFixed(1)} / ${r.maxMs.toFixed(1)} (whole ${r.kb} KB: ${r.wholeMedianMs.toFixed(1)})`);
  addResultRow('Keeping a run', `| ${new Date().toISOString().slice(0, 10)} | ${cells.join(' | ')} | \`node bench/keep-cost.mjs\` |`);
} finally {
  await context?.close();
  await hub.stop();
  rmSync(profile, { recursive: true, force: true });
}
