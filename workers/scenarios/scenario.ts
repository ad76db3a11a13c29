/**
 * The small interface every use case of the guide implements. A scenario says who sends what
 * to whom; the engine's ScenarioRunner schedules the sends, and accounts for and measures what
 * arrives. A scenario never computes statistics and never talks to the page.
 */
import type { ScenarioPlan, ErrorKind, GoMessage } from '../../core/run/index.ts';
import type { PooledConnection } from '../engine/connection-pool.ts';

/** What one connection sends on each of its slots. */
export interface SendSpec {
  /** Hub method, e.g. "Echo". */
  method: string;
  /** The hub call's arguments for a message with this timestamp and payload. */
  args(ts: number, payload: string): unknown[];
  /** Receptions each slot plans, from the configuration (every configured receiver, whether it
   *  opened or joined). */
  recipients: number;
  /** Of those, receivers absent at "go" (never connected, never joined): never sent, counted as
   *  "receiverAbsent". The rest go the usual way: sent, or not sent for a reason of their own. */
  absent: number;
}

export interface Scenario {
  /**
   * Hub calls each connection makes before the run, awaited (e.g. JoinGroup). Returns how many of
   * this worker's connections joined each group (empty when the scenario has no groups).
   */
  prepare(connections: readonly PooledConnection[], fail: (kind: ErrorKind, message: string) => void): Promise<number[]>;
  /**
   * One harmless call of the scenario's hub method, made once per worker before the run so that
   * a hub without the benchmark contract is named at once instead of every message going missing.
   * Deliveries it causes carry ts = {@link PROBE_TS} and are ignored.
   */
  probe(pooled: PooledConnection): { method: string; args: unknown[] };
  /** What this connection sends, or null when it only receives. `localIndex` is its place in this worker. */
  sendSpec(pooled: PooledConnection, localIndex: number, go: GoMessage): SendSpec | null;
  /**
   * Puts a reconnected connection (a new id, in no group) back where the scenario needs it, e.g.
   * in its group; rejects when the hub refused. Absent when nothing is needed.
   */
  rejoin?(pooled: PooledConnection): Promise<void>;
}

export type ScenarioFactory = (plan: ScenarioPlan, runId: string) => Scenario;

/** The timestamp of probe messages: no real send is planned at the epoch. */
export const PROBE_TS = 0;
export const PROBE_PAYLOAD = 'live-bench probe';

/** For scenarios with nothing to prepare. */
export async function noPreparation(): Promise<number[]> {
  return [];
}
