/**
 * How a run ends, as a person sees it in real Chromium: a hub killed mid-run reads as a red Fail
 * (never a pass) and stays so in the history; a run stopped a third of the way reads "stopped",
 * with no verdict; a frozen hub ends the run as failed within seconds, with the engine's reason.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openAdvanced } from '../support/dashboard-form.ts';
import { dashboardOnOwnHub, type OwnDashboard } from '../support/own-dashboard.ts';
import { startHub, type RunningHub } from '../support/hub-process.ts';

let page: Page;
let hub: RunningHub;

let own: OwnDashboard;

beforeAll(async () => {
  // Its own hub, serving the page too: killing it leaves the loaded page (and its IndexedDB) working.
  own = await dashboardOnOwnHub([]);
  ({ hub, page } = own);
});

afterAll(() => own?.close());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function start(durationSec: string) {
  await page.fill('input[name=connections]', '10');
  await openAdvanced(page);
  await page.fill('input[name=workers]', '1');
  await page.fill('input[name=sendIntervalMs]', '250');
  await page.fill('input[name=durationSec]', durationSec);
  await page.click('button[type=submit]');
  await page.waitForSelector('[data-testid=summary][data-phase=running]', { timeout: 30_000 });
}

async function historyRowOfLatest() {
  await page.getByTestId('nav-history').click();
  const row = page.getByTestId('history-row').first();
  await row.waitFor();
  return row;
}

describe('outcomes in the dashboard', () => {
  it('Stop a third of the way: "stopped at n of 9 s", no verdict, and so in the history', async () => {
    await start('9');
    await sleep(3_000);
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.waitForSelector('[data-testid=summary][data-phase=done]', { timeout: 30_000 });
    const summary = page.getByTestId('summary');
    expect(await summary.getAttribute('data-outcome')).toBe('stopped');
    expect(await summary.getAttribute('data-verdict')).toBe('none');
    expect(await page.getByTestId('summary-outcome').textContent()).toMatch(/^stopped at [1-5] of 9 s$/);
    const verdict = page.getByTestId('summary-verdict');
    expect(await verdict.textContent()).toMatch(/^Stopped at [1-5] of 9 s: no verdict for an incomplete run/);
    expect(await verdict.getAttribute('class')).not.toMatch(/\bgood\b/);
    // The run bar says how far it got, never in the pass colour.
    expect(await page.getByTestId('run-bar-title').textContent()).toBe('Stopped');
    expect(await page.getByTestId('run-bar-detail').textContent()).toMatch(/^stopped at [1-5] of 9 s$/);
    expect(await page.getByTestId('run-bar').getAttribute('class')).not.toMatch(/\bgood\b/);
    const row = await historyRowOfLatest();
    expect(await row.getAttribute('data-status')).toBe('stopped');
    expect(await row.getByTestId('history-verdict').textContent()).toBe('no verdict');
    await page.getByTestId('nav-run').click();
  });

  it('a hub frozen before the run: failed within seconds, with the same reason as the runner', async () => {
    const frozen = await startHub();
    try {
      frozen.process.kill('SIGSTOP');
      await page.goto(hub.httpUrl!);
      await page.fill('input[name=endpointUrl]', `${frozen.httpUrl}/signalrbench`);
      await page.fill('input[name=connections]', '200');
      await openAdvanced(page);
      await page.fill('input[name=durationSec]', '5');
      const startedMs = Date.now();
      await page.click('button[type=submit]');
      await page.waitForSelector('[data-testid=summary][data-phase=done]', { timeout: 30_000 });
      // FIRST_ANSWER_MS (5 s) decides; 10 s leaves room for a loaded machine.
      expect(Date.now() - startedMs).toBeLessThan(10_000);
      const summary = page.getByTestId('summary');
      expect(await summary.getAttribute('data-outcome')).toBe('failed');
      expect(await page.getByTestId('summary-outcome').textContent()).toMatch(/no connection could be opened\..*no connect answered within 5 s and none opened: the hub is stalled or not answering/);
    } finally {
      frozen.process.kill('SIGCONT');
      await frozen.stop();
      // The next test runs against the page's own hub again.
      await page.goto(hub.httpUrl!);
      await page.fill('input[name=endpointUrl]', `${hub.httpUrl}/signalrbench`);
    }
  });

  it('the hub killed mid-run: a red Fail with what was lost, and "fail" in the history', async () => {
    await start('8');
    await sleep(3_000);
    hub.process.kill('SIGKILL');
    await page.waitForSelector('[data-testid=summary][data-phase=done]', { timeout: 60_000 });
    const summary = page.getByTestId('summary');
    expect(await summary.getAttribute('data-outcome')).toBe('finished');
    expect(await summary.getAttribute('data-verdict')).toBe('fail');
    expect(Number(await summary.getAttribute('data-planned'))).toBe(320);
    const verdict = page.getByTestId('summary-verdict');
    expect(await verdict.textContent()).toMatch(/^Fail: only \d+\.\d\d% of 320 planned receptions arrived in under 1 s \(delivery \d+\.\d\d%: .*never sent/);
    expect(await verdict.getAttribute('class')).toMatch(/\bbad\b/);
    expect(await page.getByTestId('tier-verdict').getAttribute('class')).toMatch(/\bbad\b/);
    // The run bar and the key figures: finished, in red, with the losses, never 100%.
    expect(await page.getByTestId('run-bar').getAttribute('class')).toMatch(/\bbad\b/);
    expect(await page.getByTestId('run-bar-detail').textContent()).toMatch(/· fail: below the guide's rule$/);
    expect(await page.getByTestId('hero-verdict').getAttribute('class')).toMatch(/\bbad\b/);
    const delivery = (await page.getByTestId('hero-delivery').textContent())!;
    expect(delivery).not.toMatch(/100\.00%/);
    expect(await page.getByTestId('hero-delivery').getAttribute('class')).toMatch(/\bbad\b/);
    const row = await historyRowOfLatest();
    expect(await row.getAttribute('data-status')).toBe('finished');
    expect(await row.getByTestId('history-verdict').textContent()).toBe('fail');
  });

});
