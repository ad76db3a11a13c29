/**
 * The attribution rule (attribution.ts) over a run's own figures, both sides over one window,
 * the sending seconds (core/client/schedule.ts): the client's worst lateness from its per-second
 * points, the server's peak CPU from its metrics. Live views and kept runs call the same
 * function, so both say the same words.
 */
import { clientSchedule, sendingSeconds, clientLimitReasons, type ClientSecond, type ConnectCauseCounts } from '../client/index.ts';
import type { RunResult } from './result.ts';
import { explainLimit, peakOf, type LimitExplanation, type ServerMetricsRecord, type ServerSecond } from '../server-metrics/index.ts';
import type { SecondPoint, WorkerHealth } from '../execution/index.ts';
import { RESULT_WORDS } from './words.ts';

export interface RunLimitInput {
  points: readonly ClientSecond[];
  missedSlots: number;
  /** Sends made over the run. */
  sent: number;
  /** Absent in runs kept before server metrics, or when they were off. */
  server?: ServerMetricsRecord | null;
  /** The client's own limits (core/client/own-limits.ts); none when absent. */
  clientLimits?: readonly string[];
  /** The run's workers with their sides (core/outcome/worker-loss.ts): agents alive whose reports the
   *  run's hub, their control hub, stopped relaying show the hub stalled. */
  workers?: readonly Pick<WorkerHealth, 'lost' | 'lostSide'>[];
  /** Failed connects by cause: connects not tried because the hub stopped answering them mid-ramp
   *  (workers/engine/connection-pool.ts) show it stalled. */
  connectCauses?: ConnectCauseCounts;
}

export function runLimit({ points, missedSlots, sent, server, clientLimits, workers, connectCauses }: RunLimitInput): LimitExplanation {
  const clientLagMs = clientSchedule({ points, missedSlots, sent }).lagMs ?? 0;
  // Failures while nothing was ever read are an address or CORS problem, not a busy server.
  const serverUnanswered = server && server.points.length > 0 ? server.failedScrapes : 0;
  const stalledRelays = (workers ?? []).filter((w) => w.lost && w.lostSide === 'service').length;
  const notAnswered = connectCauses?.stoppedAnswering ?? 0;
  const stalls = [
    ...(notAnswered > 0 ? [RESULT_WORDS.stoppedAnsweringConnects({ notAnswered })] : []),
    ...(stalledRelays > 0 ? [RESULT_WORDS.stoppedRelaying({ threads: stalledRelays })] : []),
  ];
  const serverStalled = stalls.length > 0 ? stalls.join(' and ') : null;
  return explainLimit({ serverPeakCpuPercent: server ? peakOf(whileSending(server.points, points), 'cpuPercent') : null, serverUnanswered, clientLagMs, missedSlots, sent, clientLimits, serverStalled });
}

/** The limit of a kept run, from its own document: the summary, the report, Compare and the
 *  capacity search's steps say the same words about the same run. */
export function limitOfResult(result: LimitFigures): LimitExplanation {
  return runLimit({ points: result.points, missedSlots: result.totals.missedSlots, sent: result.totals.sent, server: result.server, clientLimits: clientLimitsOf(result), workers: result.workers, connectCauses: result.connectCauses });
}

/** The figures of a run the limit is read from. */
export type LimitFigures = Pick<RunResult, 'config' | 'points' | 'totals' | 'server' | 'connectCauses' | 'workers' | 'workerFailures'>;

/** The client's own limits in a kept run (core/client/own-limits.ts). */
export function clientLimitsOf(result: Omit<LimitFigures, 'points' | 'server'>): string[] {
  return clientLimitReasons({
    connections: result.config.connections,
    connectionsFailed: result.totals.connectionsFailed,
    connectCauses: result.connectCauses,
    workers: result.workers,
    workerFailures: result.workerFailures,
  });
}

/**
 * The server's seconds in which the run planned sends: opening and closing connections (and the
 * hub's own start-up) cost CPU the load itself does not, and would be taken for its peak. All of
 * them when no second planned anything (a run that failed at once).
 */
export function whileSending(serverPoints: readonly ServerSecond[], clientPoints: readonly ClientSecond[]): ServerSecond[] {
  if (!clientPoints.some((p) => p.fates.planned > 0)) return [...serverPoints];
  const sending = sendingSeconds(clientPoints);
  return serverPoints.filter((p) => sending.has(p.second));
}
