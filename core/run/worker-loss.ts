/**
 * Whose loss a lost worker is, and how that is said: one rule for the coordinator (when it gives a
 * worker up), the run's document (each lost worker's side), the verdict (outcome.ts), the client's
 * evidence (core/client/evidence.ts) and the runner's exit reasons, so page, runner and report
 * name the same side.
 *
 * A worker of the lead's own (a Web Worker, an engine thread) that crashes or goes silent is the
 * client's. So is an agent the control hub says left (killed, its network gone: the hub saw its
 * connection close), and an agent that alone went silent while the others' reports still came
 * through the control hub. But an agent's reports are relayed by the control hub (by default the
 * run's own hub): when they stopped together with the hub's (nothing from any agent for half the
 * silence, or the lead's connection to it closed), the lead cannot tell a dead agent from a
 * stalled hub. Then the side is unknown, or the service's when the control hub is the run's hub
 * and the agent answered the run's closing clock round once the hub was back: it was alive, so
 * its silence was the hub's.
 */
import { formatCount } from '../format.ts';

/** Whose loss: the client's, the service's (the run's hub), or unknown. */
export type LossSide = 'client' | 'service' | 'unknown';

/** What a worker's reports travel through besides its own port: an agent's control hub. */
export interface RelayState {
  /** The control hub's address. */
  url: string;
  /** Whether it is the run's own hub (same origin as one of the run's endpoints). */
  isRunHub: boolean;
  /** How long nothing came through it from any agent (nor any word of the hub about one), ms;
   *  Infinity once the lead's connection to it closed. */
  quietMs: number;
}

/** How a worker was lost, as the coordinator saw it then. */
export interface WorkerLoss {
  workerIndex: number;
  /** failed: it said so, or its agent left; silent: no report for the watchdog's limit;
   *  relayQuiet: no report, and the control hub relaying it went quiet too (or was lost). */
  how: 'failed' | 'silent' | 'relayQuiet';
  /** With relayQuiet: the control hub. */
  relay?: { url: string; isRunHub: boolean };
}

/** The control hub went quiet together with this worker: nothing from any agent for half its silence. */
export function relayWentQuiet(silentMs: number, relay: RelayState | undefined): boolean {
  return relay !== undefined && relay.quietMs >= silentMs / 2;
}

/**
 * The side of a loss once the run has ended. `answeredAfter`: whether the worker's agent answered
 * the closing clock round (null: no agent, or the round was not taken).
 */
export function lossSide(loss: WorkerLoss, answeredAfter: boolean | null): LossSide {
  if (loss.how !== 'relayQuiet') return 'client';
  return answeredAfter === true && loss.relay?.isRunHub ? 'service' : 'unknown';
}

/** Each lost worker's side, by worker index, given the run's agents and their closing clock rounds. */
export function lossSides(losses: readonly WorkerLoss[], agents?: readonly { firstWorkerIndex: number; threads: number; clockEnd?: unknown }[]): Map<number, LossSide> {
  const sides = new Map<number, LossSide>();
  for (const loss of losses) {
    const agent = agents?.find((a) => loss.workerIndex >= a.firstWorkerIndex && loss.workerIndex < a.firstWorkerIndex + a.threads);
    sides.set(loss.workerIndex, lossSide(loss, agent && agent.clockEnd !== undefined ? agent.clockEnd !== null : null));
  }
  return sides;
}

/** Why the watchdog gave a worker up, worded for people (the coordinator's failure line). */
export function silenceText(workerIndex: number, silentMs: number, loss: WorkerLoss): string {
  const silence = `Worker ${workerIndex + 1} sent no report for ${Math.round(silentMs / 1_000)} s (it reports every second) and was given up for lost`;
  if (loss.how !== 'relayQuiet') return `${silence}: its thread is stuck or its agent unreachable, the client's failure, not the hub's. Its figures up to then are kept.`;
  return `${silence}: the agents' reports stopped together with the control hub at ${loss.relay?.url ?? 'its address'}` +
    `${loss.relay?.isRunHub ? ', the run\'s own hub' : ''}, so a stalled hub cannot be told from a dead agent: not counted as the client's. Its figures up to then are kept.`;
}

/** A lost agent thread whose lead lost the control hub itself (its connection closed). */
export function controlLostText(agentName: string, thread: number): string {
  return `agent "${agentName}" (thread ${thread + 1}) is out of reach: the lead lost its connection to the control hub, so whether the agent or the hub failed cannot be told; its connections count as lost`;
}

/** Counts of lost workers by side. */
export function sideCounts(sides: readonly LossSide[]): Record<LossSide, number> {
  const counts: Record<LossSide, number> = { client: 0, service: 0, unknown: 0 };
  for (const side of sides) counts[side]++;
  return counts;
}

/**
 * The verdict's words for workers lost mid-run (before the figures): "3 worker(s) were lost
 * mid-run, the client's loss" when every one was the client's; otherwise the relayed ones first.
 */
export function lostWorkersText(lostWorkers: number, sides: readonly LossSide[] | undefined): string {
  const counts = sideCounts(sides ?? []);
  // Runs kept before sides were recorded: every lost worker was taken as the client's.
  counts.client += Math.max(0, lostWorkers - (sides?.length ?? 0));
  const relayed = counts.service + counts.unknown;
  if (relayed === 0) return `${formatCount(lostWorkers)} worker(s) were lost mid-run, the client's loss`;
  const whose = counts.service > 0 && counts.unknown === 0
    ? 'the control hub is the run\'s own hub and the agents answered once it was back: they were alive, so the service stalled, not the client'
    : counts.service > 0
      ? `for ${formatCount(counts.service)} of them the control hub, the run's own hub, stalled (their agents answered once it was back); for the rest whether the agents or the hub failed cannot be told from the lead`
      : 'whether the agents or the hub failed cannot be told from the lead, so the side is unknown, not the client\'s';
  const client = counts.client > 0 ? `; ${formatCount(counts.client)} more worker(s) were lost, the client's loss` : '';
  return `the agents' reports stopped together with the control hub: ${formatCount(relayed)} agent thread(s) were given up for silence, and ${whose}${client}`;
}

/** The runner's exit reason for a run that lost engines, or null: "2 of 4 engine(s) failed (see above): …". */
export function lostEnginesReason(failures: number, workers: readonly { lost: boolean; lostSide?: LossSide }[]): string | null {
  if (failures === 0) return null;
  const notClient = workers.filter((w) => w.lost && (w.lostSide ?? 'client') !== 'client').length;
  const which = notClient === 0 ? 'failed' : `were lost (${formatCount(notClient)} of them with the control hub, not known to be the client's)`;
  return `${formatCount(failures)} of ${formatCount(workers.length)} engine(s) ${which} (see above): a run that lost part of its load is not a pass.`;
}
