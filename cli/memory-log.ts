/**
 * `--memory-log <file>`: the runner samples its own memory every 30 s into a CSV, so a soak can
 * tell a leak from V8 growing its heap. Resident memory alone cannot: it only shows what the
 * process holds, not what is still alive. Each sample has the process's resident set and, for
 * the main thread and every worker thread, the V8 heap in use. When Node runs with
 * `--expose-gc`, every isolate collects its garbage first, so the heap figure is what is live.
 * With engine processes (cli/process-port.ts) the resident set is the sum over the runner and
 * them: the memory the run holds, not the runner's share of it.
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { getHeapStatistics } from 'node:v8';
import { MessageChannel, type MessagePort } from 'node:worker_threads';

export const MEMORY_SAMPLE_INTERVAL_MS = 30_000;

/** The thread side: answers each request with its isolate's heap in use, in bytes. */
export function answerHeapRequests(port: MessagePort): void {
  port.on('message', () => {
    (globalThis as { gc?: () => void }).gc?.();
    port.postMessage(getHeapStatistics().used_heap_size);
  });
  port.unref();
}

/** The runner side of one thread's probe: `ask()` resolves with its heap in use, or NaN once it is gone. */
export interface HeapProbe {
  port: MessagePort;
  ask(): Promise<number>;
}

export function heapProbe(): { probe: HeapProbe; threadEnd: MessagePort } {
  const { port1, port2 } = new MessageChannel();
  port1.unref();
  const probe: HeapProbe = {
    port: port1,
    // A thread that died or is busy for 5 s is recorded as missing rather than waited for.
    ask: () =>
      new Promise((resolve) => {
        const timeout = setTimeout(() => resolve(Number.NaN), 5_000);
        port1.once('message', (bytes: number) => {
          clearTimeout(timeout);
          resolve(bytes);
        });
        port1.postMessage('sample');
      }),
  };
  return { probe, threadEnd: port2 };
}

/** "VmRSS:\t  123456 kB" of /proc/<pid>/status, in bytes; NaN when absent (the process is gone). */
export function vmRssBytes(statusText: string): number {
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(statusText);
  return match ? Number(match[1]) * 1024 : Number.NaN;
}

/** Resident bytes of the processes `pids` (0 for one gone or unreadable: it holds nothing). */
export function residentBytesOf(pids: readonly number[], read: (path: string) => string = (path) => readFileSync(path, 'utf8')): number {
  let sum = 0;
  for (const pid of pids) {
    try {
      const bytes = vmRssBytes(read(`/proc/${pid}/status`));
      if (!Number.isNaN(bytes)) sum += bytes;
    } catch {
      // Exited between the listing and the read.
    }
  }
  return sum;
}

const mb = (bytes: number) => (Number.isNaN(bytes) ? '' : (bytes / 2 ** 20).toFixed(1));

/**
 * Starts sampling into `path` (CSV with a header) every `intervalMs`; the returned function stops
 * it after one last sample, so even a short run leaves a row.
 */
export function startMemoryLog(path: string, probes: HeapProbe[], intervalMs = MEMORY_SAMPLE_INTERVAL_MS, now: () => number = Date.now, childPids: () => number[] = () => []): () => Promise<void> {
  const startedMs = now();
  const threadColumns = probes.map((_, index) => `thread${index}_heap_mb`);
  writeFileSync(path, ['minute', 'rss_mb', 'main_heap_mb', ...threadColumns, 'gc_forced'].join(',') + '\n');
  const sample = async () => {
    const threadHeaps = await Promise.all(probes.map((probe) => probe.ask()));
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    const row = [((now() - startedMs) / 60_000).toFixed(2), mb(process.memoryUsage.rss() + residentBytesOf(childPids())), mb(getHeapStatistics().used_heap_size), ...threadHeaps.map(mb), gc ? 'yes' : 'no'];
    appendFileSync(path, row.join(',') + '\n');
  };
  const timer = setInterval(() => void sample(), intervalMs);
  return async () => {
    clearInterval(timer);
    await sample();
  };
}
