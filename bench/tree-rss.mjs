// The peak resident memory of process trees: `node bench/tree-rss.mjs <pid>...` samples the summed
// VmRSS of every descendant of each <pid> (not the <pid>s themselves: the bench gives
// /usr/bin/time's pids, whose own KB are not the client's) every 250 ms until every <pid> is gone,
// then prints the peak in KB and how many processes it summed then.
// /usr/bin/time's "Maximum resident set size" is one process's: a runner whose engines are child
// processes, or a control split over several, holds the sum (bench/headless-10k.sh).
import { readdirSync, readFileSync } from 'node:fs';

export const SAMPLE_INTERVAL_MS = 250;

const read = (path) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
};

/** Every descendant of `pid`, through each of its threads' children (Linux /proc). */
export function descendantsOf(pid) {
  const tasks = (() => {
    try {
      return readdirSync(`/proc/${pid}/task`);
    } catch {
      return [];
    }
  })();
  const children = tasks.flatMap((task) => read(`/proc/${pid}/task/${task}/children`).trim().split(/\s+/).filter(Boolean).map(Number));
  return children.flatMap((child) => [child, ...descendantsOf(child)]);
}

/** "VmRSS:  123 kB" → 123; 0 for a process gone (or a zombie, which holds none). */
export const rssKb = (pid) => Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(read(`/proc/${pid}/status`))?.[1] ?? 0);

const roots = process.argv.slice(2).map(Number);
if (roots.length === 0 || !roots.every((pid) => Number.isInteger(pid) && pid > 0)) {
  console.error('usage: node bench/tree-rss.mjs <pid>...');
  process.exit(2);
}
let peakKb = 0;
let peakProcesses = 0;
const timer = setInterval(() => {
  const living = roots.filter((pid) => read(`/proc/${pid}/status`));
  if (living.length === 0) {
    clearInterval(timer);
    console.log(`${peakKb} ${peakProcesses}`);
    return;
  }
  const tree = living.flatMap(descendantsOf);
  const kb = tree.reduce((sum, pid) => sum + rssKb(pid), 0);
  if (kb > peakKb) {
    peakKb = kb;
    peakProcesses = tree.length;
  }
}, SAMPLE_INTERVAL_MS);
