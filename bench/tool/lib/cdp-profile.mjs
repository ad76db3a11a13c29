// CPU profiles of a directly launched Chromium's page and its dedicated workers, over the
// DevTools protocol (never Playwright, whose Network events per WebSocket frame cost more than
// the page). Only the Target and Profiler domains are used: no per-frame events.
// The browser starts on about:blank with a debugging port; every page and worker is attached
// paused (waitForDebuggerOnStart), its Profiler enabled, then resumed; the page is navigated
// once attached. Profiling starts `fromSec` after navigation and stops `forSec` later in every
// session alike (a worker created later starts at once), so each profile covers the same window.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { openCdp, pollDevtools } from './cdp.mjs';

/** Starts profiling; returns { done(): Promise<files written> }. `trace`: also a timeline trace of
 *  the same window (`<label>-trace.json`, the devtools.timeline category: each task's style,
 *  layout, paint and script, and the layouts script forced; summarise with bench/tool/trace-summary.mjs),
 *  and a picture of the page's window at its end (`<label>-window.png`: what was on screen). */
export async function profileBrowser({ port, url, dir, label, fromSec, forSec, intervalUs = 250, trace = false }) {
  const cdp = await openCdp(await pollDevtools(port, '/json/version', (v) => v.webSocketDebuggerUrl, 10_000));
  const { send } = cdp;
  const sessions = new Map(); // sessionId → { kind, started }
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
  const traceEvents = [];
  let traceComplete;
  const traced = new Promise((resolve) => (traceComplete = resolve));
  cdp.onEvent(async (msg) => {
    if (msg.method === 'Tracing.dataCollected') traceEvents.push(...msg.params.value);
    if (msg.method === 'Tracing.tracingComplete') traceComplete();
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
    if (trace) await send('Tracing.start', { traceConfig: { includedCategories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] }, transferMode: 'ReportEvents' });
    await Promise.all([...sessions.keys()].map(startIn));
    await new Promise((r) => setTimeout(r, forSec * 1_000));
    profiling = false;
    const files = [];
    if (trace) {
      await send('Tracing.end');
      await traced;
      const file = path.join(dir, `${label}-trace.json`);
      writeFileSync(file, JSON.stringify({ traceEvents }));
      files.push(file);
      const pageSession = [...sessions].find(([, s]) => s.kind === 'page')?.[0];
      const shot = pageSession ? await send('Page.captureScreenshot', { format: 'png' }, pageSession).catch(() => null) : null;
      if (shot) {
        writeFileSync(path.join(dir, `${label}-window.png`), Buffer.from(shot.data, 'base64'));
        files.push(path.join(dir, `${label}-window.png`));
      }
    }
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
      cdp.close();
      return files;
    },
  };
}
