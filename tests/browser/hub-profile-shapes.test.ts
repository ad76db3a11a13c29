/**
 * "Your hub" with each shape of a real hub, in real Chromium against the real hub-sample's test
 * hubs (--EnableTestHubs true, --RequireAuth true for /userhub): every example profile of a new
 * kind, chosen from the editor's examples, runs to the end with the count planned from the form's
 * settings (not from what the code plans), verdict pass: the text inside a wrapped string and inside
 * an object (MessagePack's member casing), streams both ways, a client result, a list of groups,
 * group except, user and users under the page's one token. A text the hub cuts is said as
 * altered; a profile reading the wrong argument fails in seconds with the runner's sentence.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAdvanced } from '../support/dashboard-form.ts';
import { dashboardOnOwnHub, type OwnDashboard } from '../support/own-dashboard.ts';

let own: OwnDashboard;
const consoleErrors: string[] = [];

beforeAll(async () => {
  own = await dashboardOnOwnHub(['--EnableTestHubs', 'true', '--RequireAuth', 'true']);
  own.page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
}, 60_000);

afterAll(async () => {
  await own?.close();
});

const INTERVAL_MS = 250;
const DURATION_SEC = 2;
/** Each sender's slots: one every 250 ms over 2 s. */
const SLOTS = (DURATION_SEC * 1_000) / INTERVAL_MS;

interface ShapeRun {
  /** The hub's path on the hub-sample. */
  hubPath: string;
  /** The example's file name in profiles/, as the examples list offers it. */
  example?: string;
  /** A profile typed into the editor instead of an example. */
  text?: string;
  connections: number;
  groupSize?: number;
  protocol?: 'json' | 'messagepack';
}

async function runFromEditor({ hubPath, example, text, connections, groupSize, protocol = 'json' }: ShapeRun) {
  const { page } = own;
  await page.fill('input[name=endpointUrl]', `${own.hub.httpUrl}${hubPath}`);
  await page.selectOption('select[name=scenario]', 'yourHub');
  // A profile the form opens with after a run is shown as one line: Edit brings the editor back.
  if (await page.getByTestId('hub-profile-edit').count() > 0) await page.getByTestId('hub-profile-edit').click();
  if (example) await page.getByTestId('hub-profile-examples').selectOption(example);
  else await page.getByTestId('hub-profile-text').fill(text!);
  await expect.poll(() => page.getByTestId('hub-profile-errors').count()).toBe(0);
  await page.selectOption('select[name=protocol]', protocol);
  await page.fill('input[name=connections]', String(connections));
  await page.fill('input[name=sendIntervalMs]', String(INTERVAL_MS));
  await page.fill('input[name=durationSec]', String(DURATION_SEC));
  await openAdvanced(page);
  await page.fill('input[name=workers]', '1');
  await page.fill('input[name=warmupSec]', '0');
  if (groupSize !== undefined) await page.fill('input[name=groupSize]', String(groupSize));
  const name = JSON.parse(await page.getByTestId('hub-profile-text').inputValue()).name as string;
  await page.getByTestId('start').click();
  // The run this case started, named in the run bar by its profile, not the one before it.
  await expect.poll(() => page.getByTestId('run-bar-profile').textContent(), { timeout: 10_000 }).toContain(name);
  await page.waitForSelector('[data-testid=summary][data-phase=done], [data-testid=failed-run]', { timeout: 60_000 });
  expect(await page.getByTestId('config-errors').count()).toBe(0);
  const summary = page.getByTestId('summary');
  return {
    planned: Number(await summary.getAttribute('data-planned')),
    received: Number(await summary.getAttribute('data-received')),
    verdict: await summary.getAttribute('data-verdict'),
    outcome: await summary.getAttribute('data-outcome'),
    text: (await summary.textContent()) ?? '',
  };
}

describe('Your hub, every shape from the editor', () => {
  // Each case: the example, its hub, and what the form's settings plan, worked out by hand.
  const CASES: { name: string; run: ShapeRun; planned: number }[] = [
    // deliver "all" on the broadcast plan: 2 senders, every one of 4 connections receives.
    { name: 'the text after the sender\'s name (aspnetcore Chat)', run: { hubPath: '/wrapchathub', example: 'wrap-chat', connections: 4 }, planned: 2 * SLOTS * 4 },
    { name: 'an object message read by one path, MessagePack\'s casing', run: { hubPath: '/objectchathub', example: 'object-chat', connections: 4, protocol: 'messagepack' }, planned: 2 * SLOTS * 4 },
    // deliver "return" or "stream" on the echo plan: every connection sends and receives its own.
    { name: 'a return value with a prefix', run: { hubPath: '/wrapchathub', example: 'echo-wrapped', connections: 4 }, planned: 4 * SLOTS },
    { name: 'a client stream echoed as a server stream', run: { hubPath: '/streamhub', example: 'stream-echo', connections: 4 }, planned: 4 * SLOTS },
    { name: 'a client stream delivered to the caller', run: { hubPath: '/streamhub', example: 'upload-words', connections: 4 }, planned: 4 * SLOTS },
    // GetMessage("{target}"): every connection asks another one; each answer is one reception.
    { name: 'a client result (Azure\'s ClientResultSample)', run: { hubPath: '/clientresulthub', example: 'client-result', connections: 4 }, planned: 4 * SLOTS },
    // 6 connections in 3 groups of 2; every connection sends to its group and the next: 4 receive.
    { name: 'a list of groups', run: { hubPath: '/listhub', example: 'list-groups', connections: 6, groupSize: 2 }, planned: 6 * SLOTS * 4 },
    // 6 connections in 2 groups of 3; every connection sends to its group but itself: 2 receive.
    { name: 'a group except the sender', run: { hubPath: '/listhub', example: 'group-except', connections: 6, groupSize: 3 }, planned: 6 * SLOTS * 2 },
    // One token: every connection is its user's; 2 senders reach all 4 (users: the next user is the same one).
    { name: 'a user', run: { hubPath: '/userhub', example: 'to-user', connections: 4 }, planned: 2 * SLOTS * 4 },
    { name: 'a list of users', run: { hubPath: '/userhub', example: 'to-users', connections: 4 }, planned: 2 * SLOTS * 4 },
  ];

  it('the token for /userhub is given once, in the Authentication field', async () => {
    const token = (await (await fetch(`${own.hub.httpUrl}/testhubs/token?user=shape-user&seconds=600`, { method: 'POST' })).text()).replace(/^"|"$/g, '');
    await openAdvanced(own.page);
    await own.page.fill('[data-testid=access-token]', token);
    await expect.poll(() => own.page.getByTestId('auth-state').textContent()).toContain('token set');
  });

  for (const { name, run, planned } of CASES) {
    it(`${name}: ${run.example} runs to the end, every planned message received`, async () => {
      const result = await runFromEditor(run);
      expect({ planned: result.planned, received: result.received, verdict: result.verdict }).toEqual({ planned, received: planned, verdict: 'pass' });
      expect(result.text).not.toContain('altered');
    });
  }

  it('a text the hub cuts arrives and is said as altered', async () => {
    const text = JSON.stringify({ name: 'truncated', send: { method: 'SendTruncated', args: ['{message}'] }, receive: { method: 'Truncated', arg: 0 }, deliver: 'self' });
    const result = await runFromEditor({ hubPath: '/wrapchathub', text, connections: 4 });
    expect(result.received).toBe(4 * SLOTS);
    expect(result.text).toContain(`altered ${4 * SLOTS} (arrived, but the hub cut or changed the text`);
  });

  it('a profile reading the name instead of the text fails in seconds, naming the argument the text is in', async () => {
    const text = JSON.stringify({ name: 'chat read at the name', send: { method: 'SendMessage', args: ['bench-{connection}', '{message}'] }, receive: { method: 'ReceiveMessage', arg: 0 }, deliver: 'all' });
    const started = Date.now();
    await runFromEditor({ hubPath: '/chathub', text, connections: 4 });
    const diagnosis = own.page.getByTestId('diagnosis').first();
    expect(await diagnosis.getByTestId('diagnosis-sentence').textContent()).toMatch(/^ReceiveMessage was called \d+ times, never with this run's text in argument 0; the first call carried "bench-\d"; it is in argument 1: set receive\.arg to 1\.$/);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(consoleErrors).toEqual([]);
  });
});
