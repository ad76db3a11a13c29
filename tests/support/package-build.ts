/**
 * The two packages as their users get them, for the packaging tests: the npm package from
 * `npm pack` and the hub-sample's dotnet tool package from `dotnet pack`, each written into a
 * folder the test gives (outside the checkout).
 *
 * `npm pack` runs package.json's prepack, which builds the dashboard and the runner (two Vite
 * builds, most of a minute on a busy machine). The tests pack with --ignore-scripts instead,
 * after `freshBuilds()` has built whichever of dist/ and dist-cli/ is older than a source it is
 * built from: what is packed is what prepack would have built. The hub's pack likewise reuses
 * its Release build when that is newer than its sources.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from './hub-process.ts';

const run = promisify(execFile);

/** What either build reads: the sources, the page's and the builds' configurations, the dependencies. */
const BUILD_INPUTS = ['src', 'core', 'cli', 'workers', 'signalr', 'hosts', 'index.html', 'vite.config.ts', 'vite.cli.config.ts', 'svelte.config.js', 'package.json', 'package-lock.json'];

function newestMtimeMs(entry: string): number {
  const stats = statSync(entry);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(entry).reduce((newest, name) => Math.max(newest, newestMtimeMs(path.join(entry, name))), stats.mtimeMs);
}

function builtAtMs(file: string): number {
  return existsSync(file) ? statSync(file).mtimeMs : 0;
}

/** Builds dist/ (the dashboard) and dist-cli/ (the runner) when a source is newer than the build. */
export async function freshBuilds(): Promise<{ rebuilt: string[] }> {
  const sources = Math.max(...BUILD_INPUTS.map((entry) => newestMtimeMs(path.join(REPO_ROOT, entry))));
  const rebuilt: string[] = [];
  if (builtAtMs(path.join(REPO_ROOT, 'dist/index.html')) < sources) {
    await run('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: REPO_ROOT });
    rebuilt.push('dist');
  }
  if (builtAtMs(path.join(REPO_ROOT, 'dist-cli/live-bench.js')) < sources) {
    await run('npx', ['vite', 'build', '-c', 'vite.cli.config.ts', '--logLevel', 'warn'], { cwd: REPO_ROOT });
    rebuilt.push('dist-cli');
  }
  return { rebuilt };
}

export interface NpmPackage {
  /** The tarball's path. */
  file: string;
  /** Its size in bytes, compressed. */
  size: number;
  /** The paths it holds, as `npm pack --json` lists them. */
  files: string[];
}

/** `npm pack` of the checkout into `into` (builds made fresh first; prepack skipped, see above). */
export async function packNpm(into: string): Promise<NpmPackage> {
  await freshBuilds();
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', into], { cwd: REPO_ROOT });
  const [packed] = JSON.parse(stdout) as { filename: string; size: number; files: { path: string }[] }[];
  return { file: path.join(into, packed!.filename), size: packed!.size, files: packed!.files.map((f) => f.path) };
}

/** What the hub's build reads: its sources and its project (its tests are not in it). */
function hubSourcesMtimeMs(): number {
  const dir = path.join(REPO_ROOT, 'hub-sample');
  return Math.max(...readdirSync(dir).filter((name) => name.endsWith('.cs') || name.endsWith('.csproj')).map((name) => statSync(path.join(dir, name)).mtimeMs));
}

/**
 * `dotnet pack` of the hub-sample into `into`: the tool package (a .nupkg) and its id. With
 * --no-build when the Release build is newer than the hub's sources: the suite's hub runs from
 * that build's files, which a build must not rewrite under it.
 */
export async function packHubTool(into: string): Promise<{ file: string; id: string; version: string }> {
  const built = builtAtMs(path.join(REPO_ROOT, 'hub-sample/bin/Release/net10.0/HubSample.dll')) > hubSourcesMtimeMs();
  await run('dotnet', ['pack', path.join(REPO_ROOT, 'hub-sample/HubSample.csproj'), '-c', 'Release', '--nologo', '-v', 'quiet', '-o', into, ...(built ? ['--no-build'] : [])], { cwd: REPO_ROOT });
  const name = readdirSync(into).find((file) => file.endsWith('.nupkg'));
  const match = name?.match(/^(.+?)\.(\d+\.\d+\.\d+)\.nupkg$/);
  if (!name || !match) throw new Error(`dotnet pack wrote no tool package into ${into}: ${readdirSync(into).join(', ')}`);
  return { file: path.join(into, name), id: match[1]!, version: match[2]! };
}
