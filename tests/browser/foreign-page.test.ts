/**
 * A page on another origin (another site the user happens to visit) cannot use the local hub:
 * CORS does not cover WebSockets, so the hub checks Origin itself. Real Chromium pages open a raw
 * WebSocket straight to /control (what the client's skipNegotiation does), speak SignalR's JSON
 * handshake and ask for a control session. The hub's own page gets one; a foreign page does not.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchChromium, type LaunchedBrowser } from '../support/browser.ts';
import { startHub, type RunningHub } from '../support/hub-process.ts';

interface Attempt { opened: boolean; session: string | null; closeCode?: number }

let browser: LaunchedBrowser;
let foreignSite: RunningHub;

beforeAll(async () => {
  // Another port on the same machine is another origin, and the test hub does not list it.
  foreignSite = await startHub();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await foreignSite?.stop();
});

/** From `page`, opens a control session on the hub at `controlWsUrl` over a raw WebSocket. */
function openControlSession(page: Page, controlWsUrl: string): Promise<Attempt> {
  return page.evaluate((url) => new Promise<Attempt>((resolve) => {
    const RS = '\u001e';
    let opened = false;
    const ws = new WebSocket(url);
    const timer = setTimeout(() => resolve({ opened, session: null }), 10_000);
    const done = (attempt: Attempt) => { clearTimeout(timer); resolve(attempt); };
    ws.onopen = () => { opened = true; ws.send(`{"protocol":"json","version":1}${RS}`); };
    ws.onmessage = (event) => {
      for (const frame of String(event.data).split(RS).filter(Boolean)) {
        const message = JSON.parse(frame);
        if (message.type === undefined) ws.send(JSON.stringify({ type: 1, invocationId: '1', target: 'OpenSession', arguments: [] }) + RS);
        if (message.type === 3) { done({ opened, session: message.result ?? null }); ws.close(); }
      }
    };
    ws.onclose = (event) => done({ opened, session: null, closeCode: event.code });
  }), controlWsUrl);
}

describe('a page on another origin', () => {
  const hubUrl = inject('hubHttpUrl');
  const controlWsUrl = `${hubUrl.replace(/^http/, 'ws')}/control`;

  it('the hub\'s own page opens a control session over a raw WebSocket (the check below can fail)', async () => {
    const page = await browser.context.newPage();
    await page.goto(hubUrl);
    const attempt = await openControlSession(page, controlWsUrl);
    expect(attempt).toMatchObject({ opened: true, session: expect.stringMatching(/^\S{10}$/) });
    await page.close();
  });

  it('a foreign page cannot: the WebSocket is refused before it opens', async () => {
    const page = await browser.context.newPage();
    await page.goto(foreignSite.httpUrl!);
    expect(new URL(page.url()).origin).not.toBe(new URL(hubUrl).origin);
    const attempt = await openControlSession(page, controlWsUrl);
    expect(attempt).toEqual({ opened: false, session: null, closeCode: 1006 });
    await page.close();
  });
});
