/**
 * An unattended capacity search, for bench/capacity.mjs: with `?autostart=1&report=<url>`, a run's
 * setup and `capacity=<ramp>:<start>:<step>:<max>:<stepSec>:<settleSec>:<bisectSteps>` in the
 * query, the page runs the search from that setup as soon as it loads, through the page's own
 * wiring (CapacityController, its steps through the one RunController; the steps are not kept in
 * the history), and POSTs the search's document (core/capacity/) to `<url>`. Chromium is launched
 * directly, not under Playwright (see bench-hook.ts). In the bench build only, like bench-hook.ts.
 */
import { browserConnectionCapacity, type RunConfig } from '../../core/run-config/index.ts';
import type { CapacityResult, RampKind } from '../../core/capacity/index.ts';
import { CapacityController } from './capacity-controller.svelte.ts';
import type { RunController } from './run-controller.svelte.ts';
import { PAGE_WORDS } from './words.ts';

export const CAPACITY_PARAM = 'capacity';

export interface CapacityBenchReport {
  capacity: CapacityResult | null;
  errors: string[];
}

/** Runs the search `spec` asks for from `base`, then POSTs it to `reportUrl`. */
export async function runCapacityBench(run: RunController, base: RunConfig, spec: string, reportUrl: string): Promise<void> {
  const [ramp = '', start = '', step = '', max = '', stepSec = '', settleSec = '', bisectSteps = ''] = spec.split(':');
  const search = new CapacityController();
  // As typed into the form: the controller checks them (a bad ramp or number is reported back).
  search.fields = { ramp: ramp as RampKind, start, step, max, stepSec, settleSec, bisectSteps };
  await search.start(base, run, null, browserConnectionCapacity(base.transport, base.endpointUrl));
  const report: CapacityBenchReport = { capacity: search.result, errors: search.errors };
  try {
    // text/plain keeps the request "simple": no CORS preflight to the collector.
    await fetch(reportUrl, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify(report) });
  } catch (error) {
    console.error(PAGE_WORDS.reportNotSent({ what: 'capacity', url: reportUrl, error }));
  }
}
