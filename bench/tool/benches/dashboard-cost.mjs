// 5. Dashboard cost: how busy the page's main thread is (merging the workers' snapshots, the
// summary, the tier panel and five live uPlot charts) while four workers stream, minute by minute,
// so growth as the charts fill up shows. Main-thread CPU is read from /proc (the renderer's
// main thread, beside its Web Workers); long tasks are the page's own count (50 ms or more).
// BENCH_PROFILE_MINUTES=1,10 also takes a 30-s CPU profile of the main thread in each of those
// minutes (DevTools protocol on port BENCH_PORT_BASE+3), written as .cpuprofile files with a
// summary (busy ms per second, the functions with the most self time) in the result.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connectProfiler } from '../lib/page-profiler.mjs';
import { runTab } from '../lib/runs.mjs';

const LOAD = { connections: 255, intervalMs: 250, workers: 4 };

export async function dashboardCost(ctx) {
  const durationSec = ctx.dashboardMinutes * 60;
  const load = { connections: LOAD.connections, intervalMs: LOAD.intervalMs, durationSec, warmupSec: 0 };
  const profileMinutes = (process.env.BENCH_PROFILE_MINUTES ?? '').split(',').filter(Boolean).map(Number);
  const profiles = [];
  const debugPort = profileMinutes.length > 0 ? ctx.ports.collector + 1 : undefined;
  const whileRunning = debugPort && (() => profileAt(ctx, debugPort, profileMinutes, profiles));
  const r = await runTab(ctx, load, { extraQuery: { workers: String(LOAD.workers) }, keepReport: true, debugPort, whileRunning });
  const { report, cpuSampler } = r;
  // The planned send window, on the run's own clock (epoch µs).
  const startMs = report.result.sendWindow?.startUs / 1_000 || report.phaseStartedAtMs.running;
  const endMs = report.result.sendWindow?.endUs / 1_000 || (report.phaseStartedAtMs.draining ?? report.phaseStartedAtMs.done);
  const minutes = [];
  for (let fromMs = startMs; fromMs + 30_000 <= endMs; fromMs += 60_000) {
    const toMs = Math.min(endMs, fromMs + 60_000);
    const cpu = cpuSampler.between(fromMs, toMs);
    const wallSec = (toMs - fromMs) / 1_000;
    minutes.push({ minute: minutes.length + 1, mainBusyShare: cpu.pageMain / wallSec, workersCores: cpu.pageWorkers / wallSec, browserCores: cpu.total / wallSec });
  }
  const wallSec = (endMs - startMs) / 1_000;
  delete r.report;
  delete r.cpuSampler;
  const result = {
    load: { ...LOAD, durationSec },
    run: r,
    mainBusyShare: r.cpuSec.pageMain / wallSec,
    workersCores: r.cpuSec.pageWorkers / wallSec,
    networkCores: (r.cpuSec.network ?? 0) / wallSec,
    browserCores: r.cpuSec.total / wallSec,
    longTasks: r.longTasks,
    minutes,
    flatness: flatness(minutes),
    ...(profiles.length > 0 ? { profiles } : {}),
  };
  ctx.log(`dashboard cost: main thread busy ${(100 * result.mainBusyShare).toFixed(1)}% over ${ctx.dashboardMinutes} min; per minute ${minutes.map((m) => (100 * m.mainBusyShare).toFixed(1)).join(', ')}%`);
  const f = result.flatness;
  if (f) ctx.log(`dashboard cost: first minute ${(100 * f.firstShare).toFixed(1)}%, last ${(100 * f.lastShare).toFixed(1)}%; trend ${f.slopePointsPer10Min >= 0 ? '+' : ''}${f.slopePointsPer10Min.toFixed(2)} points per 10 minutes`);
  return result;
}

/**
 * Whether the main thread's share stays flat: the first and last whole minutes, and the slope of a
 * least-squares line through every minute's share, in percentage points per 10 minutes.
 */
export function flatness(minutes) {
  if (minutes.length < 2) return null;
  const n = minutes.length;
  const xMean = minutes.reduce((s, m) => s + m.minute, 0) / n;
  const yMean = minutes.reduce((s, m) => s + m.mainBusyShare, 0) / n;
  let num = 0;
  let den = 0;
  for (const m of minutes) {
    num += (m.minute - xMean) * (m.mainBusyShare - yMean);
    den += (m.minute - xMean) ** 2;
  }
  return { firstShare: minutes[0].mainBusyShare, lastShare: minutes[n - 1].mainBusyShare, slopePointsPer10Min: (100 * 10 * num) / den };
}

/** CPU profiles of the page's main thread, 30 s from 20 s into each given minute of the run
 *  (counted from the launch; the ramp takes a few seconds). */
async function profileAt(ctx, debugPort, minutes, out) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dashboard-profiles-'));
  const launchedMs = Date.now();
  const profiler = await connectProfiler(debugPort);
  try {
    for (const minute of minutes) {
      const waitMs = launchedMs + ((minute - 1) * 60 + 20) * 1_000 - Date.now();
      if (waitMs > 0) await new Promise((r) => setTimeout(r, waitMs));
      const summary = await profiler.profile(30_000, dir, `minute-${minute}`);
      out.push({ minute, file: path.join(dir, `minute-${minute}.cpuprofile`), ...summary });
      ctx.log(`profile of minute ${minute}: main thread busy ${summary.busyMsPerSec.toFixed(1)} ms/s; top: ${summary.top.slice(0, 8).map((t) => `${t.fn} ${t.msPerSec.toFixed(2)}`).join('; ')}`);
    }
  } finally {
    profiler.close();
  }
}
