import path from 'node:path';
import { configDefaults, defineConfig, type ViteUserConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { GROUP_ORDER, LOAD_FILES, LONGEST_FIRST, WORKERS } from './scripts/test-groups.mjs';

// The page must be cross-origin isolated for 5 us performance.now() (0.1 ms otherwise);
// the hub-sample sends the same headers when it serves the built dashboard.
const isolationHeaders = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  // credentialless, as the hub-sample sends it: see hub-sample/Dashboard.cs.
  'Cross-Origin-Embedder-Policy': 'credentialless',
};

/**
 * A quiet build, so a newcomer's first screen does not look broken:
 * - hdr-histogram-js finds Node's zlib with `eval('require("zlib")')` (so that bundlers leave it
 *   alone) and falls back to pako in a browser; its browser bundle also inlines a WebAssembly
 *   build the engine never loads. Both are deliberate and harmless here, yet Vite prints a boxed
 *   warning for each direct eval on every build: exactly those are dropped;
 * - the bundler's plugin timings say how slow this (shared) machine is, not what to fix.
 * Every other warning is kept.
 */
export function quietBuild(level: string, log: { code?: string; id?: string; message: string }, handler: (level: never, log: never) => void): void {
  if (log.code === 'EVAL' && /hdr-histogram-js/.test(log.id ?? log.message)) return;
  if (log.code === 'PLUGIN_TIMINGS') return;
  handler(level as never, log as never);
}

/** Vitest's order of files (by group, then by project name, then larger or, with a cache, slower
 *  files first), with the files of LONGEST_FIRST before the others of their project
 *  (scripts/test-groups.mjs says why). */
class GroupSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const longest = (spec: TestSpecification) => {
      const at = LONGEST_FIRST.indexOf(path.relative(spec.project.config.root, spec.moduleId).split(path.sep).join('/'));
      return at === -1 ? LONGEST_FIRST.length : at;
    };
    const sorted = await super.sort(files);
    const order = new Map(sorted.map((spec, index) => [spec, index]));
    return sorted.sort((a, b) => (a.project.name === b.project.name ? longest(a) - longest(b) : 0) || (order.get(a)! - order.get(b)!));
  }
}

/** The real hub-sample and the real SignalR client in Node (tests/integration/). */
const integration = {
  environment: 'node',
  globalSetup: ['tests/support/hub-global-setup.ts'],
  testTimeout: 60_000,
  hookTimeout: 60_000,
} satisfies ViteUserConfig['test'];
/** Real Chromium on the dashboard (tests/browser/); each file launches its own profile. */
const browser = { ...integration, testTimeout: 120_000 } satisfies ViteUserConfig['test'];
/** Vitest runs the projects of one group order together, with one worker count per group. */
const parallelGroup = { maxWorkers: WORKERS.parallel, sequence: { groupOrder: GROUP_ORDER.parallel } };
const browserGroup = { maxWorkers: WORKERS.browser, sequence: { groupOrder: GROUP_ORDER.browser } };
const loadGroup = { maxWorkers: WORKERS.load, sequence: { groupOrder: GROUP_ORDER.load } };

export default defineConfig({
  plugins: [svelte()],
  // Svelte components mount only with the browser build of svelte under Vitest.
  resolve: process.env.VITEST ? { conditions: ['browser'] } : undefined,
  server: { port: 5173, strictPort: true, headers: isolationHeaders },
  preview: { headers: isolationHeaders },
  worker: { format: 'es', rolldownOptions: { onLog: quietBuild } },
  // The main bundle is one page of uPlot, SignalR and Svelte: 580 kB is expected, not a warning.
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 1_000, rolldownOptions: { onLog: quietBuild } },
  test: {
    sequence: { sequencer: GroupSequencer },
    // Grouped by what a file needs of the machine (scripts/test-groups.mjs says why): unit, DOM
    // and integration files side by side, then the browser files two at a time, then the files that
    // measure the machine, one at a time with nothing beside them.
    projects: [
      {
        extends: true,
        // One module graph per worker, not per file: unit files test pure logic, and importing the
        // same core/ modules again for each of ~130 files cost more than their tests (63 s for the
        // project alone, 25 s so). A file that mocks a module (vi.mock) still gets its mock.
        test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], environment: 'node', isolate: false, ...parallelGroup },
      },
      {
        extends: true,
        test: { name: 'dom', include: ['tests/dom/**/*.test.ts'], environment: 'happy-dom', ...parallelGroup },
      },
      {
        extends: true,
        test: { name: 'integration', include: ['tests/integration/**/*.test.ts'], exclude: [...configDefaults.exclude, ...LOAD_FILES.integration], ...integration, ...parallelGroup },
      },
      {
        extends: true,
        test: { name: 'browser', include: ['tests/browser/**/*.test.ts'], exclude: [...configDefaults.exclude, ...LOAD_FILES.browser], ...browser, ...browserGroup },
      },
      {
        extends: true,
        test: { name: 'integration-load', include: LOAD_FILES.integration, ...integration, ...loadGroup },
      },
      {
        extends: true,
        test: { name: 'browser-load', include: LOAD_FILES.browser, ...browser, ...loadGroup },
      },
    ],
  },
});
