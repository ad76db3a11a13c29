/**
 * What a dashboard and its agents say to each other through the control hub (hub-sample's
 * /control, which relays JSON text within one session and knows nothing of benchmarks).
 * An agent's threads are ordinary workers of the run: the dashboard's RunCoordinator talks to
 * each of them with the same messages as to a Web Worker, wrapped with the thread's number.
 */
import type { FromWorker, ToWorker } from '../execution/index.ts';
import { FLEET_WORDS } from './words.ts';

/** Sent once, with JoinSession. */
export interface AgentInfo {
  /** A name people recognise: host name and process id, or "browser …". */
  name: string;
  kind: 'node' | 'browser';
  /** Workers the agent runs (Node worker threads or Web Workers); the dashboard gives each a share. */
  threads: number;
  /** Where the load comes from, as a run result's `client` ("node v20…", a user agent). */
  client: string;
  /** The session's secret (core/fleet/agent-secrets.ts), given with the agent command; the lead
   *  admits no agent without it. Never kept in the agent's view or a run. */
  secret?: string;
}

export type ToAgent =
  | { type: 'clock-ping'; pingId: number }
  | { type: 'worker'; thread: number; message: ToWorker }
  /** The run is over on the dashboard, its closing clock round taken: an agent started for one
   *  run (--once) may leave now without its clock round going unanswered. */
  | { type: 'run-over' }
  /** The lead turned this agent away (no session secret, or the wrong one): it is sent nothing
   *  else, and leaves saying why. */
  | { type: 'refused'; reason: string };

export type FromAgent =
  | { type: 'clock-pong'; pingId: number; agentUs: number }
  | { type: 'worker'; thread: number; message: FromWorker };

/** Reads an agent's info, or says what is wrong with it. */
export function parseAgentInfo(text: string): AgentInfo | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return FLEET_WORDS.notJson();
  }
  const info = value as Partial<AgentInfo> | null;
  if (!info || typeof info.name !== 'string' || info.name.trim() === '') return FLEET_WORDS.noName();
  if (info.kind !== 'node' && info.kind !== 'browser') return FLEET_WORDS.badKind({ kind: String(info.kind) });
  if (!Number.isInteger(info.threads) || info.threads! < 1 || info.threads! > 64) return FLEET_WORDS.badThreads({ threads: String(info.threads) });
  return { name: info.name.slice(0, 100), kind: info.kind, threads: info.threads!, client: String(info.client ?? '').slice(0, 300) };
}
