/** Runs the built headless runner (`node bin/live-bench.js`, after `npm run build:cli`) as a user does. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
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
