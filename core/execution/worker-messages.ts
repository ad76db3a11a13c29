/**
 * The one typed message file between the dashboard (src/) and the engine (workers/).
 * Workers post at most one snapshot per second each; never one message per benchmark message.
 *
 * A run, as the page sees it: start → every worker "ready" (connections open, groups joined,
 * connection ids known) → one common "go" → workers send until the planned end, then drain →
 * the page decides the drain is over ("finish") → final snapshots.
 */
import type { Credentials, RunConfig, InstanceCounts } from '../run-config/index.ts';
import type { DropTotals } from '../drops/index.ts';
import type { ConnectCauseCounts } from '../client/index.ts';
import type { SecondFates } from '../accounting/index.ts';
import type { PostedHistogram } from '../latency/index.ts';
import type { ConnectionShare } from '../plan/index.ts';

/** Failure kinds, counted in every snapshot. */
export const ERROR_KINDS = ['negotiate', 'transport', 'handshake', 'connect', 'join', 'send', 'closed', 'protocol'] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];

export type ErrorCounts = Record<ErrorKind, number>;

/** One distinct failure message and how often it happened (bounded per worker). */
export interface ErrorSample {
  kind: ErrorKind;
  message: string;
  count: number;
}

export type WorkerPhase = 'connecting' | 'ready' | 'running' | 'draining' | 'done';

/** Page → worker: open this worker's share of the connections. */
export interface StartMessage {
  type: 'start';
  workerIndex: number;
  config: RunConfig;
  share: ConnectionShare;
  /** Connects in flight for this worker. */
  connectConcurrency: number;
  /** Common time base of the run: snapshots cover the seconds after it. Epoch microseconds. */
  runStartUs: number;
  /** The run's id (core/execution/run-id.ts), in every payload header and group name: a message of
   *  another run on the same hub is counted as foreign. */
  runId: string;
  /** This worker's clock minus the run's reference clock (the dashboard's), in µs; 0 or absent
   *  for workers on the dashboard's own machine. An agent on another machine subtracts it, so
   *  every planned time and every receive time in the run is on one time base. */
  clockOffsetUs?: number;
  /** Tokens, headers and query parameters for a protected hub (core/run-config/credentials.ts): apart from
   *  `config`, which results and exports keep. Absent: none. */
  credentials?: Credentials;
}

/** Page → worker: every worker is ready; start sending. */
export interface GoMessage {
  type: 'go';
  /** Sends are planned in [sendStartUs, sendEndUs), epoch microseconds. */
  sendStartUs: number;
  sendEndUs: number;
  /** Messages planned before this time are warm-up: sent, but left out of every figure. */
  warmupEndUs: number;
  /** Broadcast (and broadcast through the REST API): configured connections not open at "go" (never opened, or on a lost worker).
   *  A broadcast plans every configured connection; these receptions are never sent, for
   *  "receiverAbsent" (core/accounting/fates.ts). 0 for other scenarios. */
  absentReceivers: number;
  /** Groups: configured members of each group that did not join it (never opened, refused, or on
   *  a lost worker), run-wide; empty for other scenarios. */
  absentMembers: number[];
  /** Deliveries to users: per access token (connection i takes token i mod n), the configured
   *  connections taking it not open at "go"; a send plans every connection of the users it names.
   *  Absent for other deliveries and from older coordinators. */
  absentByToken?: number[];
  /** Send to connection (and send to user through the REST API, to the target's user): the connection id each of this worker's connections sends to (local
   *  order, one entry for every configured connection of the worker, chosen as a derangement of
   *  the configured connections); null when that target never opened (its receptions are
   *  "receiverAbsent"). Empty for other scenarios. */
  targets: (string | null)[];
  /** Send to connection: the run-wide index of each of those targets (local order), whether it
   *  opened or not, to tell on which hub instance its receptions are planned
   *  (core/run-config/hub-instances.ts). Absent for other scenarios and from older coordinators. */
  targetIndices?: number[];
}

/** Page → worker: stop sending now (the user pressed Stop); keep receiving until "finish". */
export interface StopMessage {
  type: 'stop';
}

/** Page → worker: the drain is over: report the last figures and close the connections. */
export interface FinishMessage {
  type: 'finish';
  /** When the page ended the drain, epoch µs on the run's time base: anything that arrives
   *  later (an agent hears "finish" over a network) counts as arrived after the drain. */
  drainEndUs?: number;
  /** The run failed before its planned end (a mismatch named, every connection closed): the
   *  slots still to come are counted as never sent for it, not as the client falling behind. */
  stoppedEarly?: boolean;
}

/** Page or runner → worker: fresh access tokens (the runner's --access-token-command), in the
 *  order of the start message's; connections use them from their next request on (a reconnect,
 *  long polling's every request). */
export interface TokensMessage {
  type: 'tokens';
  accessTokens: string[];
}

export type ToWorker = StartMessage | GoMessage | StopMessage | FinishMessage | TokensMessage;

/** Worker → page, once per second and once more at the end (`final`). */
export interface WorkerSnapshot {
  type: 'snapshot';
  workerIndex: number;
  phase: WorkerPhase;
  /** The snapshot covers [runStart + (second - 1) s, runStart + second s). */
  second: number;
  final: boolean;
  /** Latency from the planned send time (corrected for coordinated omission), this interval
   *  only. Every histogram here is posted by bucket (core/latency/latency.ts PostedHistogram). */
  latencyHistogram: PostedHistogram;
  /** Latency from the actual send time (what a closed-loop client would report), this interval. */
  uncorrectedHistogram: PostedHistogram;
  /** Time to open each connection that opened in this interval (negotiate + transport + handshake). */
  connectHistogram: PostedHistogram;
  /** Time to reconnect of each connection that came back in this interval (from the start of
   *  its gap). Absent from agents older than drops. */
  reconnectHistogram?: PostedHistogram;
  /** Drops: the run's totals so far, and connections back and lost in this interval (the
   *  storm's rates). Absent from agents older than drops. */
  drops?: WorkerDrops;
  interval: IntervalCounts;
  /** What became of planned receptions since the last snapshot, by the second they were planned
   *  in (deltas: the page adds them up; see core/accounting/fates.ts). */
  fates: SecondFates[];
  /** Run totals so far. */
  totals: WorkerTotals;
  connectionsOpen: number;
  connectionsConnecting: number;
  /** How late this worker's 1-s report timer fired, in ms: the worker's own event-loop lag. */
  eventLoopLagMs: number;
  /** Largest lag of a send behind its planned time in this interval, in ms. */
  maxSendLagMs: number;
  /** The most a reception of the run so far came before its planned send time, µs (0: none):
   *  how far apart the clocks were at worst. Absent from agents older than it. */
  maxNegativeLatencyUs?: number;
  errorCounts: ErrorCounts;
  /** Failed connects so far by cause (core/client/connect-causes.ts), run totals; absent from agents
   *  older than causes. */
  connectCauses?: ConnectCauseCounts;
  errorSamples: ErrorSample[];
  /** With several hub instances: this worker's counts per instance so far, in the order of the
   *  config's endpointUrls (core/run-config/hub-instances.ts). Absent for one instance. */
  instances?: InstanceCounts[];
  /** With several hub instances: the latency at each instance's connections, this interval,
   *  from the planned send time. Absent for one instance. */
  instanceLatencyHistograms?: PostedHistogram[];
  /** Calls of the receive method that carried no text of this run where the profile reads it, so
   *  far; absent while none came (and from agents older than it). */
  textless?: TextlessCalls;
}

/**
 * A worker's calls of the profile's receive method without a text of this run where the profile
 * reads it (no header there, neither this run's nor another's): with none carrying one, the
 * profile reads the wrong place (core/execution/coordinator.ts textNotFound).
 */
export interface TextlessCalls {
  /** All of them (each is unsolicited too). */
  calls: number;
  /** Those that came once sending began ("go"): a hub's welcome messages come before it. */
  whileSending: number;
  /** What the first of them carried where the profile reads (the first while sending, once one
   *  came; all the arguments when nothing is there), at most 40 characters, secrets scrubbed. */
  sample: string;
  /** Where this run's text was in one of them instead: an argument's index or a path
   *  ("0.message"), as receive.arg takes it; null when in none of the first that were searched. */
  foundAt: number | string | null;
}

export interface WorkerDrops {
  totals: DropTotals;
  back: number;
  dropped: number;
}

/** Counts of one interval. Inbound is client → hub, outbound hub → client, as in the guide. */
export interface IntervalCounts {
  sent: number;
  received: number;
  /** Bytes the transport carried this interval, to the hub and from it: every WebSocket message,
   *  long-poll or POST body, Server-Sent Event's data (the handshake, pings and messages that are
   *  not the tool's included; negotiate and transport framing not). Warm-up and drain included. */
  sentBytes: number;
  receivedBytes: number;
}

export interface WorkerTotals {
  /** Measured sends (warm-up excluded) handed to the connection; a write that then failed is
   *  counted here and among the fates' writeFailed. What was planned is in the fates. */
  sent: number;
  /** Distinct measured messages received (each counted once per receiving connection). */
  received: number;
  duplicated: number;
  /** Too old to tell whether seen before (beyond the duplicate-detection window): not counted as received. */
  stale: number;
  /** Sends that left more than one send interval after their planned time. */
  missedSlots: number;
  /** Slots not sent because the connection already had too many sends unwritten (a stalled
   *  hub or network): counted, never silently skipped, and never queued without bound. */
  backedUp: number;
  connectionsOpened: number;
  connectionsFailed: number;
  /** Connections lost during the run (closed, or reconnecting) and connections that came back. */
  disconnects: number;
  reconnects: number;
  /** Every byte the transport carried each way, from the first connect to the final snapshot
   *  (IntervalCounts), stateful reconnect's second copies included. */
  sentBytes: number;
  receivedBytes: number;
  /** Receptions whose receive time came before their planned send time: the sender's clock is
   *  ahead of the receiver's (agents on other machines). Recorded as 1 µs; a clock-health figure. */
  negativeLatencies: number;
  /** Messages of another run (the tool's header with another run id): someone else benchmarks
   *  the same hub. Never arrivals, never duplicates. */
  foreign: number;
  /** Calls of the receive method that are not the tool's messages at all (no header: a hub's
   *  welcome message, another client's chat line), and "return" values that are not the message
   *  sent. Never arrivals. */
  unsolicited: number;
  /** Receptions whose header was found but whose text the hub cut or changed (its padding not the
   *  configured size's, workers/engine/payload.ts textIntact): counted in `received` too. A text
   *  the hub only wrapped (a prefix, a suffix) is not altered. */
  altered: number;
  /** Calls of the profile's receive method, whatever they carried (warm-up and probe included). */
  receiveCalls: number;
  /** Connections opened with stateful reconnect granted by the hub (asked for with
   *  statefulReconnect; the hub's negotiate answer decides). 0 when it was not asked for. */
  statefulGranted: number;
  /** Messages (and their encoded bytes) that stateful reconnect carried a second time: `resentSent`
   *  written again by this client after a resumed transport, `resentReceived` copies the hub sent
   *  again and the client discarded. Counted apart: `sent` and `received` hold each message once;
   *  `sentBytes` and `receivedBytes`, what the transport carried, hold these copies too. */
  resentSent: number;
  resentSentBytes: number;
  resentReceived: number;
  resentReceivedBytes: number;
}

/** Worker → page, once: connections open (or failed), groups joined; waiting for "go". */
export interface WorkerReady {
  type: 'ready';
  workerIndex: number;
  connectionsOpen: number;
  connectionsFailed: number;
  /** The hub's id of each of this worker's connections, local order; null when not open. Empty
   *  when the run reads none (runNeedsConnectionIds: only send to connection and deliveries to
   *  users do); older workers send them always. */
  connectionIds: (string | null)[];
  /** Members of this worker that joined each group (group scenarios; empty otherwise). */
  groupMembers: number[];
  /** Why the hub refused the scenario's method when probed; null when it accepted (or nothing
   *  was open to ask). A refusal means the run cannot measure anything. */
  refusal: string | null;
  /** When this worker's first connect began and its last connection opened, µs on the run's time
   *  base (lastOpenedUs 0: none opened): the ramp without the set-up before it and the method
   *  check and joins after it. Absent from older workers. */
  connects?: { fromUs: number; lastOpenedUs: number };
}

/** Worker → page: the worker could not run at all (bad message, crash). */
export interface WorkerFatal {
  type: 'fatal';
  workerIndex: number;
  message: string;
  /** Set by a lead for an agent's thread it can no longer reach because it lost the control hub
   *  itself: not known to have failed (core/outcome/worker-loss.ts). */
  relayLost?: boolean;
}

export type FromWorker = WorkerSnapshot | WorkerReady | WorkerFatal;

export function emptyErrorCounts(): ErrorCounts {
  return Object.fromEntries(ERROR_KINDS.map((kind) => [kind, 0])) as ErrorCounts;
}

export function emptyTotals(): WorkerTotals {
  return { sent: 0, received: 0, duplicated: 0, stale: 0, missedSlots: 0, backedUp: 0, connectionsOpened: 0, connectionsFailed: 0, disconnects: 0, reconnects: 0, sentBytes: 0, receivedBytes: 0, negativeLatencies: 0, foreign: 0, unsolicited: 0, altered: 0, receiveCalls: 0, statefulGranted: 0, resentSent: 0, resentSentBytes: 0, resentReceived: 0, resentReceivedBytes: 0 };
}
