/**
 * The verdict on one step of a capacity search, and who broke when it failed, by evidence. Pure.
 *
 * A step holds when its run finished and passed the guide's rule over every planned reception
 * (core/outcome/outcome.ts). A failing step's first reason names what failed it: receptions lost,
 * never sent, late, connections that did not open; never a figure that passed. Who broke:
 * - the *client*, when anything shows its own limits (core/client/own-limits.ts: an engine thread
 *   or agent lost, connects it could not open for want of file descriptors or ports, a browser's
 *   cap or queue), or when it did not keep its schedule (core/client/schedule.ts, the one rule);
 * - the *service*, when the client kept its schedule and still receptions were lost, late or
 *   never sent, or the service refused, reset or did not answer connects, or its own metrics
 *   show it saturated;
 * - `unknown` when neither side is shown (the client's schedule was never measured and nothing
 *   says why connects failed): said as such, and never a capacity.
 * A step in which no connection opened is judged the same way, from why the connects failed.
 */
import { clientLimitReasons, clientSchedule, scheduleReasons, sendingSeconds, causesText, failuresOfSide, type ConnectCauseCounts } from '../client/index.ts';
import { formatCount, formatMs } from '../format.ts';
import { lostOf, notSentOf, NOT_SENT_REASONS, type NotSentReason } from '../accounting/index.ts';
import { drained } from '../outcome/index.ts';
import { limitOfResult, diagnosisOf, type RunResult } from '../result/index.ts';
import { GUIDE_LATENCY_LIMIT_US } from '../latency/index.ts';
import { isFault, type Diagnosis } from '../diagnosis/index.ts';
import { CAPACITY_WORDS as W } from './words.ts';

/** Who broke a step: the service, the client, the set-up (a cause the user must change), or unknown. */
export type LimitedBy = 'service' | 'client' | 'setup' | 'unknown';

export interface ClientContext {
  /** Most connections this client can hold (a browser's cap), null when it has none known. */
  connectionCap: number | null;
}

/** The client's own health over a step's sending seconds (core/client/schedule.ts). */
export interface StepHealth {
  /** Worst event-loop lag of any worker over the sending seconds, ms. */
  maxEventLoopLagMs: number;
  /** Worst lateness of a send against its planned time over the sending seconds, ms. */
  maxSendLagMs: number;
  missedSlots: number;
  /** Missed slots over sends, 0..1; null when nothing was sent. */
  missedSlotShare: number | null;
  connectionsFailed: number;
  connectionCap: number | null;
  /** Whether it kept its schedule by the one rule; null when no second was reported (or, in an
   *  upgraded version 1 search, unknown). */
  keptSchedule: boolean | null;
  /** Failed connects by cause; absent in searches kept before causes were counted. */
  connectCauses?: ConnectCauseCounts;
  /** Engines (threads, agents) lost during the step. */
  workersLost: number;
}

export interface StepJudgement {
  /** true held, false broke, null could not be judged (stopped, nothing measured, interrupted). */
  passed: boolean | null;
  /** Who broke; null when the step held or could not be judged. */
  limitedBy: LimitedBy | null;
  /** Why, worded for people: the first is the main reason. */
  reasons: string[];
  /** The step run's diagnosis (core/diagnosis). Only `load` makes a break a capacity: a step whose
   *  cause is a fault (isFault: a set-up mistake, a hub that crashed, froze or refused) ends the
   *  search with that cause. Absent in searches kept before. */
  diagnosis?: Diagnosis;
}

type StepRun = Pick<RunResult, 'config' | 'client' | 'outcome' | 'verdict' | 'fates' | 'totals' | 'latency' | 'points' | 'workers' | 'workerFailures' | 'server' | 'connectCauses' | 'errorSamples' | 'diagnosis'>;

export function stepHealth(run: StepRun, client: ClientContext): StepHealth {
  const { missedSlots, sent, connectionsFailed } = run.totals;
  const window = sendingSeconds(run.points);
  const inWindow = run.points.filter((p) => window.has(p.second));
  return {
    maxEventLoopLagMs: Math.max(0, ...inWindow.map((p) => p.eventLoopLagMs)),
    maxSendLagMs: Math.max(0, ...inWindow.map((p) => p.maxSendLagMs)),
    missedSlots,
    missedSlotShare: sent > 0 ? missedSlots / sent : null,
    connectionsFailed,
    connectionCap: client.connectionCap,
    keptSchedule: clientSchedule({ points: run.points, missedSlots, sent }).kept,
    connectCauses: { ...run.connectCauses },
    workersLost: Math.max(run.workers.filter((w) => w.lost).length, run.workerFailures.length),
  };
}

export function judgeStep(run: StepRun, health: StepHealth): StepJudgement {
  const diagnosis = diagnosisOf(run);
  const judgement = judgeByHealth(run, health);
  // A fault is said as the diagnosis says it, whatever the figures: a crashed hub is not a capacity.
  if (judgement.passed !== true && isFault(diagnosis)) {
    // A set-up mistake measured nothing about load: not judged. A service's fault broke the step.
    return { passed: diagnosis.side === 'setup' ? null : false, limitedBy: diagnosis.side === 'setup' ? 'setup' : 'service', reasons: [diagnosis.sentence, ...judgement.reasons], diagnosis };
  }
  if (judgement.passed !== false) return { ...judgement, diagnosis };
  // Who broke is the diagnosis's word, the one the run's Why line says: the step's own reading
  // only words it. Refusals with a status are said with it.
  // The client's own limits the run's document cannot hold (a browser's cap) stay the client's.
  const limitedBy = judgement.limitedBy === 'client' ? 'client' : LIMITED_BY_CAUSE[diagnosis.cause] ?? judgement.limitedBy;
  const reasons = diagnosis.cause === 'serviceRefused' ? [diagnosis.sentence, ...judgement.reasons] : limitedBy === judgement.limitedBy ? judgement.reasons : [diagnosis.sentence, ...judgement.reasons];
  return { ...judgement, limitedBy, reasons, diagnosis };
}

/** Who broke a step, by its diagnosis's cause; absent: the step's own reading decides (a pass, a drop). */
const LIMITED_BY_CAUSE: Partial<Record<Diagnosis['cause'], LimitedBy>> = {
  load: 'service',
  serviceRefused: 'service',
  clientLimit: 'client',
  // Both sides at their limit: not the service's capacity, as the client's own limit is not.
  bothLimits: 'client',
  unknown: 'unknown',
};

function judgeByHealth(run: StepRun, health: StepHealth): StepJudgement {
  const { outcome, verdict } = run;
  // Connects the address itself refused (404, 401, 403), or a hub that needs the negotiate the
  // run skipped, say nothing about load: nothing measured.
  const refusedByAddress = (health.connectCauses?.addressRefused ?? 0) + (health.connectCauses?.negotiationSkipped ?? 0);
  const addressOnly = run.totals.connectionsFailed > 0 && refusedByAddress >= run.totals.connectionsFailed;
  // A step in which nothing opened is judged by why its connects failed; one that planned nothing
  // otherwise (its hub refused the scenario's method) measured nothing and has no verdict. One that
  // lost every connection after "go" ended early as failed (core/execution/coordinator.ts) and is judged
  // on what it measured, like a finished one.
  const couldNotConnect = outcome.kind === 'failed' && !addressOnly && (run.totals.connectionsFailed > 0 || health.workersLost > 0);
  if (outcome.kind === 'failed' && run.fates.planned === 0 && !couldNotConnect) return { passed: null, limitedBy: null, reasons: [`nothing could be measured: ${outcome.reason ?? 'see the errors'}`] };
  if (outcome.kind !== 'finished' && outcome.kind !== 'failed') return { passed: null, limitedBy: null, reasons: [`the step did not finish (${outcome.kind}), so it has no verdict`] };
  if (verdict.status === 'pass') return { passed: true, limitedBy: null, reasons: [verdict.sentence] };
  // No verdict (the agents' clocks could not decide): neither held nor broke.
  if (verdict.status === 'none') return { passed: null, limitedBy: null, reasons: [`the step has no verdict: ${verdict.sentence}`] };
  const failed = whatFailed(run, health.connectCauses);
  const what = failed.length > 0 ? failed.join('; ') : verdict.sentence.replace(/\.$/, '');
  // The server's side from its metrics, when they were read: the same sentence as the run summary's.
  const server = run.server ? limitOfResult(run) : null;
  const client = clientReasons(run, health);
  if (client.length > 0) {
    const both = server?.side === 'both' ? [server.sentence] : [];
    return { passed: false, limitedBy: 'client', reasons: [`the client ${client.join(' and ')}`, ...failed, ...both, verdict.sentence] };
  }
  const serverLoad = server && (server.side === 'server' || server.side === 'near') ? [server.sentence] : [];
  const service = serviceEvidence(run, health);
  if (service !== null || serverLoad.length > 0) {
    return { passed: false, limitedBy: 'service', reasons: [`${what}${service ?? ''}`, ...serverLoad, verdict.sentence] };
  }
  const why = W.scheduleUnmeasured({ measured: health.keptSchedule === false || health.keptSchedule === true });
  return { passed: false, limitedBy: 'unknown', reasons: [`${what}; which side failed is unknown (${why})`, verdict.sentence] };
}

/** What in the client's own health and limits can explain a failure, worded to follow "the client"; empty when nothing does. */
export function clientReasons(run: Pick<StepRun, 'config' | 'totals' | 'workers' | 'workerFailures'>, health: StepHealth): string[] {
  const limits = clientLimitReasons({
    connections: run.config.connections,
    connectionsFailed: health.connectionsFailed,
    connectCauses: health.connectCauses,
    workers: run.workers,
    workerFailures: run.workerFailures,
    connectionCap: health.connectionCap,
  });
  const lag = scheduleReasons(Math.max(health.maxEventLoopLagMs, health.maxSendLagMs), health.missedSlots, run.totals.sent);
  return [...limits, ...lag];
}

/**
 * What shows the service failed the step, worded to follow what failed; null when nothing does:
 * connects it refused, reset or left unanswered, or receptions lost, late or held back on open
 * connections while the client kept its schedule.
 */
function serviceEvidence(run: StepRun, health: StepHealth): string | null {
  const refused = failuresOfSide(health.connectCauses, 'service');
  const { fates, totals } = run;
  const held = (fates.notSent.backedUp ?? 0) + (fates.notSent.reconnecting ?? 0) + (fates.notSent.writeFailed ?? 0) + (totals.disconnects > 0 ? fates.notSent.disconnected ?? 0 : 0);
  const deliveryFailed = (lostOf(fates, drained(run.outcome)) ?? 0) > 0 || fates.late + fates.afterDrain > 0 || held > 0;
  // Its schedule speaks for the receptions it sent; of connects alone it says nothing.
  if (health.keptSchedule === true && deliveryFailed) return ' while the client kept its schedule';
  return refused > 0 ? '' : null;
}

const NOT_SENT_WORDS: Record<NotSentReason, string> = W.notSent;

/** What failed the step, biggest first: lost, never sent (why), late, connections not opened (why). */
function whatFailed(run: StepRun, causes: ConnectCauseCounts | undefined): string[] {
  const { fates, latency, totals, config } = run;
  const parts: string[] = [];
  const of = fates.planned > 0 ? ` of ${formatCount(fates.planned)}` : '';
  const lost = lostOf(fates, drained(run.outcome));
  if (lost !== null && lost > 0) parts.push(`${formatCount(lost)}${of} planned receptions were lost`);
  const notSent = notSentOf(fates);
  if (notSent > 0) {
    const why = NOT_SENT_REASONS.filter((r) => (fates.notSent[r] ?? 0) > 0).map((r) => `${formatCount(fates.notSent[r])} ${NOT_SENT_WORDS[r]}`);
    parts.push(`${formatCount(notSent)}${of} were never sent (${why.join(', ')})`);
  }
  const late = fates.late + fates.afterDrain;
  // The p99 is named only when it is itself past the guide's 1 s: a p99 that passes explains nothing.
  if (late > 0) parts.push(`${formatCount(late)}${of} arrived 1 s or more after their planned time${latency.p99Us !== null && latency.p99Us >= GUIDE_LATENCY_LIMIT_US ? ` (p99 ${formatMs(latency.p99Us)})` : ''}`);
  const why = causesText(causes);
  if (totals.connectionsFailed > 0) parts.push(`${formatCount(totals.connectionsFailed)} of ${formatCount(config.connections)} connections failed to open${why ? ` (${why})` : ''}`);
  if (totals.duplicated > 0) parts.push(`${formatCount(totals.duplicated)} arrived more than once`);
  if ((fates.overCount ?? 0) > 0) parts.push(`${formatCount(fates.overCount!)} were counted beyond the plan (an accounting error)`);
  return parts;
}

/** "client-limited" / "service-limited" / "cause unknown", for lines and cards. */
export function limitedByText(limitedBy: LimitedBy | null): string {
  return limitedBy === 'client' ? 'client-limited' : limitedBy === 'service' ? 'service-limited' : limitedBy === 'setup' ? 'set-up' : limitedBy === 'unknown' ? 'cause unknown' : '';
}
