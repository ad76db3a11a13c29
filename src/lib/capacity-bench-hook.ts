/**
 * An unattended capacity search, for bench/capacity.mjs: with `?autostart=1&report=<url>`, a run's
 * setup and `capacity=<ramp>:<start>:<step>:<max>:<stepSec>:<settleSec>:<bisectSteps>` in the
 * query, the page runs the search from that setup through its RunController as soon as it loads
 * and POSTs the search's document (core/capacity/) to `<url>`. Chromium is launched directly, not
 * under Playwright (see bench-hook.ts). In the bench build only, like bench-hook.ts.
 */
import { systemClock, systemTimers } from '../../core/clocks/index.ts';
import { browserConnectionCapacity, type RunConfig } from '../../core/run/index.ts';
import { CapacitySearch, validateCapacitySettings, type CapacityResult } from '../../core/capacity/index.ts';
import type { RunController } from './run-controller.svelte.ts';

export const CAPACITY_PARAM = 'capacity';

export interface CapacityBenchReport {
  capacity: CapacityResult | null;
  errors: string[];
}

/** Runs the search `spec` asks for from `base`, then POSTs it to `reportUrl`. */
export async function runCapacityBench(run: RunController, base: RunConfig, spec: string, reportUrl: string): Promise<void> {
  const [ramp, start, step, max, stepSec, settleSec, bisectSteps] = spec.split(':');
  const checked = validateCapacitySettings({ ramp, start, step, max, stepSec, settleSec, bisectSteps }, base);
  const report: CapacityBenchReport = { capacity: null, errors: checked.ok ? [] : checked.errors };
  if (checked.ok) {
    const search = new CapacitySearch(base, checked.settings, async (config) => {
      if (!(await run.start(config))) return null;
      await run.finished();
      return run.result();
    }, { client: { name: navigator.userAgent, connectionCap: browserConnectionCapacity(base.transport, base.endpointUrl) }, clock: systemClock, timers: systemTimers });
    report.capacity = await search.run();
  }
  try {
    // text/plain keeps the request "simple": no CORS preflight to the collector.
    await fetch(reportUrl, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify(report) });
  } catch (error) {
    console.error(`The capacity report could not be sent to ${reportUrl}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
