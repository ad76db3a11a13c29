/** Types of scripts/hub.mjs, for the TypeScript tests. */
import type { ChildProcess } from 'node:child_process';

export const REPO_ROOT: string;
export const HUB_DLL: string;

export interface RunningHub {
  /** http://127.0.0.1:PORT */
  httpUrl: string;
  /** https://127.0.0.1:PORT (HTTP/2, self-signed) when started with https. */
  httpsUrl: string | null;
  process: ChildProcess;
  /** Everything the hub printed, for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

export interface HubStartOptions {
  https?: boolean;
  port?: number;
  httpsPort?: number;
  extraArgs?: string[];
  /** How long to wait for the hub to listen, in ms. Default 30,000. */
  startTimeoutMs?: number;
}

export function startHub(options?: HubStartOptions): Promise<RunningHub>;

export interface HubExit {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built hub with `args` alone until it exits (start-up refusals); rejects after `timeoutMs` (default 30,000). */
export function runHubToExit(args: string[], timeoutMs?: number): Promise<HubExit>;
