/**
 * The outcome room's words: the verdict's sentence for each way a run ends, what would have saved
 * the messages a planned drop cost, and whose loss a lost worker is. outcome.ts and worker-loss.ts
 * choose the case and its figures; only this file writes prose, so the page, the runner and the
 * reports say the same thing. Pure.
 */
import { formatCount, formatShare } from '../format.ts';

export const OUTCOME_WORDS = {
  /** How a run ended in a few words ("stopped at 10 of 30 s", "failed: …"), where a label alone says too little. */
  stoppedAt: (p: { atSec: number; durationSec: number }) => `stopped at ${formatCount(p.atSec)} of ${formatCount(p.durationSec)} s`,
  failedFor: (p: { reason: string | undefined }) => `failed: ${p.reason ?? 'nothing could be measured'}`,
  running: () => 'Running: the verdict comes once the run has drained.',
  interrupted: () => 'Interrupted: the page closed before the run ended. No verdict; what was in flight was never counted.',
  failed: (p: { reason: string | undefined }) => `Failed: ${p.reason ?? 'nothing could be measured'}`,
  stopped: (p: { atSec: string; durationSec: string; measured: string }) =>
    `Stopped at ${p.atSec} of ${p.durationSec} s: no verdict for an incomplete run. Until then, ${p.measured}.`,
  nothingPlanned: () => 'Fail: no message was planned, so the guide\'s rule cannot be met. Check the errors below.',
  lostWorkers: (p: { lost: string; measured: string }) =>
    `Fail: ${p.lost}: what they were to send counts as never sent, what was to reach their connections as lost; ${p.measured}.`,
  overCount: (p: { overCount: string; measured: string }) =>
    `Fail: accounting error: ${p.overCount} receptions were counted beyond the plan (arrived or never sent above what was planned), so a loss may hide behind them and the counts cannot be trusted. Until then, ${p.measured}. Please report it with the run's JSON.`,
  plannedDropCost: (p: { missing: string; measured: string; saves: string }) => `Fail: the planned drop cost messages (${p.missing}); ${p.measured}. ${p.saves}`,
  /** The clocks leave the run without a verdict (their sentence from core/clocks). */
  clocksUndecided: (p: { clocks: string; measured: string }) => `${p.clocks} Until then, ${p.measured}.`,
  belowShare: (p: { measured: string }) =>
    `Fail: only ${p.measured}; the guide's rule needs at least 99% in under 1 s, so the run did not hold this load; the client's health and the server's load say which side set the limit.`,
  missing: (p: { missing: string; measured: string }) =>
    `Fail: not every planned message arrived once (${p.missing}); ${p.measured}. A run that loses messages is not a pass, whatever its share under 1 s.`,
  pass: (p: { measured: string }) => `Pass: ${p.measured}, meeting the guide's rule that at least 99% arrive in under 1 s.`,
  /** What saves the messages a drop cost, by stateful reconnect as the hub had it. */
  statefulRefused: (p: { endpointUrl: string }) =>
    `The hub at ${p.endpointUrl} never granted stateful reconnect (its negotiate answer lacks useStatefulReconnect), so asking for it changed nothing: a shorter reconnect is what saves them, or a hub that allows stateful reconnect (AllowStatefulReconnects on its endpoint).`,
  statefulGranted: () => 'Stateful reconnect was granted and did not bridge every gap (a gap longer than the hub\'s buffer or its disconnect timeout, or a connection it was not granted to): a shorter reconnect is what saves them.',
  statefulOff: () => 'Stateful reconnect, or a shorter reconnect, is what saves them.',
  /** How a running run stands so far, after its verdict's sentence. */
  soFar: (p: { sentence: string; share: string; failing: boolean }) =>
    `${p.sentence} So far ${p.share} of the receptions planned over 1 s ago arrived in under 1 s${p.failing ? ', below the guide\'s 99%' : ''}.`,
  /** The run's figures in the verdict's sentence: "99.50% of 6,000 planned receptions arrived in under 1 s (delivery 99.80%: 12 lost; p99 12 ms)". */
  measured: (p: { share: number; planned: number; details: readonly string[] }) =>
    `${formatShare(p.share)} of ${formatCount(p.planned)} planned receptions arrived in under 1 s (${p.details.join('; ')})`,
  noneWasPlanned: () => 'no message had been planned',
  delivery: (p: { delivery: number; missing: readonly string[] }) => `delivery ${formatShare(p.delivery)}${p.missing.length > 0 ? `: ${p.missing.join(', ')}` : ''}`,
  p99: (p: { p99: string }) => `p99 ${p.p99}`,
  nothingArrived: () => 'nothing arrived',
  /** What did not arrive once, in a list ("12 lost, 40 never sent, 3 duplicated"). */
  lost: (p: { count: number }) => `${formatCount(p.count)} lost`,
  neverSent: (p: { count: number }) => `${formatCount(p.count)} never sent`,
  duplicated: (p: { count: number }) => `${formatCount(p.count)} duplicated`,
  beyondPlan: (p: { count: number }) => `${formatCount(p.count)} counted beyond the plan`,
  /** A worker the watchdog gave up: the start of each way of saying it. */
  silence: (p: { worker: number; seconds: number }) => `Worker ${p.worker} sent no report for ${p.seconds} s (it reports every second) and was given up for lost`,
  controlHub: (p: { url: string | undefined; isRunHub: boolean | undefined }) => `the control hub at ${p.url ?? 'its address'}${p.isRunHub ? ', the run\'s own hub' : ''}`,
  /** Said before the run ends, when an agent's side is not known yet. */
  silentHeld: (p: { silence: string; hub: string; isRunHub: boolean }) =>
    `${p.silence}: its thread is stuck, or ${p.hub}${p.isRunHub ? ',' : ''} holds its agent's reports while still relaying others'; whose failure it was is told once the run ends. Its figures up to then are kept.`,
  silentStuck: (p: { silence: string }) =>
    `${p.silence}: its thread is stuck, or (an agent's thread) its agent is unreachable or the control hub holds its reports; whose failure it was is told once the run ends. Its figures up to then are kept.`,
  relayQuiet: (p: { silence: string; hub: string }) =>
    `${p.silence}: the agents' reports stopped together with ${p.hub}, so a stalled hub cannot be told from a dead agent: not counted as the client's. Its figures up to then are kept.`,
  controlLost: (p: { agentName: string; thread: number }) =>
    `agent "${p.agentName}" (thread ${p.thread}) is out of reach: the lead lost its connection to the control hub, so whether the agent or the hub failed cannot be told; its connections count as lost`,
  /** Workers lost mid-run, as the verdict says them before its figures. */
  lostClients: (p: { lost: number }) => `${formatCount(p.lost)} worker(s) were lost mid-run, the client's loss`,
  serviceStalled: () => 'the control hub is the run\'s own hub and the agents were alive (they answered the closing clock round, or their reports came late): the service stalled, not the client',
  partlyServiceStalled: (p: { service: number }) =>
    `for ${formatCount(p.service)} of them the control hub, the run's own hub, stalled (their agents were alive); for the rest whether the agents or the hub failed cannot be told from the lead`,
  sideUnknown: () => 'whether the agents or the hub (stopped, or slow to relay) failed cannot be told from the lead, so the side is unknown, not the client\'s',
  moreClients: (p: { client: number }) => `; ${formatCount(p.client)} more worker(s) were lost, the client's loss`,
  relayedLost: (p: { relayed: number; whose: string; more: string }) =>
    `the agents' reports stopped together with the control hub: ${formatCount(p.relayed)} agent thread(s) were given up for silence, and ${p.whose}${p.more}`,
  /** The runner's exit reason for a run that lost engines. */
  enginesFailed: () => 'failed',
  enginesLostWithHub: (p: { notClient: number }) => `were lost (${formatCount(p.notClient)} of them with the control hub, not known to be the client's)`,
  lostEngines: (p: { failures: number; engines: number; which: string }) =>
    `${formatCount(p.failures)} of ${formatCount(p.engines)} engine(s) ${p.which} (see above): a run that lost part of its load is not a pass.`,
};
