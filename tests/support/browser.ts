/**
 * Launches Debian's Chromium through playwright-core with a fresh profile (Playwright cannot
 * download its own browser here). Playwright watches every WebSocket frame, which costs several
 * times the browser's own CPU: fine for tests, never for benchmarks.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../scripts/chromium.mjs';

export { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../scripts/chromium.mjs';

export interface LaunchedBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launchChromium(): Promise<LaunchedBrowser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium is not at ${CHROMIUM_PATH}. Install it with 'apt-get install -y chromium' (npm test does this when run as root), or set CHROMIUM_PATH.`);
  }
  const profile = await mkdtemp(path.join(os.tmpdir(), 'live-bench-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    ignoreHTTPSErrors: true,
    acceptDownloads: true,
    viewport: { width: 1280, height: 1000 },
  });
  return {
    context,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
