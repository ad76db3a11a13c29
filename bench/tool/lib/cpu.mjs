// CPU time from /proc, for a process tree (Chromium: browser, zygotes, renderer, GPU and network
// services) or single threads (the renderer's main thread, its Web Workers). Linux only.
import { readFileSync, readdirSync } from 'node:fs';

/** Clock ticks per second of /proc's utime and stime (USER_HZ: 100 on Linux). */
const TICKS_PER_SEC = 100;

/** Fields of /proc/<pid>/stat after the command name, which may hold spaces and parentheses. */
function statFields(path) {
  try {
    const text = readFileSync(path, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null; // the process or thread has exited
  }
}

/** utime + stime of a process (all its threads, live ones) or a thread, in seconds; 0 once gone. */
export function cpuSec(statPath) {
  const f = statFields(statPath);
  // After the name: state(0) ppid(1) ... utime(11) stime(12).
  return f ? (Number(f[11]) + Number(f[12])) / TICKS_PER_SEC : 0;
}

/** Every live pid whose ancestry leads to `rootPid`, the root included. */
export function processTree(rootPid) {
  const parents = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const f = statFields(`/proc/${name}/stat`);
    if (f) parents.set(Number(name), Number(f[1]));
  }
  const tree = [];
  for (const pid of parents.keys()) {
    for (let p = pid; p > 1; p = parents.get(p) ?? 0) {
      if (p === rootPid) {
        tree.push(pid);
        break;
      }
    }
  }
  return tree;
}

/** The threads of a process with their names (/proc/<pid>/task/<tid>/comm). */
export function threadsOf(pid) {
  try {
    return readdirSync(`/proc/${pid}/task`).map((tid) => ({
      tid: Number(tid),
      name: readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim(),
    }));
  } catch {
    return [];
  }
}

/**
 * Samples CPU seconds, split into named parts, every `everyMs` with the wall time (epoch ms), so
 * a run's measured window can be cut out afterwards: CPU between two wall times is interpolated
 * between the samples around them. `read()` returns [{ id, part, cpuSec }] for every live
 * process or thread; one that exits takes its counter with it, so each id's last value is kept.
 */
export class CpuSampler {
  #samples = [];
  #lastById = new Map();
  #timer;

  constructor(read, everyMs = 250) {
    this.read = read;
    this.sample();
    this.#timer = setInterval(() => this.sample(), everyMs);
  }

  sample() {
    for (const { id, part, cpuSec: sec } of this.read()) {
      if (sec > 0) this.#lastById.set(id, { part, sec });
    }
    const parts = { total: 0 };
    for (const { part, sec } of this.#lastById.values()) {
      parts[part] = (parts[part] ?? 0) + sec;
      parts.total += sec;
    }
    this.#samples.push({ atMs: Date.now(), parts });
  }

  stop() {
    clearInterval(this.#timer);
    this.sample();
  }

  /** CPU seconds per part (and `total`) used between two wall times (epoch ms). */
  between(fromMs, toMs) {
    const from = this.#at(fromMs);
    const to = this.#at(toMs);
    return Object.fromEntries(Object.keys(to).map((part) => [part, to[part] - (from[part] ?? 0)]));
  }

  #at(atMs) {
    const s = this.#samples;
    let i = s.findIndex((sample) => sample.atMs >= atMs);
    if (i <= 0) return (i === 0 ? s[0] : s.at(-1)).parts;
    const [a, b] = [s[i - 1], s[i]];
    const share = (atMs - a.atMs) / Math.max(1, b.atMs - a.atMs);
    return Object.fromEntries(Object.keys(b.parts).map((part) => [part, (a.parts[part] ?? 0) + share * (b.parts[part] - (a.parts[part] ?? 0))]));
  }
}

/** One process, counted whole. */
export function processCpu(pid, part = 'process') {
  return () => [{ id: `p${pid}`, part, cpuSec: cpuSec(`/proc/${pid}/stat`) }];
}
