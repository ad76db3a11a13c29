/**
 * The dashboard against a protected hub, in real Chromium: the hub-sample with --RequireAuth
 * true. Without a token the run fails at once with the 401 worded; the Authentication field
 * drives an authenticated run; afterwards the shared link, the page's storage and kept run
 * (IndexedDB), and every export (JSON, CSV, HTML, HdrHistogram log, PNG) hold no trace of the
 * token or the extra query parameter. An Azure-style negotiate redirect is followed too.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardOnOwnHub, type OwnDashboard } from '../support/own-dashboard.ts';
import { openAdvanced } from '../support/dashboard-form.ts';

let own: OwnDashboard;
let token: string;
const QUERY_SECRET = 'query-secret-4f1c';

beforeAll(async () => {
  own = await dashboardOnOwnHub(['--RequireAuth', 'true', '--EnableTestHubs', 'true']);
  token = await (await fetch(`${own.hub.httpUrl}/testhubs/token?user=browser-user`, { method: 'POST' })).text();
}, 60_000);

afterAll(async () => {
  await own?.close();
});

async function run(endpoint: string) {
  const { page } = own;
  await page.fill('input[name=endpointUrl]', endpoint);
  await page.fill('input[name=connections]', '4');
  await page.fill('input[name=durationSec]', '2');
  await openAdvanced(page);
  await page.fill('input[name=workers]', '1');
  await page.fill('input[name=warmupSec]', '0');
  await page.click('button[data-testid=start]');
  // A run that finished shows its summary; one that never connected, the one error box instead.
  await page.waitForSelector('[data-testid=summary][data-phase=done], [data-testid=failed-run]', { timeout: 60_000 });
  // The run is over once Start is back: until then the form folds again whatever Edit did.
  await page.waitForSelector('button[data-testid=start]:not([disabled])', { timeout: 30_000 });
  if (await page.getByTestId('failed-run').count() > 0) return { outcome: 'failed', received: 0, planned: 0, text: (await page.textContent('body')) ?? '' };
  const summary = page.getByTestId('summary');
  return {
    outcome: await summary.getAttribute('data-outcome'),
    received: Number(await summary.getAttribute('data-received')),
    planned: Number(await summary.getAttribute('data-planned')),
    text: (await page.textContent('body')) ?? '',
  };
}

/** Every record of every IndexedDB database of the page, as text. */
async function indexedDbText(): Promise<string> {
  return own.page.evaluate(async () => {
    const texts: string[] = [];
    for (const info of await indexedDB.databases()) {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open(info.name!);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      for (const store of Array.from(db.objectStoreNames)) {
        const all = await new Promise<unknown[]>((resolve, reject) => {
          const request = db.transaction(store).objectStore(store).getAll();
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        });
        texts.push(JSON.stringify(all));
      }
      db.close();
    }
    return texts.join('\n');
  });
}

async function download(testId: string): Promise<Buffer> {
  const [file] = await Promise.all([own.page.waitForEvent('download'), own.page.getByTestId(testId).click()]);
  return readFile((await file.path())!);
}

/** The form unfolded, whatever the run's end or a resize is still doing to it. A resize reaches the
 *  page's media queries (the form folds on a phone after a run) at its next frames, not when
 *  setViewportSize returns: a first look before them saw the desktop form, which then folded. */
async function unfold(page: OwnDashboard['page']): Promise<void> {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await expect.poll(async () => {
    if (await page.getByTestId('setup-edit').isVisible()) await page.getByTestId('setup-edit').click();
    return page.getByTestId('endpoint-secrets').isVisible();
  }).toBe(true);
}

describe('the dashboard against a hub that requires a token', () => {
  it('without a token: the run fails at once, saying the hub needs authentication and where to give it', async () => {
    const result = await run(`${own.hub.httpUrl}/signalrbench`);
    expect(result.outcome).toBe('failed');
    expect(result.text).toContain('The hub needs authentication (401 at negotiate)');
    expect(result.text).toContain('Advanced → Authentication');
  });

  it('the token field drives an authenticated run; afterwards no link, storage, kept run or export holds the token', async () => {
    const { page } = own;
    await openAdvanced(page);
    await page.fill('[data-testid=access-token]', token);
    await page.fill('[data-testid=extra-query]', `probe=${QUERY_SECRET}`);
    await expect.poll(() => page.getByTestId('auth-state').textContent()).toContain('token set');
    expect(await page.getAttribute('[data-testid=access-token]', 'type')).toBe('password');
    const result = await run(`${own.hub.httpUrl}/signalrbench`);
    expect(result.outcome).toBe('finished');
    // 4 connections echo once a second for 2 s.
    expect(result.planned).toBe(8);
    expect(result.received).toBe(8);
    // The token's user and the query parameter reached the hub on the WebSocket.
    const seen = (await (await fetch(`${own.hub.httpUrl}/testhubs/seen`)).json()) as { kind: string; user: string | null; query: string }[];
    expect(seen.filter((r) => r.kind === 'websocket' && r.user === 'browser-user' && r.query === QUERY_SECRET)).toHaveLength(4);

    const traces: [string, string | Buffer][] = [
      ['the shared link', page.url()],
      ['the page', await page.content()],
      ['localStorage and sessionStorage', await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }))],
      ['IndexedDB', await indexedDbText()],
      ['JSON export', await download('kept-export-json')],
      ['HTML report', await download('kept-export-html')],
      ['CSV export', await download('kept-export-csv')],
      ['HdrHistogram log', await download('kept-export-hlog')],
      ['PNG chart', await download('chart-latency-png')],
    ];
    expect((traces[3]![1] as string).length).toBeGreaterThan(100);
    for (const [where, content] of traces) {
      const bytes = Buffer.isBuffer(content) ? content : Buffer.from(content);
      for (const secret of [token, QUERY_SECRET, token.slice(-24)]) {
        expect(bytes.includes(Buffer.from(secret)), `${where} holds a secret`).toBe(false);
        expect(bytes.includes(Buffer.from(encodeURIComponent(secret))), `${where} holds a secret`).toBe(false);
      }
    }
  });

  it("the Endpoint's own secret (?code=) leaves the field, is said beside it, reaches the hub, and no link, History or export holds it", async () => {
    const { page } = own;
    const code = 'ENDPOINTCODE-page-9d41c07e';
    await openAdvanced(page);
    await page.fill('[data-testid=access-token]', token);
    await page.fill('[data-testid=extra-query]', '');
    const before = ((await (await fetch(`${own.hub.httpUrl}/testhubs/seen`)).json()) as unknown[]).length;
    // run() types the endpoint and moves on to the next field: leaving it takes the secret out.
    const result = await run(`${own.hub.httpUrl}/signalrbench?code=${code}&keep=1`);
    expect(result.outcome).toBe('finished');
    expect(result.received).toBe(8);
    // Folded after the run on a narrow page: unfolded to read the field.
    await unfold(page);
    expect(await page.inputValue('input[name=endpointUrl]')).toBe(`${own.hub.httpUrl}/signalrbench?keep=1`);
    await expect.poll(() => page.getByTestId('endpoint-secrets').textContent()).toContain('code set: taken out of the Endpoint\'s URL');
    // Said beside the field at every size, without overflowing it (the pictures are for looking at).
    for (const size of [{ width: 1280, height: 720 }, { width: 1440, height: 900 }, { width: 1920, height: 1080 }, { width: 390, height: 844 }]) {
      await page.setViewportSize(size);
      await unfold(page);
      await page.getByTestId('endpoint-secrets').scrollIntoViewIfNeeded();
      await page.screenshot({ path: `test-results/screenshots/endpoint-secrets-${size.width}x${size.height}.png` });
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    }
    await page.setViewportSize({ width: 1280, height: 720 });
    // On the wire: every negotiate and WebSocket carried it.
    const seen = ((await (await fetch(`${own.hub.httpUrl}/testhubs/seen`)).json()) as { kind: string; code: string }[]).slice(before);
    expect(seen.filter((r) => r.kind === 'websocket' && r.code === code)).toHaveLength(4);
    expect(seen.filter((r) => r.kind === 'negotiate' && r.code === code)).toHaveLength(4);
    const traces: [string, string | Buffer][] = [
      ['the shared link', page.url()],
      ['the page', await page.content()],
      ['localStorage and sessionStorage', await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }))],
      ['IndexedDB (History)', await indexedDbText()],
      ['JSON export', await download('kept-export-json')],
      ['HTML report', await download('kept-export-html')],
      ['CSV export', await download('kept-export-csv')],
      ['the hub log', own.hub.output()],
    ];
    expect(traces[0]![1]).toContain('keep%3D1');
    expect(traces[3]![1]).toContain('/signalrbench?keep=1');
    for (const [where, content] of traces) {
      const bytes = Buffer.isBuffer(content) ? content : Buffer.from(content);
      for (const secret of [code, code.slice(0, 12)]) expect(bytes.includes(Buffer.from(secret)), `${where} holds the endpoint's secret`).toBe(false);
    }
    // Another endpoint drops it: nothing said beside the field, nothing held.
    await page.fill('input[name=endpointUrl]', `${own.hub.httpUrl}/redirecthub`);
    await page.press('input[name=endpointUrl]', 'Tab');
    await expect.poll(() => page.getByTestId('endpoint-secrets').count()).toBe(0);
  });

  it('an Azure-style negotiate ({ url, accessToken }) is followed to the protected hub', async () => {
    const { page } = own;
    await openAdvanced(page);
    await page.getByTestId('auth-clear').click();
    expect(await page.inputValue('[data-testid=access-token]')).toBe('');
    const result = await run(`${own.hub.httpUrl}/redirecthub`);
    expect(result.outcome).toBe('finished');
    expect(result.received).toBe(8);
    const seen = (await (await fetch(`${own.hub.httpUrl}/testhubs/seen`)).json()) as { kind: string; user: string | null }[];
    expect(seen.filter((r) => r.kind === 'websocket' && r.user === 'redirected-user')).toHaveLength(4);
  });

  it('a link made elsewhere that carries an endpoint secret: leaving the field, even unchanged, takes it out', async () => {
    const { page } = own;
    const code = 'LINKCODE-page-51aa09';
    await page.goto(`${own.hub.httpUrl}/?endpointUrl=${encodeURIComponent(`${own.hub.httpUrl}/signalrbench?code=${code}`)}`);
    await page.focus('input[name=endpointUrl]');
    await page.press('input[name=endpointUrl]', 'Tab');
    expect(await page.inputValue('input[name=endpointUrl]')).toBe(`${own.hub.httpUrl}/signalrbench`);
    await expect.poll(() => page.getByTestId('endpoint-secrets').textContent()).toContain('code set');
  });
});
