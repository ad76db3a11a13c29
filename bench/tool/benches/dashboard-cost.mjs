// 5. Dashboard cost: how busy the page's main thread is (merging the workers' snapshots, the
// summary, the tier panel and five live uPlot charts) while four workers stream, minute by minute,
// so growth as the charts fill up shows. Main-thread CPU is read from /proc (the renderer's
// main thread, beside its Web Workers); long tasks are the page's own count (50 ms or more).
import { runTab } from '../lib/runs.mjs';

const LOAD = { connections: 255, intervalMs: 250, workers: 4 };

export async function dashboardCost(ctx) {
  const durationSec = ctx.dashboardMinutes * 60;
  const load = { connections: LOAD.connections, intervalMs: LOAD.intervalMs, durationSec, warmupSec: 0 };
  const r = await runTab(ctx, load, { extraQuery: { workers: String(LOAD.workers) }, keepReport: true });
  const { report, cpuSampler } = r;
  const startMs = report.phaseStartedAtMs.running;
  const endMs = report.phaseStartedAtMs.draining ?? report.phaseStartedAtMs.done;
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
  };
  ctx.log(`dashboard cost: main thread busy ${(100 * result.mainBusyShare).toFixed(1)}% over ${ctx.dashboardMinutes} min; per minute ${minutes.map((m) => (100 * m.mainBusyShare).toFixed(1)).join(', ')}%`);
  return result;
}
