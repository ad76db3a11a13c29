/**
 * Agents in real browsers: the dashboard in Chromium invites agents; a headless runner and a
 * second browser profile (opened with ?agent=CODE) join, and the three run one echo together.
 * The dashboard's merged counts must equal the sum of what each agent counted itself.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { agentCounts, startAgent, type RunningAgent } from '../support/agents.ts';
import { launchChromium, type LaunchedBrowser } from '../support/browser.ts';
import { openAdvanced } from '../support/dashboard-form.ts';

let dashboardBrowser: LaunchedBrowser;
let agentBrowser: LaunchedBrowser;
let dashboard: Page;
let nodeAgent: RunningAgent | undefined;
let agentPage: Page;
let sessionCode = '';

/** Each table row's cells, " | " between them. */
const cellTexts = (rows: Locator) => rows.evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent!.replace(/\s+/g, ' ').trim()).join(' | ')));

beforeAll(async () => {
  // Two profiles: a profile's connection limits are shared by its tabs, so a browser agent is another profile.
  [dashboardBrowser, agentBrowser] = await Promise.all([launchChromium(), launchChromium()]);
  dashboard = await dashboardBrowser.context.newPage();
  // Plain http: the headless agent would not trust the HTTPS listener's self-signed certificate.
  await dashboard.goto(inject('hubHttpUrl'));
});

afterAll(async () => {
  nodeAgent?.child.kill('SIGKILL');
  await Promise.all([dashboardBrowser?.close(), agentBrowser?.close()]);
});

describe('agents joining the dashboard', () => {
  it('a headless runner and another browser run one echo run with the dashboard; merged counts = sum of their own', async () => {
    await dashboard.getByTestId('invite-agents').click();
    const code = (await dashboard.getByTestId('session-code').textContent({ timeout: 15_000 }))!.trim();
    expect(code).toMatch(/^[A-Z2-9]{10}$/);
    const command = (await dashboard.getByTestId('agent-command').textContent())!;
    // The session's secret goes with the command and the link (in its fragment, never sent to a server).
    const secret = /--session-secret ([A-Z2-9]{20})$/.exec(command)?.[1];
    expect(command).toBe(`node bin/live-bench.js --agent ${inject('hubHttpUrl')}/control --session ${code} --session-secret ${secret}`);
    sessionCode = code;
    expect(await dashboard.getByTestId('agent-link').getAttribute('href')).toBe(`${inject('hubHttpUrl')}/?agent=${code}#secret=${secret}`);

    nodeAgent = await startAgent(`${inject('hubHttpUrl')}/control`, code, ['--session-secret', secret!, '--workers', '1', '--name', 'runner-1', '--once']);
    agentPage = await agentBrowser.context.newPage();
    await agentPage.goto(`${inject('hubHttpUrl')}/?agent=${code}&workers=1#secret=${secret}`);
    await agentPage.waitForSelector('[data-testid=agent-page][data-state=joined]', { timeout: 15_000 });

    await dashboard.waitForSelector('[data-testid=agents][data-agents="2"]', { timeout: 15_000 });
    const rows = dashboard.getByTestId('agent-row');
    await expect.poll(async () => (await rows.allTextContents()).filter((t) => t.includes('±')).length, { timeout: 15_000 }).toBe(2);
    expect((await rows.allTextContents()).join('\n')).toMatch(/runner-1\s*node\s*1/);

    await dashboard.getByTestId('include-local').uncheck();
    await dashboard.fill('input[name=connections]', '20');
    await dashboard.fill('input[name=sendIntervalMs]', '250');
    await dashboard.fill('input[name=durationSec]', '3');
    // On the dashboard's own clock: the run's clock round must come after this, not from the joins.
    const requestedUs = await dashboard.evaluate(() => (performance.timeOrigin + performance.now()) * 1_000);
    await dashboard.click('button[type=submit]');
    await dashboard.waitForSelector('[data-testid=summary][data-phase=done]', { timeout: 60_000 });
    const summary = dashboard.getByTestId('summary');
    // The closing clock round follows the run's end: each agent's row gets its end round.
    await dashboard.waitForFunction(() => {
      const cells = [...document.querySelectorAll('[data-testid=agent-clock-end]')];
      return cells.length === 2 && cells.every((cell) => cell.textContent !== '–');
    }, undefined, { timeout: 30_000 });
    const agentRows = summary.locator('[data-testid=run-agents] tbody tr');
    const runAgents = await cellTexts(agentRows);
    expect(runAgents).toHaveLength(2);
    for (const text of runAgents) expect(text).toMatch(/^(runner-1 \| node|browser .+ \| browser) \| \d \| [+-]\d+\.\d+ m?s ± \d+\.\d+ ms \| [+-]\d+\.\d+ m?s ± \d+\.\d+ ms \(drift [+-]\d+\.\d µs\/s\)$/);
    for (const measuredAtUs of await agentRows.evaluateAll((rows) => rows.map((row) => Number((row as HTMLElement).dataset.clockMeasuredAtUs)))) {
      expect(measuredAtUs).toBeGreaterThan(requestedUs);
    }
    const merged = {
      sent: Number(await summary.getAttribute('data-sent')),
      planned: Number(await summary.getAttribute('data-planned')),
      received: Number(await summary.getAttribute('data-received')),
      lost: await summary.getAttribute('data-lost'),
    };
    // 20 connections, 3 s at 250 ms.
    expect(merged).toEqual({ sent: 240, planned: 240, received: 240, lost: '0' });

    expect(await nodeAgent.exited).toBe(0);
    const runner = agentCounts(nodeAgent.stdout());
    await agentPage.waitForSelector('[data-testid=agent-page][data-runs="1"]', { timeout: 15_000 });
    const browserAgent = agentCounts((await agentPage.getByTestId('agent-run').textContent())!);
    // Each agent offered one worker: 10 connections each.
    expect([runner.opened, browserAgent.opened]).toEqual([10, 10]);
    expect(runner.sent + browserAgent.sent).toBe(merged.sent);
    expect(runner.planned + browserAgent.planned).toBe(merged.planned);
    expect(runner.received + browserAgent.received).toBe(merged.received);

    // History keeps the run with the clocks of its start and its end (written again once the
    // closing round is in), and shows them as the live run did.
    await dashboard.getByTestId('nav-history').click();
    await dashboard.getByTestId('history-row').first().getByTestId('history-open').click();
    const kept = dashboard.locator('[data-testid=run-detail] [data-testid=run-agents] tbody tr');
    await expect.poll(() => cellTexts(kept)).toEqual(runAgents);
    await dashboard.getByTestId('nav-run').click();
  });

  it('refuses a run the browsers cannot hold, with the numbers, and starts nothing', async () => {
    // The runner left after its run; this browser (255 WebSockets) and the browser agent (255) remain.
    await dashboard.waitForSelector('[data-testid=agents][data-agents="1"]', { timeout: 15_000 });
    await dashboard.getByTestId('include-local').check();
    await dashboard.fill('input[name=connections]', '600');
    await dashboard.click('button[type=submit]');
    // Refused at Start, counting the browser agent: the form says why before any round trip.
    await expect.poll(() => dashboard.getByTestId('config-errors').textContent()).toContain('can hold 510 WebSockets connections (a browser 255), not 600. Add a headless agent, or lower the connections.');
    expect(await dashboard.getByTestId('summary').getAttribute('data-phase')).toBe('done');
  });

  it('a browser opened with the code alone is turned away; a token typed here is said to cross the http control hub in plain text, and ticking the box refuses the run before anything is sent', async () => {
    const intruder = await agentBrowser.context.newPage();
    await intruder.goto(`${inject('hubHttpUrl')}/?agent=${sessionCode}&workers=1`);
    await intruder.waitForSelector('[data-testid=agent-page][data-state=failed]', { timeout: 15_000 });
    expect(await intruder.getByTestId('agent-message').textContent()).toMatch(/^Agent "browser .*" was refused: it presented no session secret, and the session code alone does not admit an agent\. It received nothing of the run\./);
    await expect.poll(() => dashboard.getByTestId('agents').textContent()).toContain('presented no session secret');
    await intruder.close();

    const token = 'eyJ.PLAINHTTPTOKEN-4d1e.sig';
    await openAdvanced(dashboard);
    await dashboard.fill('[data-testid=access-token]', token);
    const notice = dashboard.getByTestId('agents-secrets-notice');
    await expect.poll(() => notice.textContent()).toBe(`The control hub ${inject('hubHttpUrl')}/control is plain http: the access token will cross it to the agents in plain text, readable by anyone on the network between this lead, the hub and the agents. Serve it over https, or stop such runs with the box "Refuse to send them over plain http" ticked.`);
    expect(await notice.getAttribute('class')).toContain('warn');
    await dashboard.getByTestId('refuse-plain-secrets').check();
    await expect.poll(() => notice.textContent()).toMatch(/^Nothing was sent: /);
    await dashboard.fill('input[name=connections]', '20');
    await dashboard.click('button[type=submit]');
    await expect.poll(() => dashboard.getByTestId('agents-error').textContent()).toContain(`Nothing was sent: the control hub ${inject('hubHttpUrl')}/control is plain http: the access token will cross it to the agents in plain text`);
    // The browser agent got no run: still its one run of the first test.
    expect(await agentPage.getAttribute('[data-testid=agent-page]', 'data-runs')).toBe('1');
    expect(await dashboard.locator('body').textContent()).not.toContain('PLAINHTTPTOKEN');
    await dashboard.getByTestId('refuse-plain-secrets').uncheck();
    // The refused start folded the form while it was under way: Authentication is under Advanced again.
    await openAdvanced(dashboard);
    await dashboard.getByTestId('auth-clear').click();
  });
});
