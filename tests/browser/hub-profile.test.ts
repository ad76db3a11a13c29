/**
 * "Your hub" in real Chromium against the real hub-sample with its test hubs, the dashboard served
 * by it: the chat tutorial's rooms profile (profiles/chat-rooms.json) pasted drives a short run
 * against /chathub that finishes with every planned message and the profile named in the run bar,
 * the page's link and the history; a bad profile is refused beside the field, and nothing starts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchChromium, type LaunchedBrowser } from '../support/browser.ts';
import { openAdvanced } from '../support/dashboard-form.ts';
import { readFile } from 'node:fs/promises';
import { startHub, type RunningHub } from '../support/hub-process.ts';

let hub: RunningHub;
let browser: LaunchedBrowser;
let page: Page;
const consoleErrors: string[] = [];

let profileText: string;

beforeAll(async () => {
  [hub, browser, profileText] = await Promise.all([startHub({ extraArgs: ['--EnableTestHubs', 'true'] }), launchChromium(), readFile('profiles/chat-rooms.json', 'utf8')]);
  page = await browser.context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  await page.goto(hub.httpUrl);
  await page.fill('input[name=endpointUrl]', `${hub.httpUrl}/chathub`);
});

afterAll(async () => {
  await browser?.close();
  await hub?.stop();
});

describe('Your hub', () => {
  it('refuses a bad profile beside the field, with the sentence Start refuses with', async () => {
    await page.selectOption('select[name=scenario]', 'yourHub');
    const editor = page.getByTestId('hub-profile-text');
    // Loaded from a file: its text in the editor, a missing comma found by line and column.
    const broken = '{\n  "name": "chat"\n  "deliver": "all"\n}\n';
    await page.getByTestId('hub-profile-file').setInputFiles({ name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from(broken) });
    await expect.poll(() => editor.inputValue()).toBe(broken);
    await expect.poll(() => page.getByTestId('hub-profile-errors').textContent()).toMatch(/^Hub profile: The profile is not valid JSON at line 3, column 3: /);
    const profile = JSON.parse(profileText);
    await editor.fill(JSON.stringify({ ...profile, send: { method: 'SendToRoom', args: ['{group}', 'bench-{connection}', '{mesage}'] } }));
    const beside = page.getByTestId('hub-profile-errors');
    await expect.poll(() => beside.textContent()).toContain('Hub profile: send.args[2]: "{mesage}" is not a placeholder');
    expect(await editor.getAttribute('aria-invalid')).toBe('true');
    expect(await editor.getAttribute('aria-describedby')).toBe('hub-profile-errors');
    await page.getByTestId('start').click();
    const refused = page.getByTestId('config-errors');
    await expect.poll(() => refused.textContent()).toContain('Hub profile: send.args: {message} is missing');
    expect(await refused.textContent()).toContain('Hub profile: send.args[2]: "{mesage}" is not a placeholder');
    expect(await page.getByTestId('run-bar').count()).toBe(0);
  });

  it('runs a pasted profile to the end against a hub of its shape, every planned message received, the profile named', async () => {
    await page.getByTestId('hub-profile-text').fill(profileText);
    await expect.poll(() => page.getByTestId('hub-profile-errors').count()).toBe(0);
    // A group delivery: small or big groups, small by default.
    expect(await page.getByTestId('hub-profile-shape').inputValue()).toBe('');
    await page.fill('input[name=connections]', '10');
    await page.fill('input[name=sendIntervalMs]', '250');
    await page.fill('input[name=durationSec]', '2');
    await openAdvanced(page);
    await page.fill('input[name=workers]', '1');
    await page.fill('input[name=groupSize]', '5');
    await page.getByTestId('start').click();
    const label = 'chat rooms profile: SendToRoom → ReceiveMessage, to the group (send to small groups)';
    await expect.poll(() => page.getByTestId('run-bar-profile').textContent()).toBe(label);
    await page.waitForSelector('[data-testid=summary][data-phase=done]', { timeout: 30_000 });
    const summary = page.getByTestId('summary');
    // 10 connections in 2 rooms of 5, each sending every 250 ms for 2 s to its room, itself included.
    expect(Number(await summary.getAttribute('data-planned'))).toBe(10 * 8 * 5);
    expect(Number(await summary.getAttribute('data-received'))).toBe(10 * 8 * 5);
    expect(await summary.getAttribute('data-verdict')).toBe('pass');
    expect(await page.getByTestId('run-bar-profile').textContent()).toBe(label);
    // The page's link carries the profile, so a shared link opens the same setup.
    expect(JSON.parse(new URL(page.url()).searchParams.get('hubProfile')!)).toEqual(JSON.parse(profileText));
    // The form reopens with the profile as one line, and Edit brings the editor back.
    expect(await page.getByTestId('hub-profile-closed').textContent()).toContain(label);

    await page.getByTestId('nav-history').click();
    const row = page.getByTestId('history-row').first();
    expect(await row.getByTestId('history-name').textContent()).toBe(`${label} · WebSockets + JSON · 10 connections`);
    expect(consoleErrors).toEqual([]);
  });
});
