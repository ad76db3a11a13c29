/**
 * The tool installed the way its users install it, with no checkout in reach: the npm package
 * from `npm pack` installed into an empty folder (its dependencies from the registry, as
 * usual), the hub-sample's tool package from `dotnet pack` installed with `dotnet tool install
 * --tool-path` from a local folder; then `npx live-bench` runs a short benchmark against the
 * installed hub, and the installed `live-bench serve` serves the page cross-origin isolated.
 * Packing reuses dist/ and dist-cli/ when they are newer than their sources (tests/support/package-build.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pkg from '../../package.json';
import { packHubTool, packNpm, type NpmPackage } from '../support/package-build.ts';

/** The packed tarball measured 0.72 to 0.76 MB at 0.2.0 (the dashboard's bundle and the runner's
 *  hdr-histogram-js are most of it); a little above, so a package that takes in something it
 *  should not (sources, maps, tests) fails here. */
const MAX_TARBALL_BYTES = 850_000;

let temp: string;
let app: string;
let tools: string;
let npmPackage: NpmPackage;
let hub: ChildProcess | undefined;
let hubUrl: string;
let hubOutput = '';

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end (killed after `timeoutMs`), with its output. */
function runToEnd(command: string, args: string[], cwd: string, timeoutMs = 60_000): Promise<Ran> {
  const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} ${args.join(' ')} did not end within ${timeoutMs} ms. It printed:\n${stdout}${stderr}`));
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Starts a long-running command and waits for a line matching `ready` in its output. */
function startUntil(command: string, args: string[], cwd: string, ready: RegExp, timeoutMs = 30_000): Promise<{ child: ChildProcess; match: RegExpMatchArray; output: () => string }> {
  const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} ${args.join(' ')} was not ready within ${timeoutMs} ms. It printed:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = output.match(ready);
      if (match) {
        clearTimeout(timer);
        resolve({ child, match, output: () => output });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} ${args.join(' ')} exited with code ${code} before it was ready. It printed:\n${output}`));
    });
  });
}

function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  return exited.finally(() => clearTimeout(timer));
}

beforeAll(async () => {
  // Outside the checkout: nothing of it can be found from there by Node's module resolution.
  temp = await mkdtemp(path.join(os.tmpdir(), 'live-bench-package-'));
  app = path.join(temp, 'app');
  tools = path.join(temp, 'tools');
  const feed = path.join(temp, 'feed');
  // Both packs at once: npm's is mostly I/O, dotnet's a build that is usually up to date.
  const [packed, hubTool] = await Promise.all([packNpm(temp), packHubTool(feed)]);
  npmPackage = packed;
  expect(hubTool).toMatchObject({ id: 'SignalRLiveBench.HubSample', version: pkg.version });
  await mkdir(app);
  const [npmInstall, toolInstall] = await Promise.all([
    runToEnd('npm', ['install', npmPackage.file, '--no-audit', '--no-fund', '--no-update-notifier'], app),
    runToEnd('dotnet', ['tool', 'install', '--tool-path', tools, '--add-source', feed, hubTool.id, '--version', hubTool.version], temp),
  ]);
  expect(npmInstall.code, npmInstall.stderr).toBe(0);
  expect(toolInstall.code, toolInstall.stdout + toolInstall.stderr).toBe(0);
  // The installed hub on a free port, from the temporary folder (no dashboard there: not needed).
  const started = await startUntil(path.join(tools, 'signalr-bench-hub'), ['--port', '0'], temp, /hub listening on (http:\S+)/);
  hub = started.child;
  hubUrl = started.match[1]!;
  hubOutput = started.output();
}, 120_000);

afterAll(async () => {
  await stop(hub);
  if (temp) await rm(temp, { recursive: true, force: true });
});

describe('the npm package', () => {
  it('holds the built runner and dashboard, and no tests, benchmarks, sources or source maps', () => {
    const files = npmPackage.files;
    expect(files).toContain('package.json');
    expect(files).toContain('bin/live-bench.js');
    expect(files).toContain('dist-cli/live-bench.js');
    expect(files).toContain('dist/index.html');
    expect(files.some((file) => /^dist\/assets\/index-.+\.js$/.test(file))).toBe(true);
    expect(files).toContain('CHANGELOG.md');
    expect(files).toContain('docs/install.md');
    expect(files.filter((file) => /^(tests|bench|src|core|cli|workers|signalr|hosts|hub-sample|scripts|deploy|profiles|node_modules)\//.test(file))).toEqual([]);
    expect(files.filter((file) => file.endsWith('.map') || file.endsWith('.ts'))).toEqual([]);
    expect(npmPackage.size).toBeLessThan(MAX_TARBALL_BYTES);
  });

  it('installs with only what the runner needs at run time: no build tools, no page libraries', async () => {
    const installed = await readdir(path.join(app, 'node_modules'));
    expect(installed).toEqual(expect.arrayContaining(['@microsoft', 'signalr-live-bench', 'ws', 'hdr-histogram-js', 'parse-prometheus-text-format']));
    for (const buildOnly of ['svelte', 'uplot', 'vite', 'vitest', 'typescript', 'playwright-core', '@sveltejs']) expect(installed).not.toContain(buildOnly);
  });

  it('live-bench --version names the tool and the SignalR client', async () => {
    const ran = await runToEnd('npx', ['live-bench', '--version'], app);
    expect(ran.code).toBe(0);
    expect(ran.stdout.trim()).toBe(`live-bench ${pkg.version} (@microsoft/signalr ${pkg.dependencies['@microsoft/signalr']}, Node ${process.version})`);
  });

  it('npx live-bench runs a benchmark against the installed hub, and its files name the versions', async () => {
    const ran = await runToEnd('npx', ['live-bench', '--endpoint', `${hubUrl}/signalrbench`, '--connections', '4', '--duration', '2', '--warmup', '0', '--json', 'run.json', '--html', 'run.html'], app);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toMatch(/^Verdict: Pass/m);
    const doc = JSON.parse(await readFile(path.join(app, 'run.json'), 'utf8'));
    expect(doc).toMatchObject({ toolVersion: pkg.version, signalrClientVersion: pkg.dependencies['@microsoft/signalr'], outcome: { kind: 'finished' }, verdict: { status: 'pass' } });
    expect(doc.fates.planned).toBeGreaterThan(0);
    expect(doc.fates.lost).toBe(0);
    const html = await readFile(path.join(app, 'run.html'), 'utf8');
    expect(html).toContain(`SignalR Live Bench ${pkg.version}, @microsoft/signalr ${pkg.dependencies['@microsoft/signalr']}`);
  }, 60_000);

  it('live-bench serve serves the page cross-origin isolated, with its content types', async () => {
    const served = await startUntil('npx', ['live-bench', 'serve', '--port', '0'], app, /the dashboard is at (http:\S+?),? /);
    try {
      const url = served.match[1]!;
      const page = await fetch(url);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.headers.get('cross-origin-opener-policy')).toBe('same-origin');
      expect(page.headers.get('cross-origin-embedder-policy')).toBe('credentialless');
      const script = (await page.text()).match(/src="\/?(assets\/[^"]+\.js)"/)?.[1];
      expect(script).toBeDefined();
      const asset = await fetch(new URL(script!, url));
      expect(asset.status).toBe(200);
      expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect(asset.headers.get('cross-origin-embedder-policy')).toBe('credentialless');
      expect((await fetch(new URL('/package.json', url))).status).toBe(404);
    } finally {
      await stop(served.child);
    }
  });

  it('live-bench serve refuses a bad --port at once, saying what to pass', async () => {
    const started = Date.now();
    const ran = await runToEnd('npx', ['live-bench', 'serve', '--port', '99999'], app, 15_000);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain("live-bench: --port is '99999', but must be a whole number from 0 to 65535");
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe('the hub-sample as a dotnet tool', () => {
  it('starts with its version first, and listens as the repository\'s hub does', () => {
    expect(hubOutput).toContain(`SignalR Live Bench hub-sample ${pkg.version} (.NET `);
    expect(hubUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(existsSync(path.join(tools, 'signalr-bench-hub'))).toBe(true);
  });

  it('--help lists its settings and --version says the version', async () => {
    const help = await runToEnd(path.join(tools, 'signalr-bench-hub'), ['--help'], temp, 20_000);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/--port <0-65535>\s+5180/);
    expect(help.stdout).toMatch(/--CorsOrigins <text>\s+http:\/\/localhost:5173/);
    const version = await runToEnd(path.join(tools, 'signalr-bench-hub'), ['--version'], temp, 20_000);
    expect(version.stdout.trim()).toBe(`signalr-bench-hub ${pkg.version}`);
  });
});
