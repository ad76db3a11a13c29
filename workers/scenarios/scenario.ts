/**
 * The small interface the engine runs a scenario through. A scenario says who sends what to
 * whom; the engine's ScenarioRunner schedules the sends, and accounts for and measures what
 * arrives. A scenario never computes statistics and never talks to the page. There is one kind:
 * a hub profile (core/profiles) on the run's plan (profile-scenario.ts); the bundled contract's
 * five scenarios are built-in profiles.
 */
import type { ErrorKind, GoMessage } from '../../core/execution/index.ts';
import type { BoundArgs, HubProfile } from '../../core/profiles/index.ts';
import type { PooledConnection } from '../engine/connection-pool.ts';

/** What one connection sends on each of its slots. */
export interface SendSpec {
  /** Hub method, e.g. "Echo" or "SendMessage". */
  method: string;
  /** The hub call's arguments for a message with this planned time (whole µs) and text. */
  args: BoundArgs;
  /** Receptions each slot plans, from the configuration (every configured receiver, whether it
   *  opened or joined). */
  recipients: number;
  /** Of those, receivers absent at "go" (never connected, never joined): never sent, counted as
   *  "receiverAbsent". The rest go the usual way: sent, or not sent for a reason of their own. */
  absent: number;
  /** deliver "return": the call is invoked and its completion is the reception, at the sender. */
  awaitsReturn: boolean;
  /** deliver "stream": a streaming call; the items it yields carrying the text are the
   *  receptions, at the sender. */
  streamsBack?: boolean;
  /** `{stream}` in the arguments: the call is made once, at "go" (again after a reconnect or once
   *  its stream ended), with a client-to-server stream, and each slot writes its message as an
   *  item of it. */
  uploads?: boolean;
  /** A client result (deliver "return" with an answer): the completion carries the answering
   *  connection's text, and a call that failed once sent is lost (sent, never received). */
  answered?: boolean;
  /** A REST scenario's send (workers/engine/rest-sends.ts): the REST API URL each slot posts to,
   *  `{ target: method, arguments: args }` its body; absent for a hub call. */
  rest?: string;
}

/** A hub call the probe makes, and what it is to the profile (said when the hub refuses it). */
export interface ProbeCall {
  method: string;
  args: BoundArgs;
  role: 'join' | 'send';
  /** A streaming call (deliver "stream"): the probe reads its first item. */
  streamsBack?: boolean;
  /** `{stream}` in the arguments: the probe's message goes as the one item of a stream. */
  uploads?: boolean;
  /** The arguments hold `{message}` or `{stream}`: without either, a stream's items cannot be the run's. */
  carries?: boolean;
  /** Only a call the hub cannot bind refuses the run: one it ran and failed (a client result
   *  nobody answered) is the run's to count. */
  bindOnly?: boolean;
}

export interface Scenario {
  readonly profile: HubProfile;
  /** True for the bundled contract's built-in profiles: a refusal then names the contract. */
  readonly builtIn: boolean;
  /** The client method the hub delivers on, and how to read the message from its arguments;
   *  null with deliver "return" (the completion is the reception). */
  readonly receive: { method: string; read: (args: readonly unknown[]) => unknown } | null;
  /** Client results: the client method every connection answers, and the answer for a text the
   *  answering connection made (the profile's answer.with with it in place); null without. */
  readonly answer: { method: string; with: (message: string) => unknown } | null;
  /**
   * Hub calls each connection makes before the run, awaited (the profile's join). Returns how
   * many of this worker's connections joined each group (empty when the delivery has no groups).
   */
  prepare(connections: readonly PooledConnection[], fail: (kind: ErrorKind, message: string) => void): Promise<number[]>;
  /**
   * Harmless calls of the profile's methods (join, then send), made once per worker before the
   * run so that a hub without them is named at once instead of every message going missing.
   * Their messages carry the planned time {@link PROBE_TS} and are ignored where they arrive.
   */
  probe(pooled: PooledConnection): ProbeCall[];
  /** What this connection sends, or null when it only receives. `localIndex` is its place in this worker. */
  sendSpec(pooled: PooledConnection, localIndex: number, go: GoMessage): SendSpec | null;
  /**
   * Puts a reconnected connection (a new id, in no group) back where the profile needs it (its
   * join again); rejects when the hub refused. Absent when the profile has no join.
   */
  rejoin?(pooled: PooledConnection): Promise<void>;
  /** The profile's leave, on every open connection, at the end of the run (failures ignored: the
   *  connections close next); absent without one. The engine bounds the wait. */
  leave?(connections: readonly PooledConnection[]): Promise<void>;
}

/** The planned time of probe messages: no real send is planned at the epoch. */
export const PROBE_TS = 0;
