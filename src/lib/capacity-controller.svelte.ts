/**
 * The dashboard's capacity search: the steps of core/capacity/ run one after another through the
 * page's one RunController (so the live charts, the presentation and the agents follow each
 * step, and each step's load is split across the browsers and runners that take part). Every
 * step is kept in the history like any run, tagged with the search's id and carrying the search
 * as it stood once the step was judged. The bench build's unattended search
 * (capacity-bench-hook.ts) is a caller of this same wiring, without the history.
 */
import { systemClock, systemTimers } from '../../core/clocks/index.ts';
import {
  loadText,
  heldFigure,
  CapacitySearch,
  stepByIndex,
  maxSteps,
  CAPACITY_DEFAULTS,
  plannedSendRate,
  RAMP_UNITS,
  validateCapacitySettings,
  type CapacityResult,
  type NextStep,
  type RampKind,
} from '../../core/capacity/index.ts';
import { formatCount } from '../../core/format.ts';
import { newRunId } from '../../core/history/index.ts';
import type { RunConfig } from '../../core/run-config/index.ts';
import type { ComparisonStatus } from './run-status.ts';
import type { RunController } from './run-controller.svelte.ts';
import type { RunKeeper } from './run-keeper.svelte.ts';
import { PAGE_WORDS } from './words.ts';

export class CapacityController {
  /** The form's fields, as typed; checked on start. */
  fields = $state({
    ramp: 'rate' as RampKind,
    start: '100',
    step: '100',
    max: '1000',
    stepSec: String(CAPACITY_DEFAULTS.stepSec),
    settleSec: String(CAPACITY_DEFAULTS.settleSec),
    bisectSteps: String(CAPACITY_DEFAULTS.bisectSteps),
  });
  /** The search that runs or ran last, with every step judged so far. */
  result = $state.raw<CapacityResult | null>(null);
  /** The step under way. */
  current = $state.raw<(NextStep & { index: number; config: RunConfig }) | null>(null);
  /** Every problem with the fields, or why the search stopped. */
  errors = $state.raw<string[]>([]);
  running = $state(false);
  #search: CapacitySearch | null = null;
  #total = 0;

  /** The run form's fields a search sets itself (settings.ts stepConfig): the step's duration and
   *  settle time, and the ramp's own quantity (the interval on a rate ramp, the count on a connection ramp). */
  get ignoredFields(): readonly string[] {
    return ['durationSec', 'warmupSec', this.fields.ramp === 'rate' ? 'sendIntervalMs' : 'connections'];
  }

  /** For the presentation view: which step of how many is running. */
  get status(): ComparisonStatus | null {
    const step = this.current;
    const result = this.result;
    if (!this.running || !step || !result) return null;
    const load = loadText(result, { connections: step.config.connections, sendIntervalMs: step.config.sendIntervalMs, plannedSendsPerSec: plannedSendRate(step.config) });
    // The climb so far: the highest load that held below any that broke.
    const held = stepByIndex(result, result.finding.heldStep);
    // The held load as the answer says it (heldFigure), and its connections on a connection ramp.
    const sofar = held ? ` · held so far ${result.settings.ramp === 'rate' ? `${formatCount(heldFigure(held))} msg/s` : `${formatCount(held.connections)} ${RAMP_UNITS.connections}`}` : '';
    return { step: step.index, total: this.#total, label: `${PAGE_WORDS.stepPhase({ phase: step.phase })}${load}${sofar}`, pauseLeftSec: 0 };
  }

  /** Runs the search from `base`; `connectionCap` is the most connections this client holds (a
   *  browser's cap), null when agents carry the load. `keeper` null: the steps are not kept (an
   *  unattended benchmark's search, which reports its document itself). */
  async start(base: RunConfig, run: RunController, keeper: RunKeeper | null, connectionCap: number | null): Promise<void> {
    if (this.running) return;
    const checked = validateCapacitySettings(this.fields, base);
    this.errors = checked.ok ? [] : checked.errors;
    if (!checked.ok) return;
    const searchId = `cap-${newRunId(new Date())}`;
    this.#total = maxSteps(checked.settings);
    this.running = true;
    const search = new CapacitySearch(base, checked.settings, async (config, step) => {
      // Named with the load as the answer and the run bar say it: the rate the step plans (299
      // msg/s for a 300 msg/s step over 20 connections every 67 ms), or its connections.
      const load = checked.settings.ramp === 'rate' ? `${formatCount(plannedSendRate(config))} msg/s` : `${formatCount(config.connections)} connections`;
      keeper?.keepNextAs({ name: `Capacity step ${step.index} (${step.phase}) · ${load}`, comparisonId: searchId, capacity: search.result });
      if (!(await run.start(config))) return null;
      await run.finished();
      // The page's effect may not have seen the end yet: hand it over before reading the record.
      if (keeper) {
        keeper.track(run);
        await keeper.flushed();
      }
      return run.result();
    }, {
      client: { name: navigator.userAgent, connectionCap },
      clock: systemClock,
      timers: systemTimers,
      onStepStart: (next, result) => {
        this.current = next;
        this.result = result;
      },
      onStep: (_step, result) => {
        this.result = result;
        void keeper?.keepCapacity(result);
      },
    });
    this.#search = search;
    this.result = search.result;
    try {
      this.result = await search.run();
      // The last step's record carries the search as it ended (no longer running).
      if (this.result.steps.length > 0) await keeper?.keepCapacity(this.result);
      if (this.result.steps.length === 0 && !search.stopped) this.errors = [PAGE_WORDS.firstStepNotStarted()];
    } catch (error) {
      this.errors = [PAGE_WORDS.stopped({ what: 'search', kept: 'steps', error })];
    } finally {
      this.running = false;
      this.current = null;
      this.#search = null;
    }
  }

  /** Stops the step under way (its figures are kept, without a verdict) and runs no more. */
  stop(run: RunController): void {
    this.#search?.stop();
    run.stop();
  }
}
