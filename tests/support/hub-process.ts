/**
 * Starts the real hub-sample (built by `npm run build:hub`) on free ports and stops it.
 * Used by the integration and browser tests' global setup and by scripts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The built hub-sample; HUB_DLL points elsewhere (e.g. another build of it). */
export const HUB_DLL = process.env.HUB_DLL ?? path.join(REPO_ROOT, 'hub-sample/bin/Release/net10.0/HubSample.dll');

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
  extraArgs?: string[];
  /** How long to wait for the hub to listen, in ms. Default 30,000. */
  startTimeoutMs?: number;
}

export async function startHub(options: HubStartOptions = {}): Promise<RunningHub> {
  if (!existsSync(HUB_DLL)) {
    throw new Error(`The hub-sample is not built (${HUB_DLL} is missing). Run 'npm run build:hub' first.`);
  }
  const args = [HUB_DLL, '--port', '0', '--DashboardDir', path.join(REPO_ROOT, 'dist')];
  if (options.https) args.push('--HttpsPort', '0');
  args.push(...(options.extraArgs ?? []));
  const child = spawn('dotnet', args, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const urls: string[] = [];
  const listening = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`The hub-sample did not start within ${options.startTimeoutMs ?? 30_000} ms. It printed:\n${output}`)),
      options.startTimeoutMs ?? 30_000,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      for (const match of output.matchAll(/hub listening on (\S+)/g)) if (!urls.includes(match[1]!)) urls.push(match[1]!);
      if (urls.length >= (options.https ? 2 : 1)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`The hub-sample exited with code ${code} before listening. It printed:\n${output}`));
    });
  });
  try {
    await listening;
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    httpUrl: urls.find((u) => u.startsWith('http:'))!,
    httpsUrl: urls.find((u) => u.startsWith('https:')) ?? null,
    process: child,
    output: () => output,
    stop: () => stopProcess(child),
  };
}

export interface HubExit {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built hub with `args` alone (no defaults added) until it exits, for start-up
 *  refusals; kills it and rejects if it is still running after `timeoutMs`. */
export function runHubToExit(args: string[], timeoutMs = 30_000): Promise<HubExit> {
  const child = spawn('dotnet', [HUB_DLL, ...args], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`The hub did not exit within ${timeoutMs} ms with ${args.join(' ')}. It printed:\n${stdout}${stderr}`));
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}
