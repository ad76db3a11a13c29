/**
 * Runs a capacity search: plans each step (search-plan.ts), hands its configuration to whatever
 * runs benchmark runs (the runner's threads, the dashboard's RunController), judges it
 * (step-judge.ts), and keeps the document (capacity-result.ts) up to date after every step. Pure:
 * the step runner, the clock and the timers are injected.
 */
import type { Clock, Timers } from '../clocks/index.ts';
import type { RunResult } from '../result/index.ts';
import type { RunConfig } from '../run-config/index.ts';
import { CAPACITY_FORMAT, CAPACITY_VERSION, findingOf, stepOf, judgedLoadOf, type CapacityResult, type CapacityStep } from './capacity-result.ts';
import { nextStep, type NextStep } from './next-load.ts';
import { stepConfig, type CapacitySettings } from './settings.ts';
import type { ClientContext } from './step-judge.ts';

/** Runs one step's benchmark; null when it could not start (the search was stopped meanwhile). */
export type StepRunner = (config: RunConfig, step: NextStep & { index: number }) => Promise<RunResult | null>;

/** Pause between two steps, so the hub finishes the last step's deliveries before the next starts. */
export const STEP_PAUSE_MS = 1_000;

export interface SearchOptions {
  client: ClientContext & { name: string };
  clock: Clock;
  timers: Timers;
  pauseMs?: number;
  /** Before each step starts, with the document so far. */
  onStepStart?: (next: NextStep & { index: number; config: RunConfig }, result: CapacityResult) => void;
  /** After each step is judged, with the document including it. */
  onStep?: (step: CapacityStep, result: CapacityResult) => void;
}

export class CapacitySearch {
  readonly #steps: CapacityStep[] = [];
  #stopped = false;
  #running = false;
  readonly #startedAt: string;

  constructor(
    readonly base: RunConfig,
    readonly settings: CapacitySettings,
    private readonly runStep: StepRunner,
    private readonly options: SearchOptions,
  ) {
    this.#startedAt = new Date(options.clock.nowUs() / 1_000).toISOString();
  }

  get stopped(): boolean {
    return this.#stopped;
  }

  /** The document as it stands: every step judged so far and the finding from them. */
  get result(): CapacityResult {
    return {
      format: CAPACITY_FORMAT,
      version: CAPACITY_VERSION,
      startedAt: this.#startedAt,
      base: this.base,
      settings: this.settings,
      client: this.options.client.name,
      connectionCap: this.options.client.connectionCap,
      running: this.#running,
      steps: [...this.#steps],
      finding: findingOf(this.#steps),
    };
  }

  async run(): Promise<CapacityResult> {
    this.#running = true;
    try {
      for (;;) {
        const next = this.#stopped ? null : nextStep(this.settings, this.#steps.map(judgedLoadOf));
        if (!next) break;
        if (this.#steps.length > 0 && !(await this.#pause())) break;
        const index = this.#steps.length + 1;
        const config = stepConfig(this.base, this.settings, next.load);
        this.options.onStepStart?.({ ...next, index, config }, this.result);
        const run = await this.runStep(config, { ...next, index });
        if (!run) break;
        const step = stepOf(run, index, next.phase, next.load, this.options.client);
        this.#steps.push(step);
        // A stopped step is kept (its figures) but ends the search: it has no verdict.
        if (run.outcome.kind === 'stopped') this.#stopped = true;
        this.options.onStep?.(step, this.result);
      }
    } finally {
      this.#running = false;
    }
    return this.result;
  }

  /** Runs no further step; the caller stops the step that is running. */
  stop(): void {
    this.#stopped = true;
  }

  #pause(): Promise<boolean> {
    return new Promise((resolve) => this.options.timers.setTimeout(() => resolve(!this.#stopped), this.options.pauseMs ?? STEP_PAUSE_MS));
  }
}
