/**
 * Which load a capacity search tries next. Pure: from the settings and the steps judged so far.
 *
 * The ramp climbs start, start + step, … up to the maximum and stops at the first failing step.
 * Then it bisects between the highest passing and the lowest failing load, `bisectSteps` times,
 * while a load between them remains (loads are whole numbers). A step that could not be judged
 * (stopped, or nothing measured) ends the search.
 */
import type { CapacitySettings } from './settings.ts';

export type StepPhase = 'ramp' | 'bisect';

/** What the plan needs to know of a judged step. */
export interface JudgedLoad {
  load: number;
  phase: StepPhase;
  /** true: held; false: broke; null: could not be judged (stopped, nothing measured). */
  passed: boolean | null;
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
  if (judged.some((step) => step.passed === null)) return null;
  const { held, broke } = bounds(judged);
  if (broke === null) {
    const next = rampLoads(settings).find((load) => held === null || load > held);
    return next === undefined ? null : { load: next, phase: 'ramp' };
  }
  if (held === null) return null;
  const bisections = judged.filter((step) => step.phase === 'bisect').length;
  if (bisections >= settings.bisectSteps) return null;
  const mid = Math.floor((held + broke) / 2);
  return mid > held && mid < broke ? { load: mid, phase: 'bisect' } : null;
}

/** The highest load that held below the lowest that broke, and that lowest failing load. */
export function bounds(judged: readonly JudgedLoad[]): { held: number | null; broke: number | null } {
  const failing = judged.filter((step) => step.passed === false).map((step) => step.load);
  const broke = failing.length > 0 ? Math.min(...failing) : null;
  const passing = judged.filter((step) => step.passed === true && (broke === null || step.load < broke)).map((step) => step.load);
  return { held: passing.length > 0 ? Math.max(...passing) : null, broke };
}

/** Steps the search runs at most: the ramp plus the bisections. */
export function maxSteps(settings: CapacitySettings): number {
  return rampLoads(settings).length + settings.bisectSteps;
}
