/**
 * A capacity search from the dashboard whose hub is killed mid-search, in real Chromium: shown as
 * its diagnosis says, red, never as "Holds", on the page, in the report and in the History. Its
 * hub is its own, to kill. The search that finds a limited hub is capacity.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { dashboardOnOwnHub, type OwnDashboard } from '../support/own-dashboard.ts';

describe('a capacity search whose hub stops', () => {
  let own: OwnDashboard;
  let p: Page;

  beforeAll(async () => {
    own = await dashboardOnOwnHub();
    p = own.page;
  });

  afterAll(() => own?.close());

  it('is shown as its diagnosis says, red, never as "Holds", on the page, in the report and in the History', async () => {
    await p.getByTestId('mode-find-capacity').click();
    await p.getByTestId('capacity-ramp').selectOption('rate');
    for (const [field, value] of [['start', '100'], ['step', '100'], ['max', '400'], ['step-sec', '3'], ['settle-sec', '1'], ['bisect', '1']]) {
      await p.getByTestId(`capacity-${field}`).fill(value!);
    }
    await p.getByTestId('find-capacity-start').click();
    // Killed while the second step sends, after the first held: once its run bar says running.
    await p.waitForFunction(() => /^Capacity step 2 /.test(document.querySelector('[data-testid=run-bar-step]')?.textContent ?? '')
      && document.querySelector('[data-testid=run-bar]')?.getAttribute('data-phase') === 'running', null, { timeout: 60_000, polling: 100 });
    own.hub.process.kill('SIGKILL');
    await p.getByTestId('capacity-export-json').waitFor({ timeout: 60_000 });
    const card = p.getByTestId('capacity-card');
    expect(await card.getAttribute('data-finding')).toBe('fault');
    const stage = p.getByTestId('page-run').getByTestId('capacity-stage');
    const title = (await stage.getByTestId('capacity-stage-title').textContent())!;
    expect(title).toMatch(/^No capacity: the search stopped at step 2 \(200 msg\/s/);
    expect(title).not.toMatch(/Holds?\b/);
    expect(await stage.getAttribute('data-tone')).toBe('bad');
    // What to do, as the step's diagnosis says it.
    expect(await p.getByTestId('capacity-fault-note').getAttribute('data-cause')).toMatch(/^(hubCrashed|unreachable|serviceRefused)$/);
    await p.screenshot({ path: '/tmp/capacity-hub-stopped-1280x720.png' });

    const [download] = await Promise.all([p.waitForEvent('download'), p.getByTestId('capacity-export-html').click()]);
    const report = await p.context().newPage();
    await report.setContent(await readFile((await download.path())!, 'utf8'));
    expect(await report.locator('h1').textContent()).toBe(`Capacity search: ${title}`);
    expect(await report.getByTestId('report-capacity-broke').getAttribute('data-tone')).toBe('bad');
    expect(await report.locator('body').textContent()).not.toMatch(/\bHolds?\b/);
    await report.close();

    await p.getByTestId('nav-history').click();
    const row = p.getByTestId('history-search-row');
    await row.waitFor();
    expect(await row.getAttribute('data-tone')).toBe('bad');
    expect(await row.getByTestId('history-search-verdict').textContent()).toBe('fault, no capacity');
    expect(await row.getByTestId('history-search-answer').textContent()).toBe(title);
  });
});
