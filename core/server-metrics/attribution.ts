/**
 * Which side set the limit of a run: the server, the client, both, or neither. The guide's first
 * advice is to keep the service's Server Load under 70%; a client that falls behind its own
 * schedule measures itself as much as the server. One rule for the live summary, kept runs, the
 * report and the runner.
 */
import { formatCount, formatShare } from '../format.ts';

/** The guide's advice: keep server load under this, in %. */
export const SERVER_LOAD_ADVICE_PERCENT = 70;
/** From this CPU share on, the server is taken as saturated, in % of all cores. */
export const SERVER_SATURATED_PERCENT = 90;
/** A client whose sends or timers ran this late, in ms, did not keep its schedule: a quarter of
 *  the guide's 1 s budget. The summary, the runner and the capacity search's steps use this rule. */
export const CLIENT_LAG_LIMIT_MS = 250;
/** Share of its send slots a client may miss and still count as keeping its schedule: the guide's
 *  1% margin. A few missed slots at a high rate cost little; more than the margin can decide the rule. */
export const CLIENT_MISSED_SLOT_LIMIT = 0.01;

export interface LimitInput {
  /** The server's highest CPU share over the run, in % of all cores; null when unknown (no metrics). */
  serverPeakCpuPercent: number | null;
  /** Readings of its metrics that got no answer after others had: a server that stopped
   *  answering (stalled, killed) is at its limit whatever its CPU said before. Default 0. */
  serverUnanswered?: number;
  /** The client's worst lateness over the run (send lag or event-loop lag), in ms. */
  clientLagMs: number;
  /** Sends that missed their slot. */
  missedSlots: number;
  /** Sends made, the base of the missed-slot share. */
  sent: number;
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
  const lagReasons = clientLagReasons(input);
  const clientLagged = lagReasons.length > 0;
  const lag = lagReasons.join(' and ');
  const result = (side: LimitSide, sentence: string): LimitExplanation => ({ side, sentence });
  if (cpu === null) {
    return clientLagged
      ? result('client', `The client ${lag}: the client is the limit (the server's load is unknown: no CPU reading from its metrics).`)
      : result('unknown', 'The client kept its schedule; the server\'s load is unknown (no CPU reading from its metrics), so which side sets the limit cannot be told.');
  }
  const cpuText = `${Math.round(cpu)}% CPU`;
  const saturated = unanswered > 0
    ? `stopped answering (${formatCount(unanswered)} reading${unanswered === 1 ? '' : 's'} of its metrics got no answer)`
    : cpu >= SERVER_SATURATED_PERCENT ? `was at ${cpuText}` : null;
  if (saturated && clientLagged) {
    return result('both', `Both sides were saturated: the server ${saturated} and the client ${lag}. The figures describe both; run the client on another machine to tell them apart.`);
  }
  if (saturated) {
    return result('server', `The server ${saturated} while the client kept its schedule: the service is the limit.`);
  }
  if (clientLagged) {
    return result('client', `The client ${lag} while the server peaked at ${cpuText}: the client is the limit.`);
  }
  if (cpu >= SERVER_LOAD_ADVICE_PERCENT) {
    return result('near', `The server peaked at ${cpuText}, above the guide's advice to stay under ${SERVER_LOAD_ADVICE_PERCENT}%, while the client kept its schedule: the service is near its limit.`);
  }
  return result('neither', `Neither was saturated: the server peaked at ${cpuText} and the client kept its schedule.`);
}

/**
 * How the client fell behind its schedule, worded ("lagged 800 ms", "missed 40 send slots (4.00%
 * of its sends)"); empty when it kept it. One rule for the summary and the capacity search.
 */
export function clientLagReasons({ clientLagMs, missedSlots, sent }: Pick<LimitInput, 'clientLagMs' | 'missedSlots' | 'sent'>): string[] {
  const missedShare = sent > 0 ? missedSlots / sent : 0;
  return [
    ...(clientLagMs >= CLIENT_LAG_LIMIT_MS ? [`lagged ${formatCount(Math.round(clientLagMs))} ms`] : []),
    ...(missedShare > CLIENT_MISSED_SLOT_LIMIT ? [`missed ${formatCount(missedSlots)} send slot${missedSlots === 1 ? '' : 's'} (${formatShare(missedShare)} of its sends)`] : []),
  ];
}
