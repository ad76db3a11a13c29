/**
 * A capacity search as one JSON document: the settings, every step with its figures, verdict and
 * who broke, and the finding. The runner writes it with --json; the dashboard keeps and exports
 * it. Self-describing (format and version) so later versions can read it. Pure.
 */
import { withLost, type Fates } from '../accounting/index.ts';
import { recentRates } from '../execution/index.ts';
import { type RunOutcome, type RunVerdict } from '../outcome/index.ts';
import { upgradeFates, type RunResult } from '../result/index.ts';
import { type InstanceFigures, type RunConfig } from '../run-config/index.ts';
import type { LatencySummary } from '../latency/index.ts';
import { bounds, breakConfirmed, type StepPhase, type JudgedLoad } from './next-load.ts';
import { plannedSendRate, type CapacitySettings } from './settings.ts';
import { judgeStep, stepHealth, type ClientContext, type LimitedBy, type StepHealth, type StepJudgement } from './step-judge.ts';
import { BenchError } from '../errors/index.ts';
import { isFault, type CauseId } from '../diagnosis/index.ts';
import { CAPACITY_WORDS as W } from './words.ts';

export const CAPACITY_FORMAT = 'signalr-live-bench/capacity';
/** 2: the fields version 1 grew without a bump always present; a version 1 document is brought to
 *  it at parse (upgradeCapacityResult). */
export const CAPACITY_VERSION = 2;
const READABLE_VERSIONS: readonly number[] = [1, CAPACITY_VERSION];

export interface CapacityStep {
  /** 1-based, in the order run. */
  index: number;
  phase: StepPhase;
  /** The ramp's load: connections, or messages sent per second for a rate ramp. */
  load: number;
  connections: number;
  sendIntervalMs: number;
  /** Messages sent per second the step planned (all senders); a rate ramp's load after rounding the interval. */
  plannedSendsPerSec: number;
  startedAt: string;
  outcome: RunOutcome;
  verdict: RunVerdict;
  fates: Fates;
  latency: LatencySummary;
  /** Mean of the step's whole seconds, messages per second (recentRates). */
  sentPerSec: number;
  receivedPerSec: number;
  /** Receptions the step planned per measured second: the load it offered (outbound). Absent in
   *  steps of version 1 searches that predate it: unknown (their step's measured seconds were not
   *  kept with it). */
  offeredPerSec?: number;
  /** Receptions that arrived in under 1 s per measured second, never above the offered load: the
   *  load it offered and kept, what the answer calls "held" and the tier share is taken from.
   *  (A mean of whole seconds runs above the offered rate when a lagging client bunches its sends
   *  into fewer seconds.) Steps of older searches hold their whole-second mean (`receivedPerSec`). */
  heldPerSec: number;
  /** Measured sends per measured second, never above the planned send rate (inbound, for the tier
   *  share). Steps of older searches hold their whole-second mean (`sentPerSec`). */
  heldSendsPerSec: number;
  connectionsOpened: number;
  health: StepHealth;
  judgement: StepJudgement;
  /** With several hub instances: the step's figures per instance (core/run-config/hub-instances.ts), so a
   *  break is put on the instance that broke. Absent for one instance, and in searches kept before. */
  instances?: InstanceFigures[];
}

/**
 * - found: a step broke above one that held; `held` is the highest load that held;
 * - atLeastMax: every step held, up to the maximum: the capacity is above it;
 * - firstStepFailed: even the first step broke;
 * - unjudged: a step could not be judged (stopped, nothing measured) before anything broke;
 * - fault: a step failed for a cause other than load (core/diagnosis isFault: the hub crashed,
 *   froze or refused, a set-up mistake): the search ended there with that cause, and whatever
 *   held before it is not a capacity.
 */
export type FindingKind = 'found' | 'atLeastMax' | 'firstStepFailed' | 'unjudged' | 'fault';

export interface CapacityFinding {
  kind: FindingKind;
  /** Who set the limit: the lowest failing step's attribution; null when nothing broke. */
  limitedBy: LimitedBy | null;
  /** Index of the highest step that held below the first that broke, or null. */
  heldStep: number | null;
  /** Index of the lowest step that broke, or null. */
  brokeStep: number | null;
  /** Whether the break failed again when its load was run once more (search-plan.ts
   *  breakConfirmed): true confirmed, false it held the second time, null not run again or
   *  nothing broke. */
  confirmed: boolean | null;
  /** fault: the cause that ended the search (the faulty step's diagnosis); absent otherwise. */
  cause?: CauseId;
}

export interface CapacityResult {
  format: typeof CAPACITY_FORMAT;
  version: typeof CAPACITY_VERSION;
  startedAt: string;
  /** The configuration every step starts from (the ramp changes connections or the interval). */
  base: RunConfig;
  settings: CapacitySettings;
  /** Where the load came from, e.g. "node v20.20.2" or the browser's user agent. */
  client: string;
  /** Most connections the client can hold (a browser's cap), null when none is known. */
  connectionCap: number | null;
  /** true while the search is still running (a record being written). */
  running: boolean;
  steps: CapacityStep[];
  finding: CapacityFinding;
}

/** One step's record from its run. */
export function stepOf(run: RunResult, index: number, phase: StepPhase, load: number, client: ClientContext): CapacityStep {
  const health = stepHealth(run, client);
  const rates = recentRates(run.points, Number.POSITIVE_INFINITY);
  const held = heldRates(run);
  return {
    index,
    phase,
    load,
    connections: run.config.connections,
    sendIntervalMs: run.config.sendIntervalMs,
    plannedSendsPerSec: plannedSendRate(run.config),
    startedAt: run.startedAt,
    outcome: run.outcome,
    verdict: run.verdict,
    fates: withLost(run.fates, run.fates.lost !== null),
    latency: run.latency,
    sentPerSec: rates.inboundPerSec,
    receivedPerSec: rates.outboundPerSec,
    ...held,
    connectionsOpened: run.totals.connectionsOpened,
    health,
    judgement: judgeStep(run, health),
    ...(run.instances ? { instances: run.instances } : {}),
  };
}

/**
 * The load a step offered and kept, per measured second (the run's duration after its warm-up):
 * planned receptions, those in under 1 s, and sends, each never above what was planned.
 */
export function heldRates(run: Pick<RunResult, 'config' | 'fates' | 'totals'>): Required<Pick<CapacityStep, 'offeredPerSec' | 'heldPerSec' | 'heldSendsPerSec'>> {
  const measuredSec = Math.max(1, run.config.durationSec - run.config.warmupSec);
  const offeredPerSec = run.fates.planned / measuredSec;
  return {
    offeredPerSec,
    heldPerSec: Math.min(offeredPerSec, run.fates.underOneSecond / measuredSec),
    heldSendsPerSec: Math.min(plannedSendRate(run.config), run.totals.sent / measuredSec),
  };
}

/** What the search plan needs of a step (search-plan.ts). */
export function judgedLoadOf(step: CapacityStep): JudgedLoad {
  const { passed, limitedBy } = step.judgement;
  return { load: step.load, phase: step.phase, passed, unreachable: passed === false && step.connectionsOpened === 0 && limitedBy !== 'client', fault: faultOf(step) !== null };
}

/**
 * The step's fault, or null: a cause other than load (its diagnosis), which ends the search. A
 * service that refused every connect of the step (a hub down behind a proxy answers 502 or 503)
 * was not carrying a load: a fault too, not a break.
 */
export function faultOf(step: Pick<CapacityStep, 'judgement' | 'connectionsOpened'>): CauseId | null {
  const diagnosis = step.judgement.diagnosis;
  if (step.judgement.passed === true || !diagnosis) return null;
  return isFault(diagnosis) || (diagnosis.cause === 'serviceRefused' && step.connectionsOpened === 0) ? diagnosis.cause : null;
}

/**
 * The instances a step broke on: those whose planned receptions fell below the guide's share in
 * under 1 s, worst first; empty for one instance, or when each held on its own (the break was
 * the whole run's: receivers absent, the client).
 */
export function instancesThatBroke(step: Pick<CapacityStep, 'instances'>, requiredShare: number): InstanceFigures[] {
  const share = (i: InstanceFigures) => (i.planned > 0 ? i.underOneSecond / i.planned : 1);
  return (step.instances ?? []).filter((i) => i.planned > 0 && share(i) < requiredShare).sort((a, b) => share(a) - share(b));
}

/** The finding from the steps run so far. */
export function findingOf(steps: readonly CapacityStep[]): CapacityFinding {
  const faulty = steps.find((s) => faultOf(s) !== null);
  if (faulty) {
    const held = steps.filter((s) => s.index < faulty.index && s.judgement.passed === true).sort((a, b) => b.load - a.load)[0] ?? null;
    // Nothing answering after earlier steps had connected is the hub gone, not a wrong address.
    // Nothing answering, or every connect refused, after earlier steps had connected is the hub
    // gone (the service's); at the first step it is the address (the set-up's).
    const earlierConnected = steps.some((s) => s.index < faulty.index && s.connectionsOpened > 0);
    const side = faulty.judgement.diagnosis!.side === 'setup' && !(faultOf(faulty) === 'unreachable' && earlierConnected) ? 'setup'
      : faultOf(faulty) === 'serviceRefused' && !earlierConnected ? 'setup' : 'service';
    return { kind: 'fault', limitedBy: side, heldStep: held?.index ?? null, brokeStep: faulty.index, confirmed: null, cause: faultOf(faulty)! };
  }
  const judged = steps.map(judgedLoadOf);
  const { held, broke } = bounds(judged);
  const heldStep = held === null ? null : steps.find((s) => s.load === held && s.judgement.passed === true)!.index;
  const broken = broke === null ? null : steps.find((s, i) => s.load === broke && s.judgement.passed === false && (!judged[i]!.unreachable || judged.every((j) => j.passed !== false || j.unreachable)))!;
  if (broken) return { kind: held === null ? 'firstStepFailed' : 'found', limitedBy: broken.judgement.limitedBy, heldStep, brokeStep: broken.index, confirmed: breakConfirmed(judged) };
  const unjudged = steps.some((s) => s.judgement.passed === null);
  return { kind: unjudged || steps.length === 0 ? 'unjudged' : 'atLeastMax', limitedBy: null, heldStep, brokeStep: null, confirmed: null };
}

export function stepByIndex(result: Pick<CapacityResult, 'steps'>, index: number | null): CapacityStep | null {
  return index === null ? null : (result.steps.find((s) => s.index === index) ?? null);
}

/** Reads a capacity document, saying what is wrong with a file that is not one. */
export function parseCapacityResult(text: string): CapacityResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new BenchError('parse', W.notJson({ message: error instanceof Error ? error.message : String(error) }));
  }
  return capacityFromValue(value);
}

export function capacityFromValue(value: unknown): CapacityResult {
  const doc = value as Partial<CapacityResult> | null;
  if (!doc || doc.format !== CAPACITY_FORMAT) {
    throw new BenchError('parse', W.notCapacity({ format: String(JSON.stringify(doc?.format)), expected: CAPACITY_FORMAT }));
  }
  if (!READABLE_VERSIONS.includes(doc.version as number)) {
    throw new BenchError('parse', W.unreadableVersion({ version: String(doc.version), readable: READABLE_VERSIONS }));
  }
  for (const key of ['base', 'settings', 'steps', 'finding'] as const) {
    if (doc[key] === undefined) throw new BenchError('parse', W.missingPart({ key }));
  }
  if (!Array.isArray(doc.steps)) throw new BenchError('parse', W.stepsNotList());
  return upgradeCapacityResult({ connectionCap: null, running: false, client: 'unknown', ...doc } as CapacityResult);
}

/**
 * A version 1 or 2 search in the current shape, once, where it is read: nothing downstream reads
 * a legacy step. Version 1 grew these without a bump, each filled with what its readers took for
 * an absent one: the held rates (the step's whole-second means), the step's never-sent reasons and
 * lost engines (0), its worst send lag (0: the event loop's lag stands alone), whether it kept its
 * schedule (null: unknown), and the break's confirmation (null: not run again).
 */
export function upgradeCapacityResult(result: CapacityResult): CapacityResult {
  const steps = result.steps.map((step) => ({
    ...step,
    heldPerSec: step.heldPerSec ?? step.receivedPerSec,
    heldSendsPerSec: step.heldSendsPerSec ?? step.sentPerSec,
    fates: upgradeFates(step.fates),
    health: { ...step.health, maxSendLagMs: step.health.maxSendLagMs ?? 0, keptSchedule: step.health.keptSchedule ?? null, workersLost: step.health.workersLost ?? 0 },
  }));
  return { ...result, version: CAPACITY_VERSION, steps, finding: { ...result.finding, confirmed: result.finding.confirmed ?? null } };
}
