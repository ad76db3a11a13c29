/**
 * Which load a capacity search tries next. Pure: from the settings and the steps judged so far.
 *
 * The ramp climbs start, start + step, … up to the maximum and stops at the first failing step.
 * Then it bisects between the highest passing and the lowest failing load, `bisectSteps` times,
 * while a load between them remains (loads are whole numbers). Last, the lowest failing load is
 * run once more (`confirm`): one failure can be a hiccup of the machine or the network, so the
 * break is *confirmed* only when it fails again; a load that failed once is never taken as held,
 * and a break that held on its second run is said to be unconfirmed. A step that could not be
 * judged (stopped, or nothing measured) ends the search, and so does one the service no longer
 * answered at all (`unreachable`), or one that failed for a cause other than load (`fault`).
 */
import { RAMP_UNITS, type CapacitySettings } from './settings.ts';
import { formatCount } from '../format.ts';
import { CAPACITY_WORDS as W } from './words.ts';

export type StepPhase = 'ramp' | 'bisect' | 'confirm';

/** What the plan needs to know of a judged step. */
export interface JudgedLoad {
  load: number;
  phase: StepPhase;
  /** true: held; false: broke; null: could not be judged (stopped, nothing measured). */
  passed: boolean | null;
  /** It broke with no connection open, not for the client's reasons: the service stopped
   *  answering (killed, down). Nothing more can be learnt: the search ends after it, and it
   *  counts as the break only when no step broke with connections open. */
  unreachable?: boolean;
  /** It failed for a cause other than load (a crashed or frozen hub, a set-up mistake): the
   *  search ends after it with that cause (capacity-result.ts faultOf). */
  fault?: boolean;
}

export interface NextStep {
  load: number;
  phase: StepPhase;
}

/** The ramp's loads in order: start, start + step, … never above max (max itself is tried last). */
export function rampLoads(settings: Pick<CapacitySettings, 'start' | 'step' | 'max'>): number[] {
  const loads: number[] = [];
  for (let load = settings.start; load < settings.max; load += settings.step) loads.push(load);
  loads.push(settings.max);
  return loads;
}

/** The next step to run, or null when the search is over. */
export function nextStep(settings: CapacitySettings, judged: readonly JudgedLoad[]): NextStep | null {
  if (judged.some((step) => step.passed === null || step.unreachable || step.fault)) return null;
  const { held, broke } = bounds(judged);
  if (broke === null) {
    const next = rampLoads(settings).find((load) => held === null || load > held);
    return next === undefined ? null : { load: next, phase: 'ramp' };
  }
  const bisections = judged.filter((step) => step.phase === 'bisect').length;
  const mid = held === null ? null : Math.floor((held + broke) / 2);
  if (held !== null && mid !== null && bisections < settings.bisectSteps && mid > held && mid < broke) return { load: mid, phase: 'bisect' };
  return judged.some((step) => step.phase === 'confirm' && step.load === broke) ? null : { load: broke, phase: 'confirm' };
}

/**
 * Whether the lowest failing load failed again when run once more: true confirmed, false it held
 * the second time (unconfirmed), null when nothing broke or it was not run again (the search was
 * stopped first).
 */
export function breakConfirmed(judged: readonly JudgedLoad[]): boolean | null {
  const { broke } = bounds(judged);
  if (broke === null) return null;
  const again = judged.find((step) => step.phase === 'confirm' && step.load === broke);
  return again === undefined || again.passed === null ? null : again.passed === false;
}

/** The highest load that held below the lowest that broke, and that lowest failing load. */
export function bounds(judged: readonly JudgedLoad[]): { held: number | null; broke: number | null } {
  const measured = judged.filter((step) => step.passed === false && !step.unreachable);
  const failing = (measured.length > 0 ? measured : judged.filter((step) => step.passed === false)).map((step) => step.load);
  const broke = failing.length > 0 ? Math.min(...failing) : null;
  const passing = judged.filter((step) => step.passed === true && (broke === null || step.load < broke)).map((step) => step.load);
  return { held: passing.length > 0 ? Math.max(...passing) : null, broke };
}

/** Steps the search runs at most: the ramp, the bisections and the run that confirms the break. */
export function maxSteps(settings: CapacitySettings): number {
  return rampLoads(settings).length + settings.bisectSteps + 1;
}

/**
 * What a search with these settings will do, in words (the run form's line in "Find capacity"),
 * e.g. "a search of at most 13 steps of 20 s (the first 3 s of each not judged): 100 to 1,000
 * msg/s by 100 until a step breaks the guide's rule, then 2 bisections and the break run again".
 */
export function searchPlanText(settings: CapacitySettings): string {
  const unit = RAMP_UNITS[settings.ramp];
  return W.plan({
    steps: formatCount(maxSteps(settings)), stepSec: formatCount(settings.stepSec), settleSec: formatCount(settings.settleSec),
    start: formatCount(settings.start), max: formatCount(settings.max), unit, step: formatCount(settings.step),
    bisections: settings.bisectSteps, bisectText: formatCount(settings.bisectSteps),
  });
}
