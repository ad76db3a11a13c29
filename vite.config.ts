import { defineConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';

// The page must be cross-origin isolated for 5 us performance.now() (0.1 ms otherwise);
// the hub-sample sends the same headers when it serves the built dashboard.
const isolationHeaders = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

export default defineConfig({
  plugins: [svelte()],
  // Svelte components mount only with the browser build of svelte under Vitest.
  resolve: process.env.VITEST ? { conditions: ['browser'] } : undefined,
  server: { port: 5173, strictPort: true, headers: isolationHeaders },
  preview: { headers: isolationHeaders },
  worker: { format: 'es' },
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022' },
  test: {
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], environment: 'node' },
      },
      {
        extends: true,
        test: { name: 'dom', include: ['tests/dom/**/*.test.ts'], environment: 'happy-dom' },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/support/hub-global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['tests/browser/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/support/hub-global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 60_000,
          // One Chromium at a time: the machine has two cores and the browser limits are per profile.
          fileParallelism: false,
        },
      },
    ],
  },
});
