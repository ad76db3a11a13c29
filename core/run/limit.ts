/**
 * The attribution rule (attribution.ts) over a run's own figures: the client's worst lateness
 * from its per-second points, the server's peak CPU from its metrics while the run sent. Live
 * views and kept runs call the same function, so both say the same words.
 */
import type { SecondPoint } from './aggregator.ts';
import type { RunResult } from './result.ts';
import { explainLimit, peakOf, type LimitExplanation, type ServerMetricsRecord, type ServerSecond } from '../server-metrics/index.ts';

type ClientSecond = Pick<SecondPoint, 'second' | 'maxSendLagMs' | 'eventLoopLagMs'> & { fates: Pick<SecondPoint['fates'], 'planned'> };

export interface RunLimitInput {
  points: readonly ClientSecond[];
  missedSlots: number;
  /** Sends made over the run. */
  sent: number;
  /** Absent in runs kept before server metrics, or when they were off. */
  server?: ServerMetricsRecord | null;
}

export function runLimit({ points, missedSlots, sent, server }: RunLimitInput): LimitExplanation {
  const clientLagMs = points.reduce((worst, p) => Math.max(worst, p.maxSendLagMs, p.eventLoopLagMs), 0);
  // Failures while nothing was ever read are an address or CORS problem, not a busy server.
  const serverUnanswered = server && server.points.length > 0 ? server.failedScrapes : 0;
  return explainLimit({ serverPeakCpuPercent: server ? peakOf(whileSending(server.points, points), 'cpuPercent') : null, serverUnanswered, clientLagMs, missedSlots, sent });
}

/** The limit of a kept run, from its own document: the summary, the report, Compare and the
 *  capacity search's steps say the same words about the same run. */
export function limitOfResult(result: Pick<RunResult, 'points' | 'totals' | 'server'>): LimitExplanation {
  return runLimit({ points: result.points, missedSlots: result.totals.missedSlots, sent: result.totals.sent, server: result.server });
}

/**
 * The server's seconds in which the run planned sends: opening and closing connections (and the
 * hub's own start-up) cost CPU the load itself does not, and would be taken for its peak. All of
 * them when no second planned anything (a run that failed at once).
 */
export function whileSending(serverPoints: readonly ServerSecond[], clientPoints: readonly ClientSecond[]): ServerSecond[] {
  const sending = new Set(clientPoints.filter((p) => p.fates.planned > 0).map((p) => p.second));
  return sending.size === 0 ? [...serverPoints] : serverPoints.filter((p) => sending.has(p.second));
}
