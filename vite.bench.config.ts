import { defineConfig } from 'vite';
import { quietBuild } from './vite.config.ts';

// The benchmarks' comparison clients import the engine's schedule and histogram settings from
// this one bundle (bench/tool/kit.ts): plain .mjs scripts in Node and a page's workers in
// Chromium cannot import the TypeScript sources. Everything is bundled, hdr-histogram-js included.
export default defineConfig({
  build: {
    outDir: 'dist-bench',
    emptyOutDir: true,
    target: 'es2022',
    minify: false,
    lib: { entry: 'bench/tool/kit.ts', formats: ['es'], fileName: 'kit' },
    rolldownOptions: { onLog: quietBuild },
  },
});
