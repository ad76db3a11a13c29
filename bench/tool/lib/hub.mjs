// Starts the built hub-sample serving the built dashboard, on the bench's ports.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * @param corsOrigins origins of pages that call the hub from elsewhere (the raw browser client).
 * @param extraArgs more hub settings (`['--MaxControlOutsiders', '100']`).
 */
export async function startHub(root, { port, httpsPort, corsOrigins = [], extraArgs = [] }) {
  const dll = path.join(root, 'hub-sample/bin/Release/net10.0/HubSample.dll');
  if (!existsSync(dll)) throw new Error(`The hub-sample is not built (${dll} is missing): run 'npm run build:hub'.`);
  if (!existsSync(path.join(root, 'dist/index.html'))) throw new Error("The dashboard is not built (dist/index.html is missing): run 'npx vite build'.");
  const args = [dll, '--port', String(port), '--HttpsPort', String(httpsPort), '--DashboardDir', 'dist', '--CorsOrigins', corsOrigins.join(','), ...extraArgs];
  const child = spawn('dotnet', args, { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) => child.on('exit', resolve));
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) break;
    if (await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false)) {
      return {
        pid: child.pid,
        httpUrl: `http://127.0.0.1:${port}`,
        httpsUrl: `https://127.0.0.1:${httpsPort}`,
        async stop() {
          child.kill('SIGTERM');
          await exited;
        },
      };
    }
    await sleep(200);
  }
  child.kill('SIGKILL');
  throw new Error(`The hub-sample did not answer on port ${port} within 20 s (is the port taken?). Its output: ${stderr.slice(-1_000)}`);
}
