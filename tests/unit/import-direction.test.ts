/**
 * The house's layout as a test: imports flow one way. core/ is pure (it imports only core/,
 * hdr-histogram-js, parse-prometheus-text-format and package.json for the version), only signalr/ imports the SignalR client, workers/ never import the page,
 * and no module imports itself back through others (type-only imports count: they tie the
 * modules' meaning together just the same).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/hub-process.ts';

const FOLDERS = ['core', 'workers', 'signalr', 'src', 'cli'];

function sources(folder: string): string[] {
  return readdirSync(path.join(REPO_ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(ts|svelte)$/.test(file) && !file.endsWith('.d.ts'))
    .map((file) => path.join(folder, file));
}

/** Every module's imports: project files as repo-relative paths, packages by name. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of FOLDERS.flatMap(sources)) {
    const text = readFileSync(path.join(REPO_ROOT, file), 'utf8');
    const specifiers = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s+'([^']+)'/g)].map((m) => m[1]!);
    graph.set(file, specifiers.map((s) => (s.startsWith('.') ? path.normalize(path.join(path.dirname(file), s)) : s)));
  }
  return graph;
}

const graph = importGraph();
const importsOf = (prefix: string) => [...graph].filter(([file]) => file.startsWith(prefix)).flatMap(([file, deps]) => deps.map((dep) => [file, dep] as const));

describe('imports flow one way', () => {
  it('core/ imports only core/, hdr-histogram-js, the Prometheus text parser and the package\'s version', () => {
    const outside = importsOf('core/').filter(([, dep]) => !dep.startsWith('core/') && dep !== 'hdr-histogram-js' && dep !== 'parse-prometheus-text-format' && dep !== 'package.json');
    expect(outside).toEqual([]);
  });

  it('only signalr/ imports the SignalR client', () => {
    const users = [...graph].flatMap(([file, deps]) => deps.filter((d) => d.startsWith('@microsoft/signalr')).map(() => file));
    expect(users.length).toBeGreaterThan(0);
    expect(users.filter((file) => !file.startsWith('signalr/'))).toEqual([]);
  });

  it('workers/ and signalr/ never import the page or the runner', () => {
    const wrong = [...importsOf('workers/'), ...importsOf('signalr/')].filter(([, dep]) => dep.startsWith('src/') || dep.startsWith('cli/'));
    expect(wrong).toEqual([]);
  });

  it('no module imports itself back through others', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, trail: string[]) => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        cycles.push([...trail.slice(trail.indexOf(file)), file].join(' -> '));
        return;
      }
      state.set(file, 'open');
      for (const dep of graph.get(file) ?? []) if (graph.has(dep)) visit(dep, [...trail, file]);
      state.set(file, 'done');
    };
    for (const file of graph.keys()) visit(file, []);
    expect(cycles).toEqual([]);
  });
});
