import { defineConfig } from 'vite';
import { quietBuild } from './vite.config.ts';

// The headless runner and its worker-thread entry, built for Node. @microsoft/signalr stays
// external: its CommonJS build finds the `ws` and `eventsource` packages Node needs.
// hdr-histogram-js is bundled: Node cannot see the named exports of its UMD file.
export default defineConfig({
  build: {
    ssr: true,
    outDir: 'dist-cli',
    emptyOutDir: true,
    target: 'node20',
    rolldownOptions: {
      input: { 'live-bench': 'cli/main.ts', 'engine-thread': 'cli/engine-thread.ts' },
      output: { format: 'es', entryFileNames: '[name].js' },
      onLog: quietBuild,
    },
  },
  ssr: { noExternal: ['hdr-histogram-js'] },
});
