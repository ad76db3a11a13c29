/** Runs the built headless runner (`node bin/live-bench.js`, after `npm run build:cli`) as a user does. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import { parseRunResult, type RunResult } from '../../core/result/result.ts';
import { REPO_ROOT } from './hub-process.ts';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Wall time from spawn to exit, ms. */
  elapsedMs: number;
}

/** @param during called with the running process, e.g. to signal it mid-run.
 *  @param openFiles when given, the runner's limit of open files (`ulimit -n`), as a user's
 *  shell can set it: a client that runs out of file descriptors.
 *  @param nodeArgs options for node itself, e.g. `--max-old-space-size=24` (V8 applies it to
 *  each engine thread too): a client that runs out of memory. */
export function liveBench(args: string[], during?: (child: ChildProcess) => void, openFiles?: number, nodeArgs: string[] = []): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const runner = [...nodeArgs, path.join(REPO_ROOT, 'bin/live-bench.js'), ...args];
    const child = openFiles === undefined
      ? spawn(process.execPath, runner, { cwd: REPO_ROOT })
      : spawn('bash', ['-c', `ulimit -n ${openFiles} && exec "$0" "$@"`, process.execPath, ...runner], { cwd: REPO_ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr, elapsedMs: Date.now() - started }));
    during?.(child);
  });
}

/** Calls `act` `afterMs` after the runner's first progress line of the sends ("0 s running"), to
 *  freeze, kill or cut something mid-run. Returns a function telling whether the sends were seen
 *  to begin. */
export function onceSending(child: ChildProcess, afterMs: number, act: () => void): () => boolean {
  let seen = false;
  let said = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    // Kept whole: a line may come in two chunks.
    said += chunk.toString();
    if (seen || !/\d+ s running/.test(said)) return;
    seen = true;
    setTimeout(() => {
      if (child.exitCode === null) act();
    }, afterMs);
  });
  return () => seen;
}

/** The run's --json file, which every run that started must write; the runner's words when it did not. */
/**
 * Runs the runner (with `--json jsonPath` among `args`) and freezes the hub (SIGSTOP) `afterMs`
 * into its sends, to the runner's end; the hub is thawed (SIGCONT) before this returns. Asserts
 * that the sends began, so a run that never got there fails here rather than passing vacuously.
 */
export async function runWithHubFrozen(hub: { process: ChildProcess }, args: string[], jsonPath: string, afterMs = 1_500): Promise<{ run: CliRun; result: RunResult }> {
  let sending = () => false;
  const run = await liveBench(args, (child) => {
    sending = onceSending(child, afterMs, () => hub.process.kill('SIGSTOP'));
  });
  hub.process.kill('SIGCONT');
  expect(sending(), run.stderr).toBe(true);
  return { run, result: await resultOf(run, jsonPath) };
}

export async function resultOf(run: CliRun, jsonPath: string): Promise<RunResult> {
  const text = await readFile(jsonPath, 'utf8').catch(() => null);
  expect(text, run.stderr).not.toBeNull();
  return parseRunResult(text!);
}
