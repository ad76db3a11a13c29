import { defineConfig } from 'vite';
import { quietBuild } from './vite.config.ts';

// The headless runner and its worker-thread entries (engines, metrics parsing), built for Node. @microsoft/signalr stays
// external: its CommonJS build finds the `ws` and `eventsource` packages Node needs.
// hdr-histogram-js is bundled: Node cannot see the named exports of its UMD file.
export default defineConfig({
  build: {
    ssr: true,
    outDir: 'dist-cli',
    emptyOutDir: true,
    target: 'node20',
    rolldownOptions: {
      input: { 'live-bench': 'cli/main.ts', 'engine-thread': 'cli/engine-thread.ts', 'metrics-thread': 'cli/metrics-thread.ts' },
      // hdr-histogram-js encodes with Node's native zlib when it can `require` it (its own
      // `eval('require("zlib")')`), else with pako: in an ES module there is no `require`, and
      // pako's per-call buffers cost the runner's one thread a block and garbage every second.
      output: { format: 'es', entryFileNames: '[name].js', banner: "import { createRequire as createRequireForZlib } from 'node:module'; const require = createRequireForZlib(import.meta.url);" },
      onLog: quietBuild,
    },
  },
  ssr: { noExternal: ['hdr-histogram-js'] },
});
