// One connection to Chromium's DevTools protocol, for the profiles the benchmarks take of a
// Chromium they launched themselves (never Playwright, whose per-frame events cost more than the
// page). Commands are awaited by id; events go to one handler; `sessionId` addresses an attached
// target (flatten mode).
import WebSocket from 'ws';

export async function openCdp(webSocketUrl) {
  const ws = new WebSocket(webSocketUrl, { perMessageDeflate: false, maxPayload: 1 << 30 });
  await new Promise((resolve, reject) => { ws.once('open', resolve); ws.once('error', reject); });
  let nextId = 1;
  const pending = new Map();
  let onEvent = () => {};
  ws.on('message', (raw) => {
    const msg = JSON.parse(raw.toString());
    if (!msg.id) {
      onEvent(msg);
      return;
    }
    const p = pending.get(msg.id);
    pending.delete(msg.id);
    if (msg.error) p?.reject(new Error(`${p.method}: ${msg.error.message}`));
    else p?.resolve(msg.result);
  });
  return {
    send: (method, params = {}, sessionId) => new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject, method });
      ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    }),
    /** Events (messages without an id): `{ method, params, sessionId }`. */
    onEvent: (handler) => (onEvent = handler),
    close: () => ws.close(),
  };
}

/** Polls a DevTools HTTP endpoint (`/json/version`, `/json/list`) until it answers and `pick` finds what is wanted. */
export async function pollDevtools(port, endpoint, pick, timeoutMs = 20_000) {
  const until = Date.now() + timeoutMs;
  let lastError = null;
  while (Date.now() < until) {
    try {
      const found = pick(await (await fetch(`http://127.0.0.1:${port}${endpoint}`)).json());
      if (found) return found;
    } catch (error) {
      lastError = error;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`Chromium's debugging port ${port} did not answer ${endpoint} within ${timeoutMs} ms${lastError ? `: ${lastError.message}` : ''}.`);
}
