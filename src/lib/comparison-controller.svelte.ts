/**
 * A comparison run: the same scenario and load once per chosen transport x protocol, in turn,
 * with a pause between them, through the page's one RunController (so the live charts show
 * the combination that is running). Each run is kept like any other, tagged with the
 * comparison's id; the finished ones are collected for the side-by-side view.
 */
import {
  ALL_COMBINATIONS,
  combinationKey,
  comparisonProblem,
  DEFAULT_PAUSE_SEC,
  planComparison,
  planDropComparison,
  type PlannedCombination,
  type DropComparisonKind,
  type DropVariant,
} from '../../core/compare/index.ts';
import { newRunId, type KeptRun } from '../../core/history/index.ts';
import { defaultRunName, type RunConfig } from '../../core/run-config/index.ts';
import type { CapacityResult } from '../../core/capacity/index.ts';
import type { CapacityController } from './capacity-controller.svelte.ts';
import type { RunController } from './run-controller.svelte.ts';
import type { RunKeeper } from './run-keeper.svelte.ts';
import type { ComparisonStatus } from './run-status.ts';
import { PAGE_WORDS } from './words.ts';

export type { ComparisonStatus } from './run-status.ts';

/** The link parameter that carries the chosen combinations, e.g. compare=WebSockets:json,LongPolling:json. */
export const COMPARE_PARAM = 'compare';


export class ComparisonController {
  /** Chosen combinations by key ("WebSockets:json"). */
  chosen = $state<Record<string, boolean>>(initialChoice());
  /** As typed; checked on start. */
  pauseSec = $state(String(DEFAULT_PAUSE_SEC));
  /** The plan of the comparison that runs or ran last, with refusals and limits. */
  plan = $state.raw<PlannedCombination[]>([]);
  status = $state.raw<ComparisonStatus | null>(null);
  /** The kept runs of the latest comparison, in the order they ran. */
  runs = $state.raw<KeptRun[]>([]);
  problem = $state<string | null>(null);
  /** Compare by what each holds: a capacity search per combination, on the ramp of Find capacity. */
  byHeld = $state(false);
  /** The searches of the latest comparison by what each holds, in the order they ran. */
  held = $state.raw<{ label: string; result: CapacityResult }[]>([]);
  #cancelled = false;
  #capacity: CapacityController | null = null;

  get running(): boolean {
    return this.status !== null;
  }

  /** Plans the chosen combinations against a base configuration (for display and for start). */
  planFor(base: RunConfig): PlannedCombination[] {
    return planComparison(base, ALL_COMBINATIONS.filter((c) => this.chosen[combinationKey(c)]));
  }

  async start(base: RunConfig, run: RunController, keeper: RunKeeper): Promise<void> {
    const planned = this.#planned(base);
    if (planned) await this.#runSteps(planned.runnable, planned.pause, run, keeper);
  }

  /** The combinations a start runs and the pause between them, or null when it cannot start
   *  (running already, or a problem, said in `problem`). Written to the link once planned. */
  #planned(base: RunConfig): { runnable: (PlannedCombination & { config: RunConfig })[]; pause: number } | null {
    if (this.running) return null;
    const plan = this.planFor(base);
    const pause = Number(this.pauseSec);
    this.problem = comparisonProblem(plan, this.pauseSec.trim() === '' ? NaN : pause);
    if (this.problem) return null;
    this.plan = plan;
    this.#writeLink(plan);
    return { runnable: plan.filter((p): p is PlannedCombination & { config: RunConfig } => p.config !== null), pause };
  }

  /**
   * One drop under each variant (core/compare/drop-comparison.ts): each reconnect policy, or stateful
   * reconnect off and on, in turn, side by side like combinations.
   */
  async startDropComparison(base: RunConfig, kind: DropComparisonKind, run: RunController, keeper: RunKeeper): Promise<void> {
    if (this.running) return;
    const planned = planDropComparison(base, kind);
    const pause = Number(this.pauseSec);
    this.problem = planned.problem ?? (Number.isInteger(pause) && pause >= 0 ? null : PAGE_WORDS.pauseNotWhole({ pause: String(this.pauseSec) }));
    if (this.problem) return;
    this.plan = [];
    await this.#runSteps(planned.variants.filter((v): v is DropVariant & { config: RunConfig } => v.config !== null), pause, run, keeper);
  }

  async #runSteps(runnable: { label: string; config: RunConfig }[], pause: number, run: RunController, keeper: RunKeeper): Promise<void> {
    this.runs = [];
    this.held = [];
    this.#cancelled = false;
    const comparisonId = `cmp-${newRunId(new Date())}`;
    // Running from here on, so a second click cannot start a second comparison.
    this.status = { step: 1, total: runnable.length, label: runnable[0]!.label, pauseLeftSec: 0 };
    try {
      await keeper.ready();
      for (const [index, step] of runnable.entries()) {
        if (this.#cancelled) break;
        if (index > 0 && !(await this.#pause(index, runnable.length, step.label, pause))) break;
        this.status = { step: index + 1, total: runnable.length, label: step.label, pauseLeftSec: 0 };
        // Named like any run (scenario, combination, load), so it reads on its own in the history;
        // side by side, the parts the runs share are left out of their labels (runLabels).
        // A drop comparison's variant ("stateful reconnect off") is not in that name: it is added.
        const name = defaultRunName(step.config);
        keeper.keepNextAs({ name: name.includes(step.label) ? name : `${name} · ${step.label}`, comparisonId });
        if (!(await run.start(step.config))) {
          // Stopped while the agents' clocks were measured, or refused before it began (the agents
          // panel says why, e.g. more connections than the browsers hold, or an agent's clock unknown).
          if (this.#cancelled) break;
          this.problem = PAGE_WORDS.stepNotStarted({ label: step.label });
          break;
        }
        await run.finished();
        // The page's effect may not have seen the end yet: hand it over before reading the record.
        keeper.track(run);
        const kept = await keeper.flushed();
        if (kept) this.runs = [...this.runs, kept];
        // Nothing could be measured (no connection opened, every one closed with Reconnect off,
        // the hub refused the method): the next combinations meet the same hub, so stop here.
        const outcome = run.view?.outcome;
        if (outcome?.kind === 'failed' && index < runnable.length - 1) {
          this.problem = PAGE_WORDS.stepFailed({ label: step.label, reason: outcome.reason });
          break;
        }
      }
    } catch (error) {
      this.problem = PAGE_WORDS.stopped({ what: 'comparison', kept: 'runs', error });
    } finally {
      this.status = null;
    }
  }

  /**
   * One capacity search per chosen combination, all on the ramp of Find capacity, in turn
   * (core/compare/held-comparison.ts says which holds most). Each search's steps are kept like
   * any search's; `connectionCap` gives the most connections this client holds for a configuration.
   */
  async startHeld(base: RunConfig, run: RunController, keeper: RunKeeper, capacity: CapacityController, connectionCap: (config: RunConfig) => number | null): Promise<void> {
    const planned = this.#planned(base);
    if (!planned) return;
    const { runnable, pause } = planned;
    this.runs = [];
    this.held = [];
    this.#cancelled = false;
    this.#capacity = capacity;
    this.status = { step: 1, total: runnable.length, label: runnable[0]!.label, pauseLeftSec: 0 };
    try {
      await keeper.ready();
      for (const [index, step] of runnable.entries()) {
        if (this.#cancelled) break;
        if (index > 0 && !(await this.#pause(index, runnable.length, step.label, pause))) break;
        this.status = { step: index + 1, total: runnable.length, label: step.label, pauseLeftSec: 0 };
        await capacity.start(step.config, run, keeper, connectionCap(step.config));
        if (capacity.errors.length > 0) {
          this.problem = `${step.label}: ${capacity.errors.join(' ')} The comparison stopped there.`;
          break;
        }
        if (capacity.result && capacity.result.steps.length > 0) this.held = [...this.held, { label: step.label, result: capacity.result }];
      }
    } catch (error) {
      this.problem = PAGE_WORDS.stopped({ what: 'comparison', kept: 'searches', error });
    } finally {
      this.status = null;
      this.#capacity = null;
    }
  }

  /** Stops the running combination (its figures are kept) and runs no more. */
  stop(run: RunController): void {
    this.#cancelled = true;
    if (this.#capacity) this.#capacity.stop(run);
    else run.stop();
  }

  /** Counts the pause down; false when the comparison was stopped meanwhile. */
  async #pause(index: number, total: number, label: string, pauseSec: number): Promise<boolean> {
    for (let left = pauseSec; left > 0; left--) {
      if (this.#cancelled) return false;
      this.status = { step: index + 1, total, label, pauseLeftSec: left };
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    return !this.#cancelled;
  }

  #writeLink(plan: PlannedCombination[]): void {
    const url = new URL(location.href);
    url.searchParams.set(COMPARE_PARAM, plan.map(combinationKey).join(','));
    history.replaceState(null, '', url);
  }
}

/** From the link when it names combinations; otherwise every combination SignalR allows. */
function initialChoice(): Record<string, boolean> {
  const fromLink = typeof location === 'undefined' ? null : new URLSearchParams(location.search).get(COMPARE_PARAM);
  const keys = fromLink ? new Set(fromLink.split(',')) : null;
  return Object.fromEntries(
    ALL_COMBINATIONS.map((c) => [combinationKey(c), keys ? keys.has(combinationKey(c)) : !(c.transport === 'ServerSentEvents' && c.protocol === 'messagepack')]),
  );
}
