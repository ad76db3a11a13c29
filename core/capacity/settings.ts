/**
 * A capacity search's settings, their validation, and the run configuration of each step. Pure.
 *
 * Two ramps: *connections* adds connections at the base configuration's send interval (the
 * guide's 1 msg/s by default); *rate* keeps the base connection count and raises the messages
 * sent per second (all senders together) by shortening the send interval.
 */
import { planScenario } from '../plan/index.ts';
import { validateRunConfig, type RunConfig } from '../run-config/index.ts';
import { CAPACITY_WORDS as W } from './words.ts';

export const RAMPS = ['connections', 'rate'] as const;
export type RampKind = (typeof RAMPS)[number];

export interface CapacitySettings {
  ramp: RampKind;
  /** Load of the first step: connections, or messages sent per second for a rate ramp. */
  start: number;
  /** Load added per ramp step, in the same unit. */
  step: number;
  /** Highest load the ramp tries. */
  max: number;
  /** Seconds each step is held, its settle included. Default 20. */
  stepSec: number;
  /** Seconds at the start of each step that are not judged (the run's warm-up). Default 3. */
  settleSec: number;
  /** Extra steps between the last passing and the first failing step. Default 2. */
  bisectSteps: number;
}

export const CAPACITY_DEFAULTS = { stepSec: 20, settleSec: 3, bisectSteps: 2 } as const;

/** The unit of a ramp's load, for people. */
export const RAMP_UNITS: Record<RampKind, string> = { connections: 'connections', rate: 'msg/s' };

/** Below this interval timers cannot keep the schedule (the run configuration's own floor). */
const MIN_INTERVAL_MS = 10;
/** Each step drains for at most this long: a step's late messages are judged, not waited for forever. */
export const STEP_DRAIN_SEC = 10;

/** A problem with the search's settings and what it is about: one of the settings, `base` (the
 *  run the steps are made of) or `steps` (a step's run that the engine would refuse). */
export interface CapacityProblem {
  field: keyof CapacitySettings | 'base' | 'steps';
  message: string;
}

/** `errors` are the problems' messages, in order. */
export type CapacityValidation = { ok: true; settings: CapacitySettings } | { ok: false; errors: string[]; problems: CapacityProblem[] };

function refused(problems: CapacityProblem[]): CapacityValidation {
  return { ok: false, errors: problems.map((problem) => problem.message), problems };
}

interface NumberRule {
  key: keyof Omit<CapacitySettings, 'ramp'>;
  label: string;
  min: number;
  max: number;
  hint: string;
}

const RULES: NumberRule[] = [
  { key: 'start', label: 'Ramp start', min: 1, max: 1_000_000, hint: 'the load of the first step' },
  { key: 'step', label: 'Ramp step', min: 1, max: 1_000_000, hint: 'the load added per step' },
  { key: 'max', label: 'Ramp maximum', min: 1, max: 1_000_000, hint: 'the highest load tried' },
  { key: 'stepSec', label: 'Step duration', min: 2, max: 3_600, hint: 'seconds each step is held' },
  { key: 'settleSec', label: 'Settle', min: 0, max: 600, hint: 'seconds of each step not judged' },
  { key: 'bisectSteps', label: 'Bisection steps', min: 0, max: 10, hint: 'extra steps after the first failure; 0 for none' },
];

/**
 * Checks every setting against the base run configuration and reports every problem at once.
 * Numbers may arrive as strings (form fields, command lines).
 */
export function validateCapacitySettings(input: Partial<Record<keyof CapacitySettings, unknown>>, base: RunConfig): CapacityValidation {
  const errors: CapacityProblem[] = [];
  const settings: CapacitySettings = { ramp: 'rate', start: 0, step: 0, max: 0, ...CAPACITY_DEFAULTS };
  const ramp = input.ramp;
  if ((RAMPS as readonly unknown[]).includes(ramp)) settings.ramp = ramp as RampKind;
  else errors.push({ field: 'ramp', message: W.rampUnknown({ ramps: RAMPS, is: describe(ramp) }) });
  for (const rule of RULES) {
    const raw = input[rule.key] ?? (CAPACITY_DEFAULTS as Record<string, number>)[rule.key];
    const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < rule.min || value > rule.max) {
      errors.push({ field: rule.key, message: `${rule.label} (${rule.hint}) must be a whole number from ${rule.min.toLocaleString('en-US')} to ${rule.max.toLocaleString('en-US')}, but is ${describe(raw)}.` });
    } else {
      settings[rule.key] = value;
    }
  }
  if (errors.length > 0) return refused(errors);
  if (settings.start > settings.max) errors.push({ field: 'start', message: W.startAboveMax({ start: settings.start, max: settings.max }) });
  // A drop the search planned would break its step, and the search would call that the service's limit.
  if (base.dropAtSec !== null) errors.push({ field: 'base', message: W.noDrops({ dropAtSec: base.dropAtSec }) });
  if (settings.settleSec >= settings.stepSec) errors.push({ field: 'settleSec', message: W.settleTooLong({ settleSec: settings.settleSec, stepSec: settings.stepSec }) });
  if (errors.length > 0) return refused(errors);
  // The first and the last step must be runs the engine accepts; every step between lies within them.
  const seen = new Set<string>();
  for (const load of [settings.start, settings.max]) {
    for (const error of stepConfigErrors(base, settings, load)) {
      if (!seen.has(error)) errors.push({ field: 'steps', message: error });
      seen.add(error);
    }
  }
  return errors.length > 0 ? refused(errors) : { ok: true, settings };
}

function stepConfigErrors(base: RunConfig, settings: CapacitySettings, load: number): string[] {
  if (settings.ramp === 'rate') {
    const senders = sendersOf(base);
    const interval = (senders * 1_000) / load;
    if (interval < MIN_INTERVAL_MS) {
      return [W.rateTooFast({ rate: load.toLocaleString('en-US'), senders: senders.toLocaleString('en-US'), intervalMs: interval.toFixed(1), minMs: MIN_INTERVAL_MS, needed: Math.ceil((load * MIN_INTERVAL_MS) / 1_000).toLocaleString('en-US') })];
    }
  }
  const result = validateRunConfig(stepConfig(base, settings, load));
  return result.ok ? [] : result.errors.map((error) => `At ${load.toLocaleString('en-US')} ${RAMP_UNITS[settings.ramp]}: ${error}`);
}

/** Connections that send in the base configuration (every connection for echo). */
export function sendersOf(config: RunConfig): number {
  const plan = planScenario(config);
  return plan.ok ? plan.plan.senderCount : config.connections;
}

/** The run of one step: the base configuration at `load`, held for the step with its settle as warm-up. */
export function stepConfig(base: RunConfig, settings: CapacitySettings, load: number): RunConfig {
  const timing = { durationSec: settings.stepSec, warmupSec: settings.settleSec, drainSec: Math.min(base.drainSec, STEP_DRAIN_SEC) };
  if (settings.ramp === 'connections') {
    // Presets that scale with the connections (groups, senders) follow the step's count.
    return { ...base, ...timing, connections: load, workers: Math.min(base.workers, load) };
  }
  return { ...base, ...timing, sendIntervalMs: Math.max(MIN_INTERVAL_MS, Math.round((sendersOf(base) * 1_000) / load)) };
}

/** Messages sent per second the step's configuration plans (all senders together). */
export function plannedSendRate(config: RunConfig): number {
  return (sendersOf(config) * 1_000) / config.sendIntervalMs;
}

function describe(raw: unknown): string {
  if (raw === undefined || raw === null || raw === '') return 'empty';
  return typeof raw === 'string' ? `"${raw}"` : String(raw);
}
