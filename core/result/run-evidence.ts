/**
 * A run's evidence for the diagnosis (core/diagnosis), gathered from its own document: the
 * outcome and its code, the fates, the connects by cause, every distinct failure, the server's
 * metrics, the client's schedule and limits, and the settings that change what a failure means.
 * A kept run without a diagnosis (one kept before) is diagnosed from the same document, so the
 * page, the reports and the runner say the same about it. Pure.
 */
import { diagnose, browserFetchFailed, type Diagnosis, type HealthCheck, type RunEvidence, type ServerEvidence } from '../diagnosis/index.ts';
import { clientSchedule } from '../client/index.ts';
import { profileOfRun } from '../profiles/index.ts';
import type { ServerMetricsRecord } from '../server-metrics/index.ts';
import { lostOf, notSentOf } from '../accounting/index.ts';
import { drained } from '../outcome/index.ts';
import { sameInstancePairs } from '../run-config/index.ts';
import { clientLimitsOf, limitOfResult, whileSending } from './limit.ts';
import type { RunResult } from './result.ts';
import type { SecondPoint } from '../execution/index.ts';

/** What the document alone cannot say: whether tokens were given (never which), and in a browser
 *  whether the endpoint's origin answered a no-cors request after a negotiate failed. */
export interface EvidenceContext {
  hasToken?: boolean;
  originAnswered?: boolean | null;
  /** Endpoints that reach one instance (core/run-config/instance-identity.ts); null when none. */
  sameInstance?: string[] | null;
  /** The hubs' /healthz read at the run's end (the runner, for a run that did not pass). */
  health?: HealthCheck[];
}

export type EvidenceFigures = Pick<RunResult, 'config' | 'client' | 'outcome' | 'verdict' | 'fates' | 'totals' | 'points' | 'server' | 'connectCauses' | 'errorSamples' | 'workers' | 'workerFailures' | 'health' | 'instances'>;

export function evidenceOfRun(result: EvidenceFigures, context: EvidenceContext = {}): RunEvidence {
  const { config, totals, fates, outcome } = result;
  const schedule = clientSchedule({ points: result.points, missedSlots: totals.missedSlots, sent: totals.sent });
  const lostWorkers = result.workers.filter((w) => w.lost);
  return {
    outcome: { kind: outcome.kind, ...(outcome.code ? { code: outcome.code } : {}), ...(outcome.reason ? { reason: outcome.reason } : {}), ...(outcome.textNotFound ? { textNotFound: outcome.textNotFound } : {}) },
    verdict: result.verdict.status,
    planned: fates.planned,
    lost: lostOf(fates, drained(outcome)),
    notSent: notSentOf(fates),
    late: fates.late + fates.afterDrain,
    connections: config.connections,
    connectionsOpened: totals.connectionsOpened,
    connectionsFailed: totals.connectionsFailed,
    disconnects: totals.disconnects,
    reconnects: totals.reconnects,
    sent: totals.sent,
    received: totals.received,
    unsolicited: totals.unsolicited ?? 0,
    connectCauses: { ...result.connectCauses },
    failures: [...result.errorSamples].sort((a, b) => b.count - a.count).map(({ kind, message, count }) => ({ kind, message, count })),
    silentSecondsAtEnd: silentSecondsAtEnd(result.points),
    workersLost: {
      client: lostWorkers.filter((w) => (w.lostSide ?? 'client') === 'client').length,
      service: lostWorkers.filter((w) => w.lostSide === 'service').length,
      unknown: lostWorkers.filter((w) => w.lostSide === 'unknown').length,
    },
    stoppedAnsweringConnects: result.connectCauses?.stoppedAnswering ?? 0,
    client: { keptSchedule: schedule.kept, limits: [...schedule.reasons, ...clientLimitsOf(result)] },
    server: serverEvidence(result.server, result.points),
    limit: limitOfResult(result),
    settings: {
      endpointUrl: config.endpointUrl,
      transport: config.transport,
      sendIntervalMs: config.sendIntervalMs,
      messageBytes: config.messageBytes,
      skipNegotiation: config.skipNegotiation ?? false,
      hasToken: context.hasToken ?? false,
      reconnect: config.reconnect,
      plannedDrop: config.dropAtSec !== null && config.dropAtSec !== undefined,
      receiveMethod: config.hubProfile ? profileOfRun(config).receive?.method ?? null : null,
      sameInstance: context.sameInstance ?? sameInstanceOf(config.endpointUrls ?? []),
      browser: !/^node v/.test(result.client),
    },
    originAnswered: context.originAnswered ?? null,
    health: context.health ?? result.health ?? [],
    instances: (result.instances ?? []).map((i) => ({ endpointUrl: i.endpointUrl, opened: i.connectionsOpened, failed: i.connectionsFailed })),
  };
}

/** The run's diagnosis: the one kept in its document, else made from it (a run kept before). */
export function diagnosisOf(result: EvidenceFigures & { diagnosis?: Diagnosis }): Diagnosis {
  return result.diagnosis ?? diagnose(evidenceOfRun(result));
}

/**
 * Sending seconds in a row, at the end of the sending window, in which nothing at all was
 * received and none of whose planned receptions ever arrived (not in time, not late, not after the
 * drain), after a second whose receptions did: a hub that stopped delivering for good. A slow hub,
 * or one at its load with messages still queued when the drain ends, still delivers older ones in
 * those seconds; one paused by a long garbage collection delivers them late; a frozen or dead one
 * does neither.
 */
export function silentSecondsAtEnd(points: readonly Pick<SecondPoint, 'second' | 'fates' | 'received'>[]): number {
  const arrived = (p: Pick<SecondPoint, 'fates'>) => p.fates.underOneSecond + p.fates.late + p.fates.afterDrain;
  const sending = points.filter((p) => p.fates.planned > 0);
  if (!sending.some((p) => arrived(p) > 0)) return 0;
  let silent = 0;
  for (let i = sending.length - 1; i >= 0 && arrived(sending[i]!) === 0 && sending[i]!.received === 0; i--) silent++;
  return silent;
}

function serverEvidence(server: ServerMetricsRecord | undefined, points: readonly SecondPoint[]): ServerEvidence | null {
  if (!server) return null;
  const answered = server.points.length;
  const peaks = whileSending(server.points, points).map((p) => p.cpuPercent).filter((cpu): cpu is number => cpu !== null);
  return {
    answered,
    unansweredAfterAnswers: answered > 0 ? server.failedScrapes : 0,
    peakCpuPercent: peaks.length > 0 ? Math.max(...peaks) : null,
    restarted: server.points.some((p) => p.restarted === true),
    backplaneDown: server.points.some((p) => p.backplaneUp === 0),
  };
}

/** The first two endpoints that spell one instance (a run kept before they were refused). */
function sameInstanceOf(urls: readonly string[]): string[] | null {
  const pair = sameInstancePairs(urls)[0];
  return pair ? [pair.first, pair.second] : null;
}

/** Whether the run's failure needs the page to ask whether the endpoint's origin answers: nothing
 *  opened, and a browser's fetch failed with no status (nothing there, or CORS). */
export function needsOriginProbe(result: Pick<RunResult, 'totals' | 'errorSamples'>): boolean {
  return result.totals.connectionsOpened === 0 && browserFetchFailed(result.errorSamples);
}
