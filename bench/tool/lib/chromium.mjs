// Launches Debian's Chromium directly (no Playwright, whose DevTools events per WebSocket frame
// cost several times the page's own CPU), with a fresh profile, on a URL. The page reports back
// by itself (src/lib/bench-hook.ts).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { profileBrowser } from './cdp-profile.mjs';
import { cpuSec, processTree, threadsOf } from './cpu.mjs';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The flags the tests use (FACTS.md), plus: never throttle a page nobody looks at. */
const FLAGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--ignore-certificate-errors',
  '--disable-background-timer-throttling', '--disable-renderer-backgrounding', '--disable-backgrounding-occluded-windows',
  '--window-size=1400,1600',
];

/** How often the process tree is re-read, in ms: Chromium starts its processes over the first second. */
const TREE_REFRESH_MS = 2_000;

/**
 * BENCH_CPU_PROFILE_DIR=<dir>: every launch also writes CPU profiles of the page's main thread and
 * its workers there (lib/cdp-profile.mjs), from BENCH_CPU_PROFILE_FROM_SEC (default 8) after the
 * page loads, for BENCH_CPU_PROFILE_SEC (default 6); the debugging port is BENCH_CDP_PORT
 * (default 9222). The profiler's sampling costs CPU: read such runs' figures as profiles only.
 * BENCH_TRACE=1 with it: also a timeline trace of the same window (lib/cdp-profile.mjs).
 */
const PROFILE_DIR = process.env.BENCH_CPU_PROFILE_DIR;
let launches = 0;

/** `debugPort`: open the DevTools protocol on that loopback port (for CPU profiles of the page). */
export function launchChromium(url, { debugPort } = {}) {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium is not at ${CHROMIUM_PATH}. Install it with 'apt-get install -y chromium', or set CHROMIUM_PATH.`);
  }
  const profile = mkdtempSync(path.join(os.tmpdir(), 'tool-bench-profile-'));
  const cdpPort = Number(process.env.BENCH_CDP_PORT ?? 9222);
  const debugArgs = PROFILE_DIR ? [`--remote-debugging-port=${cdpPort}`] : debugPort ? [`--remote-debugging-port=${debugPort}`, '--remote-allow-origins=*'] : [];
  const args = [...FLAGS, `--user-data-dir=${profile}`, ...debugArgs, PROFILE_DIR ? 'about:blank' : url];
  const child = spawn(CHROMIUM_PATH, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  const profiling = PROFILE_DIR
    ? profileBrowser({ port: cdpPort, url, dir: PROFILE_DIR, label: `${++launches}-${url.includes('client=library') ? 'browserLibrary' : url.includes('/raw/') ? 'browserRaw' : 'tab'}`,
      fromSec: Number(process.env.BENCH_CPU_PROFILE_FROM_SEC ?? 8), forSec: Number(process.env.BENCH_CPU_PROFILE_SEC ?? 6), trace: process.env.BENCH_TRACE === '1' })
    : null;
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4_000)));
  const exited = new Promise((resolve) => child.on('exit', resolve));
  let tree = [child.pid];
  let treeReadAtMs = 0;
  return {
    pid: child.pid,
    /** Every process of this Chromium (re-read at most every 2 s). */
    pids() {
      if (Date.now() - treeReadAtMs > TREE_REFRESH_MS) {
        tree = processTree(child.pid);
        treeReadAtMs = Date.now();
      }
      return tree;
    },
    stderr: () => stderr,
    async close() {
      if (profiling) console.error(`CPU profiles: ${(await (await profiling).done()).join(', ')}`);
      child.kill('SIGTERM');
      const timeout = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timeout);
      // Chromium's helper processes may still be writing the profile for a moment.
      try {
        rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
      } catch {
        // A leftover temporary profile is harmless.
      }
    },
  };
}

const cmdlines = new Map();
function chromiumProcessType(pid) {
  if (!cmdlines.has(pid)) {
    let cmd = '';
    try {
      cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
    } catch {}
    cmdlines.set(pid, cmd);
  }
  const cmd = cmdlines.get(pid);
  if (/--utility-sub-type=network\./.test(cmd)) return 'network';
  const type = /--type=(\S+)/.exec(cmd)?.[1];
  return type === undefined ? 'browser' : type === 'renderer' ? 'renderer' : 'other';
}

/**
 * CPU of a Chromium, split into parts: the page's main thread, its Web Workers, the rest of its
 * renderer, the network service (which does every socket's I/O), the browser process, the rest.
 * For CpuSampler.
 */
export function chromiumCpu(browser) {
  return () => {
    const entries = [];
    for (const pid of browser.pids()) {
      const type = chromiumProcessType(pid);
      if (type !== 'renderer') {
        entries.push({ id: `p${pid}`, part: type, cpuSec: cpuSec(`/proc/${pid}/stat`) });
        continue;
      }
      for (const { tid, name } of threadsOf(pid)) {
        const part = tid === pid ? 'pageMain' : name.startsWith('DedicatedWorker') ? 'pageWorkers' : 'rendererOther';
        entries.push({ id: `t${tid}`, part, cpuSec: cpuSec(`/proc/${pid}/task/${tid}/stat`) });
      }
    }
    return entries;
  };
}
