// CPU profiles of a directly launched Chromium's page and its dedicated workers, over the
// DevTools protocol (never Playwright, whose Network events per WebSocket frame cost more than
// the page). Only the Target and Profiler domains are used: no per-frame events.
// The browser starts on about:blank with a debugging port; every page and worker is attached
// paused (waitForDebuggerOnStart), its Profiler enabled, then resumed; the page is navigated
// once attached. Profiling starts `fromSec` after navigation and stops `forSec` later in every
// session alike (a worker created later starts at once), so each profile covers the same window.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';

export async function browserWebSocketUrl(port, timeoutMs = 10_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/json/version`);
      return (await res.json()).webSocketDebuggerUrl;
    } catch (error) {
      if (Date.now() > until) throw new Error(`Chromium's debugging port ${port} did not answer in ${timeoutMs} ms: ${error.message}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** Starts profiling; returns { done(): Promise<files written> }. */
export async function profileBrowser({ port, url, dir, label, fromSec, forSec, intervalUs = 250 }) {
  const ws = new WebSocket(await browserWebSocketUrl(port), { perMessageDeflate: false, maxPayload: 1 << 30 });
  await new Promise((resolve, reject) => { ws.once('open', resolve); ws.once('error', reject); });
  let nextId = 1;
  const pending = new Map();
  const sessions = new Map(); // sessionId → { kind, started }
  const send = (method, params = {}, sessionId) => new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject, method });
    ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
  });
  let profiling = false;
  let navigated = false;
  let navigatedAtMs = 0;
  let resolveNavigated;
  const navigation = new Promise((resolve) => (resolveNavigated = resolve));
  const startIn = async (sessionId) => {
    const s = sessions.get(sessionId);
    if (!s || s.started) return;
    s.started = true;
    await send('Profiler.start', {}, sessionId).catch(() => {});
  };
  ws.on('message', async (raw) => {
    const msg = JSON.parse(raw);
    if (msg.id) {
      const p = pending.get(msg.id);
      pending.delete(msg.id);
      if (msg.error) p?.reject(new Error(`${p.method}: ${msg.error.message}`));
      else p?.resolve(msg.result);
      return;
    }
    if (msg.method === 'Target.attachedToTarget') {
      const { sessionId, targetInfo } = msg.params;
      const kind = targetInfo.type; // page | worker | ...
      if (kind !== 'page' && kind !== 'worker') {
        await send('Runtime.runIfWaitingForDebugger', {}, sessionId).catch(() => {});
        return;
      }
      sessions.set(sessionId, { kind, url: targetInfo.url, started: false });
      await send('Profiler.enable', {}, sessionId);
      await send('Profiler.setSamplingInterval', { interval: intervalUs }, sessionId);
      // Workers of this page (and the page's own) are attached paused as well.
      await send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: true }, sessionId);
      if (profiling) await startIn(sessionId);
      await send('Runtime.runIfWaitingForDebugger', {}, sessionId).catch(() => {});
      if (kind === 'page' && !navigated) {
        navigated = true;
        await send('Page.navigate', { url }, sessionId);
        navigatedAtMs = Date.now();
        resolveNavigated();
      }
    }
  });
  const { targetInfos } = await send('Target.getTargets');
  const page = targetInfos.find((t) => t.type === 'page');
  if (!page) throw new Error('Chromium opened no page to profile.');
  await send('Target.attachToTarget', { targetId: page.targetId, flatten: true });
  await navigation;
  const stopped = (async () => {
    await new Promise((r) => setTimeout(r, Math.max(0, navigatedAtMs + fromSec * 1_000 - Date.now())));
    profiling = true;
    await Promise.all([...sessions.keys()].map(startIn));
    await new Promise((r) => setTimeout(r, forSec * 1_000));
    profiling = false;
    const files = [];
    let n = 0;
    for (const [sessionId, s] of sessions) {
      if (!s.started) continue;
      try {
        const { profile } = await send('Profiler.stop', {}, sessionId);
        const file = path.join(dir, `${label}-${s.kind}${s.kind === 'worker' ? n++ : ''}.cpuprofile`);
        writeFileSync(file, JSON.stringify(profile));
        files.push(file);
      } catch {
        // A worker that ended before the stop has no profile to give.
      }
    }
    return files;
  })();
  return {
    async done() {
      const files = await stopped;
      ws.close();
      return files;
    },
  };
}
