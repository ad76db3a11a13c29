/** Headless runners started as agents of a dashboard's session (`live-bench --agent`). */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from './hub-process.ts';

export interface RunningAgent {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exited: Promise<number | null>;
}

/** Starts an agent and resolves once it has joined the session (or rejects with what it said). */
export async function startAgent(controlUrl: string, session: string, extraArgs: string[] = []): Promise<RunningAgent> {
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'bin/live-bench.js'), '--agent', controlUrl, '--session', session, ...extraArgs], { cwd: REPO_ROOT });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    const timeout = setTimeout(() => reject(new Error(`agent did not join within 15 s: ${stderr}`)), 15_000);
    child.stderr!.on('data', () => {
      if (stderr.includes('joined session')) {
        clearTimeout(timeout);
        resolve();
      }
    });
    void exited.then((code) => {
      clearTimeout(timeout);
      reject(new Error(`agent exited with ${code} before joining: ${stderr}`));
    });
  });
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

/** The counts an agent printed for its run ("Agent run 1: … sent N, planned N, received N"). */
export function agentCounts(stdout: string): { opened: number; sent: number; planned: number; received: number } {
  const match = /connections opened (\d+), failed \d+; sent (\d+), planned (\d+), received (\d+)/.exec(stdout.replace(/\s+/g, ' '));
  if (!match) throw new Error(`no run line in the agent's output: ${stdout}`);
  const [opened, sent, planned, received] = match.slice(1).map(Number) as [number, number, number, number];
  return { opened, sent, planned, received };
}
