/**
 * The one way this repo starts the hub-sample (built by `npm run build:hub`), serving the built
 * dashboard: for tests, benchmarks and scripts alike.
 * - As a module: `startHub(options)` starts it in the background, waits until it listens (ports 0
 *   pick free ones), and returns its URLs and a `stop()`.
 * - As a command: `node scripts/hub.mjs [hub settings...]` runs it in the foreground with the
 *   dashboard (what `npm start` does), passing its output, signals and exit code through.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The built hub-sample; HUB_DLL points elsewhere (e.g. another build of it). */
export const HUB_DLL = process.env.HUB_DLL ?? path.join(REPO_ROOT, 'hub-sample/bin/Release/net10.0/HubSample.dll');
const DASHBOARD_DIR = path.join(REPO_ROOT, 'dist');

/** The hub's command line: the dll, the dashboard, then the caller's settings (later ones win). */
function hubArgs(settings) {
  if (!existsSync(HUB_DLL)) throw new Error(`The hub-sample is not built (${HUB_DLL} is missing). Run 'npm run build:hub' first.`);
  return [HUB_DLL, '--DashboardDir', DASHBOARD_DIR, ...settings];
}

/**
 * @param {{ https?: boolean, port?: number, httpsPort?: number, extraArgs?: string[], startTimeoutMs?: number }} [options]
 *   port and httpsPort default to 0 (free ports); https adds the HTTPS/HTTP2 listener; the
 *   start-up timeout defaults to 30,000 ms.
 */
export async function startHub(options = {}) {
  const settings = ['--port', String(options.port ?? 0)];
  if (options.https || options.httpsPort !== undefined) settings.push('--HttpsPort', String(options.httpsPort ?? 0));
  settings.push(...(options.extraArgs ?? []));
  const child = spawn('dotnet', hubArgs(settings), { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const wanted = settings.includes('--HttpsPort') ? 2 : 1;
  const timeoutMs = options.startTimeoutMs ?? 30_000;
  let output = '';
  const urls = [];
  const listening = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The hub-sample did not start within ${timeoutMs} ms. It printed:\n${output}`)), timeoutMs);
    const onData = (chunk) => {
      output += chunk.toString();
      // The hub prints this line per address once it listens; keep its shape (hub-sample/Program.cs).
      for (const match of output.matchAll(/hub listening on (\S+)/g)) if (!urls.includes(match[1])) urls.push(match[1]);
      if (urls.length >= wanted) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
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
    httpUrl: urls.find((u) => u.startsWith('http:')),
    httpsUrl: urls.find((u) => u.startsWith('https:')) ?? null,
    process: child,
    output: () => output,
    stop: () => stopProcess(child),
  };
}

/**
 * Runs the built hub with `args` alone (no dashboard or defaults added) until it exits, for
 * start-up refusals; kills it and rejects if it is still running after `timeoutMs`.
 * @param {string[]} args
 * @param {number} [timeoutMs] default 30,000
 */
export function runHubToExit(args, timeoutMs = 30_000) {
  const child = spawn('dotnet', [HUB_DLL, ...args], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk) => (stderr += chunk.toString()));
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

async function stopProcess(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  let args;
  try {
    args = hubArgs(process.argv.slice(2));
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
  const child = spawn('dotnet', args, { cwd: process.cwd(), stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal === 'SIGINT' ? 130 : 143)));
}
