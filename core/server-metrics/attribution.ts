/**
 * Which side set the limit of a run: the server, the client, both, or neither. The guide's first
 * advice is to keep the service's Server Load under 70%; a client that falls behind its own
 * schedule measures itself as much as the server (core/client/schedule.ts, the one rule). One rule
 * for the live summary, kept runs, the report and the runner.
 */
import { scheduleReasons } from '../client/index.ts';
import { formatCount } from '../format.ts';

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
  /** The client's own limits shown otherwise (core/client/evidence.ts: a lost engine, connects
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
      ? result('both', `Both sides fell short: the server ${stalled} and the client ${lag}. The figures describe both; run the client on another machine to tell them apart.`)
      : result('server', `The server ${stalled} while the client kept its schedule: the service is the limit.`);
  }
  if (cpu === null) {
    return clientLagged
      ? result('client', `The client ${lag}: the client is the limit (the server's load is unknown: no CPU reading from its metrics).`)
      : result('unknown', 'The client kept its schedule; the server\'s load is unknown (no CPU reading from its metrics), so which side sets the limit cannot be told.');
  }
  const cpuText = `${Math.round(cpu)}% CPU`;
  const saturated = unanswered > 0
    ? `stopped answering (${formatCount(unanswered)} reading${unanswered === 1 ? '' : 's'} of its metrics got no answer)`
    : stalled ?? (cpu >= SERVER_SATURATED_PERCENT ? `was at ${cpuText}` : null);
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
