/**
 * Whose loss a lost worker is, and how that is said: one rule for the coordinator (when it gives a
 * worker up), the run's document (each lost worker's side), the verdict (outcome.ts), the client's
 * evidence (core/client/own-limits.ts) and the runner's exit reasons, so page, runner and report
 * name the same side.
 *
 * An agent's reports are relayed by the control hub (by default the run's own hub), and a hub that
 * is merely slow holds them without going quiet: other agents' reports (late ones too) still come
 * through, so "the others were still heard" does not clear it. Whose loss, in this order:
 * - the client's: a worker of the lead's own (a Web Worker, an engine thread) that crashed or fell
 *   silent; a worker that said it failed, or whose agent left (the control hub saw its connection
 *   close: killed, its network gone);
 * - the relay's: an agent's thread whose agent was alive, shown by a report of the thread taken
 *   at least half its silence before it was given up that arrived after (`relayedLate`: it was
 *   reporting, the hub held the report);
 * - the client's: an agent's thread that fell silent (the hub still relaying others) while
 *   another thread of the same agent reported to the end: that agent's reports come through the
 *   control hub in order on one connection, so the hub carried them and this thread was stuck;
 * - the relay's: an agent's thread that fell silent, or went quiet together with the hub (nothing
 *   from any agent for half the silence, or the lead's connection to it closed), whose agent
 *   answered the run's closing clock round: it was alive, so its silence was the hub's;
 * - unknown: any other agent's thread, when nothing decides between a stuck agent and a held
 *   relay (no answer to the closing round, no late report, no other thread to compare with).
 * The relay's is the service's when the control hub is the run's own hub (the run's service held
 * the reports), and unknown for a control hub of its own or when which hub it was is not recorded.
 */
import { OUTCOME_WORDS as W } from './words.ts';

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
  /** The control hub relaying an agent's thread: always with relayQuiet; with silent when the
   *  coordinator records it (absent: a worker of the lead's own, or the hub not recorded). */
  relay?: { url: string; isRunHub: boolean };
  /** A report of it taken during its silence arrived after it was given up (relayedLate): absent
   *  when none did, or none was looked for. */
  relayedLate?: boolean;
}

/** The control hub went quiet together with this worker: nothing from any agent for half its silence. */
export function relayWentQuiet(silentMs: number, relay: RelayState | undefined): boolean {
  return relay !== undefined && relay.quietMs >= silentMs / 2;
}

/**
 * Whether a report of a worker given up for silence, arriving after that, was held by its relay:
 * taken (the tick of its `second` on the run's time base, plus how late that tick fired) at least
 * half the silence before the worker was given up, so it was in transit that long while the thread
 * reported. A report taken later is a thread that came back from its own stall.
 */
export function relayedLate(report: { second: number; eventLoopLagMs: number }, runStartUs: number, givenUp: { atUs: number; silentMs: number }): boolean {
  const takenUs = runStartUs + report.second * 1_000_000 + report.eventLoopLagMs * 1_000;
  return takenUs <= givenUp.atUs - (givenUp.silentMs / 2) * 1_000;
}

/** What the run knows once it has ended of a lost thread's agent. */
export interface AgentAfterRun {
  /** Whether it answered the run's closing clock round (null: the round was not taken). */
  answeredAfter: boolean | null;
  /** Whether another of its threads reported to the end (was not lost). */
  siblingReported: boolean;
}

/** The side of a loss once the run has ended (the rule above); `agent`: null for a worker of the
 *  lead's own, or when the run's agents are not known. */
export function lossSide(loss: WorkerLoss, agent: AgentAfterRun | null): LossSide {
  if (loss.how === 'failed') return 'client';
  if (agent === null && loss.relay === undefined) return 'client';
  const relays = loss.relay?.isRunHub ? 'service' : 'unknown';
  if (loss.relayedLate) return relays;
  if (loss.how === 'silent' && agent?.siblingReported) return 'client';
  return agent?.answeredAfter === true ? relays : 'unknown';
}

/** Each lost worker's side, by worker index, given the run's agents and their closing clock rounds. */
export function lossSides(losses: readonly WorkerLoss[], agents?: readonly { firstWorkerIndex: number; threads: number; clockEnd?: unknown }[]): Map<number, LossSide> {
  const lost = new Set(losses.map((loss) => loss.workerIndex));
  const sides = new Map<number, LossSide>();
  for (const loss of losses) {
    const agent = agents?.find((a) => loss.workerIndex >= a.firstWorkerIndex && loss.workerIndex < a.firstWorkerIndex + a.threads);
    const after = agent
      ? {
          answeredAfter: agent.clockEnd !== undefined ? agent.clockEnd !== null : null,
          siblingReported: Array.from({ length: agent.threads }, (_, t) => agent.firstWorkerIndex + t).some((w) => !lost.has(w)),
        }
      : null;
    sides.set(loss.workerIndex, lossSide(loss, after));
  }
  return sides;
}

/** Why the watchdog gave a worker up, worded for people (the coordinator's failure line). */
export function silenceText(workerIndex: number, silentMs: number, loss: WorkerLoss): string {
  const silence = W.silence({ worker: workerIndex + 1, seconds: Math.round(silentMs / 1_000) });
  const hub = W.controlHub({ url: loss.relay?.url, isRunHub: loss.relay?.isRunHub });
  // Said before the run ends, when an agent's side is not known yet (lossSide decides it then).
  if (loss.how === 'silent' && loss.relay) return W.silentHeld({ silence, hub, isRunHub: loss.relay.isRunHub });
  if (loss.how !== 'relayQuiet') return W.silentStuck({ silence });
  return W.relayQuiet({ silence, hub });
}

/** A lost agent thread whose lead lost the control hub itself (its connection closed). */
export function controlLostText(agentName: string, thread: number): string {
  return W.controlLost({ agentName, thread: thread + 1 });
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
  if (relayed === 0) return W.lostClients({ lost: lostWorkers });
  // The sides say the hub went quiet or held reports (slow, not stopped) alike: "stopped" is the lead's view of those agents' reports.
  const whose = counts.service > 0 && counts.unknown === 0
    ? W.serviceStalled()
    : counts.service > 0
      ? W.partlyServiceStalled({ service: counts.service })
      : W.sideUnknown();
  const more = counts.client > 0 ? W.moreClients({ client: counts.client }) : '';
  return W.relayedLost({ relayed, whose, more });
}

/** The runner's exit reason for a run that lost engines, or null: "2 of 4 engine(s) failed (see above): …". */
export function lostEnginesReason(failures: number, workers: readonly { lost: boolean; lostSide?: LossSide }[]): string | null {
  if (failures === 0) return null;
  const notClient = workers.filter((w) => w.lost && (w.lostSide ?? 'client') !== 'client').length;
  const which = notClient === 0 ? W.enginesFailed() : W.enginesLostWithHub({ notClient });
  return W.lostEngines({ failures, engines: workers.length, which });
}
