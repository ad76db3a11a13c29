/**
 * The house's layout as a test: imports flow one way. core/ is pure (it imports only core/,
 * hdr-histogram-js, parse-prometheus-text-format and package.json for the version), only signalr/ imports the SignalR client, workers/ never import the page,
 * the runner, the SignalR adapters or the hosts that wire them together, core/'s rooms are
 * entered from outside through their index.ts only and import each other one way, and no module
 * imports itself back through others (type-only imports count: they tie the modules' meaning
 * together just the same). Every import form is read: static and type-only imports, side-effect
 * imports, `export ... from`, dynamic `import()`, and a worker's `new URL(..., import.meta.url)`.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/hub-process.ts';

const FOLDERS = ['core', 'hosts', 'workers', 'signalr', 'src', 'cli'];

function sources(folder: string): string[] {
  return readdirSync(path.join(REPO_ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(ts|svelte)$/.test(file) && !file.endsWith('.d.ts'))
    .map((file) => path.join(folder, file).split(path.sep).join('/'));
}

/** Static imports and re-exports (`import x from`, `import type`, `export * from`, over several lines). */
const STATIC = /(?:^|[\n;}])\s*(?:import|export)\b[^;'"]*?\bfrom\s*(['"])([^'"\n]+)\1/g;
/** Side-effect imports: `import './x'`. */
const SIDE_EFFECT = /(?:^|[\n;}])\s*import\s*(['"])([^'"\n]+)\1/g;
/** Dynamic imports, and the module a worker is started from. */
const DYNAMIC = /\bimport\(\s*(['"])([^'"\n]+)\1\s*\)|\bnew\s+URL\(\s*(['"])(\.[^'"\n]+)\3\s*,\s*import\.meta\.url/g;

/** Every specifier a source names, in any of the forms above. */
function specifiersOf(text: string): string[] {
  return [
    ...[...text.matchAll(STATIC)].map((m) => m[2]!),
    ...[...text.matchAll(SIDE_EFFECT)].map((m) => m[2]!),
    ...[...text.matchAll(DYNAMIC)].map((m) => (m[2] ?? m[4])!),
  ];
}

/** Every module's imports: project files as repo-relative paths, packages by name. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of FOLDERS.flatMap(sources)) {
    const text = readFileSync(path.join(REPO_ROOT, file), 'utf8');
    graph.set(file, specifiersOf(text).map((s) => (s.startsWith('.') ? path.posix.normalize(path.posix.join(path.posix.dirname(file), s)) : s)));
  }
  return graph;
}

const graph = importGraph();
const importsOf = (prefix: string) => [...graph].filter(([file]) => file.startsWith(prefix)).flatMap(([file, deps]) => deps.map((dep) => [file, dep] as const));

/** core/'s rooms: its folders, each with a front door. */
const ROOMS = readdirSync(path.join(REPO_ROOT, 'core'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => `core/${entry.name}/`);
const roomOf = (file: string) => ROOMS.find((room) => file.startsWith(room)) ?? null;

describe('reading imports', () => {
  it('reads every import form, in single and double quotes', () => {
    const text = [
      `import { a } from './a.ts';`,
      `import type { B } from "./b.ts";`,
      `import {\n  c,\n  type D,\n} from '../c.ts';`,
      `import './side.css';`,
      `import "./side-effect.ts";`,
      `export * from './e.ts';`,
      `export { f } from "./f.ts";`,
      `const g = await import('./g.ts');`,
      `const h = () => import("./h.ts");`,
      `new Worker(new URL('./i.worker.ts', import.meta.url), { type: 'module' });`,
      `// a comment that says where a value comes from, not an import`,
      `const text = 'taken from nowhere';`,
    ].join('\n');
    expect(specifiersOf(text).sort()).toEqual(['../c.ts', './a.ts', './b.ts', './e.ts', './f.ts', './g.ts', './h.ts', './i.worker.ts', './side-effect.ts', './side.css']);
  });
});

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

  it('workers/ and signalr/ never import the page, the runner or the hosts', () => {
    const wrong = [...importsOf('workers/'), ...importsOf('signalr/')].filter(([, dep]) => dep.startsWith('src/') || dep.startsWith('cli/') || dep.startsWith('hosts/'));
    expect(wrong).toEqual([]);
  });

  it('workers/ never import signalr/: the engine knows connections by its own interface, hosts/ hands it the SignalR ones', () => {
    expect(importsOf('workers/').filter(([, dep]) => dep.startsWith('signalr/'))).toEqual([]);
  });

  it('a core/ room is entered from outside through its index.ts only', () => {
    expect(ROOMS.length).toBeGreaterThan(5);
    for (const room of ROOMS) expect(existsSync(path.join(REPO_ROOT, room, 'index.ts')), `${room}index.ts`).toBe(true);
    const deep = [...graph].flatMap(([file, deps]) =>
      deps.filter((dep) => {
        const room = roomOf(dep);
        return room !== null && !file.startsWith(room) && dep !== `${room}index.ts`;
      }).map((dep) => `${file} -> ${dep}`));
    expect(deep).toEqual([]);
  });

  it('a room\'s front door names what it hands on: no `export *`, so what other rooms may use is read at the door', () => {
    const open = ROOMS.filter((room) => /\bexport\s*\*/.test(readFileSync(path.join(REPO_ROOT, room, 'index.ts'), 'utf8')));
    expect(open).toEqual([]);
  });

  it('core/ rooms import each other one way', () => {
    const arrows = new Map<string, Set<string>>();
    for (const [file, dep] of importsOf('core/')) {
      const from = roomOf(file) ?? file;
      const to = roomOf(dep) ?? dep;
      if (from === to || !dep.startsWith('core/')) continue;
      if (!arrows.has(from)) arrows.set(from, new Set());
      arrows.get(from)!.add(to);
    }
    const reaches = (from: string, to: string, seen = new Set<string>()): boolean =>
      [...(arrows.get(from) ?? [])].some((next) => next === to || (!seen.has(next) && (seen.add(next), reaches(next, to, seen))));
    const both = [...arrows].flatMap(([from, tos]) => [...tos].filter((to) => reaches(to, from)).map((to) => `${from} -> ${to}`));
    expect(arrows.size).toBeGreaterThan(5);
    expect(both).toEqual([]);
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

describe('names that say which', () => {
  const files = sources('core');
  /** Every room has a front door (index.ts) and may have a catalog of its words (words.ts): those two names are the house's convention. */
  const SHARED = new Set(['index.ts', 'words.ts']);

  it('no two files in core/ share a name', () => {
    const byName = new Map<string, string[]>();
    for (const file of files) {
      const name = path.posix.basename(file);
      if (!SHARED.has(name)) byName.set(name, [...(byName.get(name) ?? []), file]);
    }
    expect([...byName.values()].filter((same) => same.length > 1)).toEqual([]);
  });

  it('no file in core/ is named like another room', () => {
    const rooms = new Set(ROOMS);
    const misleading = files.filter((file) => {
      const named = `core/${path.posix.basename(file, '.ts')}/`;
      return rooms.has(named) && roomOf(file) !== named;
    });
    expect(misleading).toEqual([]);
  });
});
