/** Steps on the dashboard's run form that tests share: its folded parts and its modes. */
import type { Page } from 'playwright-core';

/** Unfolds the advanced settings (workers, warm-up, drain, senders, groups, reconnect, drops). */
export async function openAdvanced(page: Page): Promise<void> {
  const advanced = page.getByTestId('advanced');
  if ((await advanced.getAttribute('open')) === null) await advanced.locator(':scope > summary').click();
}

/** Picks the form's mode: a single run, a comparison of transports and protocols, or a capacity search. */
export async function chooseMode(page: Page, mode: 'single' | 'compare' | 'find-capacity'): Promise<void> {
  await page.getByTestId(`mode-${mode}`).click();
}
