// CPU profiles of a page's main thread through the DevTools protocol, from a Chromium this bench
// launched itself with --remote-debugging-port (never Playwright, whose per-frame events cost more
// than the page). For finding what grows with a run's length: a profile early and one late.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { openCdp, pollDevtools } from './cdp.mjs';

export async function connectProfiler(debugPort) {
  const page = await pollDevtools(debugPort, '/json/list', (targets) => targets.find((t) => t.type === 'page')?.webSocketDebuggerUrl);
  const cdp = await openCdp(page);
  const { send } = cdp;
  await send('Profiler.enable');
  await send('Profiler.setSamplingInterval', { interval: 500 });
  return {
    /** Profiles the main thread for `durationMs`; writes `<dir>/<name>.cpuprofile`; returns a summary. */
    async profile(durationMs, dir, name) {
      await send('Profiler.start');
      await new Promise((r) => setTimeout(r, durationMs));
      const { profile } = await send('Profiler.stop');
      writeFileSync(path.join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
      return summarize(profile);
    },
    close: () => cdp.close(),
  };
}

/** Busy ms per wall second, and the functions with the most self time (ms per second). */
export function summarize(profile) {
  const wallSec = (profile.endTime - profile.startTime) / 1e6;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map();
  const deltas = profile.timeDeltas;
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = deltas[i + 1] ?? 0;
    selfUs.set(profile.samples[i], (selfUs.get(profile.samples[i]) ?? 0) + dt);
  }
  const byFunction = new Map();
  let busyUs = 0;
  for (const [id, us] of selfUs) {
    const { callFrame } = byId.get(id);
    if (callFrame.functionName === '(idle)') continue;
    busyUs += us;
    const key = `${callFrame.functionName || '(anonymous)'} ${path.basename(callFrame.url || '')}:${callFrame.lineNumber + 1}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + us);
  }
  const top = [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 25).map(([fn, us]) => ({ fn, msPerSec: us / 1e3 / wallSec }));
  return { wallSec, busyMsPerSec: busyUs / 1e3 / wallSec, top };
}
