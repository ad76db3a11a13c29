/**
 * Unattended runs, for benchmarks of the tool itself (bench/tool/). With
 * `?autostart=1&report=<url>` and a run's setup in the query (core/run-config/config-url.ts), the page starts
 * that run as soon as it loads and, once it is done, POSTs the run's result with the page's own
 * costs to `<url>`. Benchmarks launch Chromium directly instead of driving it with Playwright,
 * whose per-frame DevTools events would cost more CPU than the page itself: the page reports back.
 * Only the bench build (`npm run build:bench`, `vite build --mode bench`) includes this module:
 * App.svelte starts it under `import.meta.env.MODE === 'bench'`, so the product's bundle has none of it.
 */
import { type RunPhase } from '../../core/execution/index.ts';
import { type RunResult } from '../../core/result/index.ts';
import { queryToFields, defaultEndpointUrl, validateRunConfig, type RunConfig } from '../../core/run-config/index.ts';
import type { RunController } from './run-controller.svelte.ts';
import { CAPACITY_PARAM, runCapacityBench } from './capacity-bench-hook.ts';
import { PAGE_WORDS } from './words.ts';

/** How often the hook looks at the run's phase until sending starts, in ms: the resolution of the
 *  ramp-up time it reports. */
const PHASE_POLL_MS = 20;
/** Then only the end is awaited: a person's tab has no such timer, so while the run sends the hook
 *  wakes the page 4 times a second, not 50 (the CPU window comes from the result's send window). */
const END_POLL_MS = 250;

export type BenchRequest = { reportUrl: string; config: RunConfig } | { reportUrl: string; errors: string[] };

/**
 * The unattended run a query string asks for; null when it asks for none. `connectConcurrency`
 * rides along too (links leave it out), so ramp-up can be compared with all connects at once.
 */
export function benchRequest(search: string, origin: string): BenchRequest | null {
  const params = new URLSearchParams(search);
  if (params.get('autostart') !== '1') return null;
  const reportUrl = params.get('report') ?? '';
  if (!/^https?:\/\//.test(reportUrl)) {
    return { reportUrl: '', errors: [PAGE_WORDS.badReportUrl({ reportUrl })] };
  }
  const fields = queryToFields(search);
  const validated = validateRunConfig({
    ...fields,
    endpointUrl: fields.endpointUrl ?? defaultEndpointUrl(origin),
    connectConcurrency: params.get('connectConcurrency') ?? undefined,
  });
  return validated.ok ? { reportUrl, config: validated.config } : { reportUrl, errors: validated.errors };
}

/** What the page POSTs: the run, when its phases began (epoch ms), and the page's own long tasks. */
export interface BenchReport {
  result: RunResult | null;
  errors: string[];
  phaseStartedAtMs: Partial<Record<RunPhase | 'start', number>>;
  /** Main-thread tasks of 50 ms or more (PerformanceObserver 'longtask') while the run lasted. */
  longTasks: { count: number; totalMs: number; maxMs: number };
  crossOriginIsolated: boolean;
}

/** Starts the run the URL asks for, if any, and reports it when done. */
export function startBenchHook(run: RunController): void {
  const request = benchRequest(location.search, location.origin);
  if (!request) return;
  const longTasks = { count: 0, totalMs: 0, maxMs: 0 };
  const report: BenchReport = { result: null, errors: [], phaseStartedAtMs: {}, longTasks, crossOriginIsolated: globalThis.crossOriginIsolated };
  if ('errors' in request) {
    report.errors = request.errors;
    if (request.reportUrl) void post(request.reportUrl, report);
    else console.error(request.errors.join('\n'));
    return;
  }
  const capacity = new URLSearchParams(location.search).get(CAPACITY_PARAM);
  if (capacity) {
    void runCapacityBench(run, request.config, capacity, request.reportUrl);
    return;
  }
  observeLongTasks(longTasks);
  report.phaseStartedAtMs.start = Date.now();
  void run.start(request.config);
  const look = () => {
    const phase = run.view?.phase;
    if (phase && report.phaseStartedAtMs[phase] === undefined) report.phaseStartedAtMs[phase] = Date.now();
    if (phase !== 'done') {
      setTimeout(look, report.phaseStartedAtMs.running === undefined ? PHASE_POLL_MS : END_POLL_MS);
      return;
    }
    report.result = run.result();
    void post(request.reportUrl, report);
  };
  setTimeout(look, PHASE_POLL_MS);
}

function observeLongTasks(into: BenchReport['longTasks']): void {
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        into.count++;
        into.totalMs += entry.duration;
        into.maxMs = Math.max(into.maxMs, entry.duration);
      }
    }).observe({ type: 'longtask', buffered: true });
  } catch {
    // Browsers without the Long Tasks API report zero; the benchmark reads CPU from /proc anyway.
  }
}

async function post(url: string, report: BenchReport): Promise<void> {
  try {
    // text/plain keeps the request "simple": no CORS preflight to the collector.
    await fetch(url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify(report) });
  } catch (error) {
    console.error(PAGE_WORDS.reportNotSent({ what: 'benchmark', url, error }));
  }
}
