/**
 * A browser test's own hub-sample (with the settings it needs), serving the dashboard, and a
 * Chromium page on it. Its own hub, so the test can stop or kill it, or give it test-only
 * settings, without touching the project's shared one.
 */
import type { Page } from 'playwright-core';
import { launchChromium, type LaunchedBrowser } from './browser.ts';
import { startHub, type RunningHub } from './hub-process.ts';

export interface OwnDashboard {
  hub: RunningHub;
  browser: LaunchedBrowser;
  page: Page;
  /** Closes the browser, then stops the hub (whatever state a test left it in). */
  close(): Promise<void>;
}

export async function dashboardOnOwnHub(hubArgs: string[] = []): Promise<OwnDashboard> {
  const hub = await startHub({ extraArgs: hubArgs });
  const browser = await launchChromium();
  const page = await browser.context.newPage();
  await page.goto(hub.httpUrl!);
  return {
    hub,
    browser,
    page,
    close: async () => {
      await browser.close();
      await hub.stop();
    },
  };
}
