/**
 * The attribution rule (attribution.ts) over a run's own figures: the client's worst lateness
 * from its per-second points, the server's peak CPU from its metrics. Live views and kept runs
 * call the same function, so both say the same words.
 */
import type { SecondPoint } from '../run-aggregator.ts';
import { explainLimit, type LimitExplanation } from './attribution.ts';
import { peakOf, type ServerMetricsRecord } from './series.ts';

export interface RunLimitInput {
  points: readonly Pick<SecondPoint, 'maxSendLagMs' | 'eventLoopLagMs'>[];
  missedSlots: number;
  /** Absent in runs kept before server metrics, or when they were off. */
  server?: ServerMetricsRecord | null;
}

export function runLimit({ points, missedSlots, server }: RunLimitInput): LimitExplanation {
  const clientLagMs = points.reduce((worst, p) => Math.max(worst, p.maxSendLagMs, p.eventLoopLagMs), 0);
  // Failures while nothing was ever read are an address or CORS problem, not a busy server.
  const serverUnanswered = server && server.points.length > 0 ? server.failedScrapes : 0;
  return explainLimit({ serverPeakCpuPercent: server ? peakOf(server.points, 'cpuPercent') : null, serverUnanswered, clientLagMs, missedSlots });
}
