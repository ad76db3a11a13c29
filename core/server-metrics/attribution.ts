/**
 * Which side set the limit of a run: the server, the client, both, or neither. The guide's first
 * advice is to keep the service's Server Load under 70%; a client that falls behind its own
 * schedule measures itself as much as the server (core/client/schedule.ts, the one rule). One rule
 * for the live summary, kept runs, the report and the runner.
 */
import { scheduleReasons } from '../client/index.ts';
import { formatCount } from '../format.ts';
import { SERVER_METRICS_WORDS as W } from './words.ts';

/** The guide's advice: keep server load under this, in %. */
export const SERVER_LOAD_ADVICE_PERCENT = 70;
/** From this CPU share on, the server is taken as saturated, in % of all cores. */
export const SERVER_SATURATED_PERCENT = 90;
export interface LimitInput {
  /** The server's highest CPU share over the run, in % of all cores; null when unknown (no metrics). */
  serverPeakCpuPercent: number | null;
  /** Readings of its metrics that got no answer after others had: a server that stopped
   *  answering (stalled, killed) is at its limit whatever its CPU said before. Default 0. */
  serverUnanswered?: number;
  /** The client's worst lateness over the sending seconds (send lag or event-loop lag), in ms. */
  clientLagMs: number;
  /** Sends that missed their slot. */
  missedSlots: number;
  /** Sends made, the base of the missed-slot share. */
  sent: number;
  /** The client's own limits shown otherwise (core/client/own-limits.ts: a lost engine, connects
   *  it could not open for want of file descriptors or ports), worded to follow "the client". */
  clientLimits?: readonly string[];
  /** The run's own evidence that the hub stalled, worded to follow "the server" (core/result/limit.ts:
   *  agents alive whose reports it stopped relaying); null or absent when none. */
  serverStalled?: string | null;
}

export type LimitSide = 'server' | 'client' | 'both' | 'near' | 'neither' | 'unknown';

export interface LimitExplanation {
  side: LimitSide;
  /** One sentence for people. */
  sentence: string;
}

export function explainLimit(input: LimitInput): LimitExplanation {
  const { serverPeakCpuPercent: cpu } = input;
  const unanswered = input.serverUnanswered ?? 0;
  const lagReasons = [...scheduleReasons(input.clientLagMs, input.missedSlots, input.sent), ...(input.clientLimits ?? [])];
  const clientLagged = lagReasons.length > 0;
  const lag = lagReasons.join(' and ');
  const result = (side: LimitSide, sentence: string): LimitExplanation => ({ side, sentence });
  const stalled = input.serverStalled ?? null;
  if (cpu === null && stalled) {
    return clientLagged
      ? result('both', W.bothFellShort({ server: stalled, client: lag }))
      : result('server', W.serverLimit({ server: stalled }));
  }
  if (cpu === null) {
    return clientLagged
      ? result('client', W.clientLimitNoCpu({ client: lag }))
      : result('unknown', W.unknownSide());
  }
  const cpuText = W.cpu({ percent: Math.round(cpu) });
  const saturated = unanswered > 0
    ? W.stoppedAnswering({ count: formatCount(unanswered), one: unanswered === 1 })
    : stalled ?? (cpu >= SERVER_SATURATED_PERCENT ? W.wasAt({ cpu: cpuText }) : null);
  if (saturated && clientLagged) {
    return result('both', W.bothSaturated({ server: saturated, client: lag }));
  }
  if (saturated) {
    return result('server', W.serverLimit({ server: saturated }));
  }
  if (clientLagged) {
    return result('client', W.clientLimit({ client: lag, cpu: cpuText }));
  }
  if (cpu >= SERVER_LOAD_ADVICE_PERCENT) {
    return result('near', W.nearLimit({ cpu: cpuText, advicePercent: SERVER_LOAD_ADVICE_PERCENT }));
  }
  return result('neither', W.neither({ cpu: cpuText }));
}
