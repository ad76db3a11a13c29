/**
 * The one typed message file between the dashboard (src/) and the engine (workers/).
 * Workers post at most one snapshot per second each; never one message per benchmark message.
 */
import type { RunConfig } from '../core/run-config.ts';
import type { ConnectionShare } from '../core/split.ts';

/** Failure kinds, counted in every snapshot. */
export const ERROR_KINDS = ['negotiate', 'transport', 'handshake', 'connect', 'send', 'closed', 'protocol'] as const;
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
}

/** Page → worker: every worker is ready; sends are planned from `sendStartUs` until `sendEndUs`. */
export interface GoMessage {
  type: 'go';
  sendStartUs: number;
  sendEndUs: number;
}

/** Page → worker: end now (the user pressed Stop): stop sending, drain, report, close. */
export interface StopMessage {
  type: 'stop';
}

export type ToWorker = StartMessage | GoMessage | StopMessage;

/** Worker → page, once per second and once more at the end (`final`). */
export interface WorkerSnapshot {
  type: 'snapshot';
  workerIndex: number;
  phase: WorkerPhase;
  /** The snapshot covers [runStart + (second - 1) s, runStart + second s). */
  second: number;
  final: boolean;
  /** Latency from the planned send time (corrected for coordinated omission), HdrHistogram
   *  compressed base64, this interval only. */
  latencyHistogram: string;
  /** Latency from the actual send time (what a closed-loop client would report), this interval. */
  uncorrectedHistogram: string;
  /** Messages sent and received in this interval. */
  sentInInterval: number;
  receivedInInterval: number;
  /** Received in under 1 s (from planned time) in this interval: the guide's rule counts these. */
  underOneSecondInInterval: number;
  /** Run totals so far. */
  totals: WorkerTotals;
  connectionsOpen: number;
  connectionsConnecting: number;
  /** How late this worker's 1-s report timer fired, in ms: the worker's own event-loop lag. */
  eventLoopLagMs: number;
  /** Largest lag of a send behind its planned time in this interval, in ms. */
  maxSendLagMs: number;
  errorCounts: ErrorCounts;
  errorSamples: ErrorSample[];
}

export interface WorkerTotals {
  sent: number;
  received: number;
  duplicated: number;
  /** Sends never answered after the drain; 0 until the final snapshot. */
  lost: number;
  /** Sends that left more than one send interval after their planned time. */
  missedSlots: number;
  connectionsOpened: number;
  connectionsFailed: number;
}

/** Worker → page: the worker could not run at all (bad message, crash). */
export interface WorkerFatal {
  type: 'fatal';
  workerIndex: number;
  message: string;
}

/** Worker → page, once: every connection of this worker is open or has failed; waiting for "go". */
export interface WorkerReady {
  type: 'ready';
  workerIndex: number;
  connectionsOpen: number;
  connectionsFailed: number;
}

export type FromWorker = WorkerSnapshot | WorkerReady | WorkerFatal;

export function emptyErrorCounts(): ErrorCounts {
  return Object.fromEntries(ERROR_KINDS.map((kind) => [kind, 0])) as ErrorCounts;
}
