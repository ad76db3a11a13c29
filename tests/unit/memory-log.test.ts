import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { answerHeapRequests, heapProbe, residentBytesOf, startMemoryLog, vmRssBytes } from '../../cli/memory-log.ts';

describe('the runner memory log', () => {
  it('writes a header and one row per sample, with a heap figure per thread, and a last row on stop', async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'memlog-')), 'memory.csv');
    // Two probes answered in this thread: the same MessageChannel path a worker thread uses.
    const pairs = [heapProbe(), heapProbe()];
    for (const pair of pairs) answerHeapRequests(pair.threadEnd);
    const stop = startMemoryLog(file, pairs.map((pair) => pair.probe), 40);
    await new Promise((resolve) => setTimeout(resolve, 150));
    await stop();
    const [header, ...rows] = readFileSync(file, 'utf8').trim().split('\n');
    expect(header).toBe('minute,rss_mb,main_heap_mb,thread0_heap_mb,thread1_heap_mb,gc_forced');
    expect(rows.length).toBeGreaterThanOrEqual(2);
    for (const row of rows) {
      const [minute = NaN, rss = NaN, main = NaN, t0 = NaN, t1 = NaN] = row.split(',').map(Number);
      expect(minute).toBeGreaterThanOrEqual(0);
      expect(rss).toBeGreaterThan(main);
      for (const heap of [main, t0, t1]) expect(heap).toBeGreaterThan(0);
    }
    for (const pair of pairs) pair.probe.port.close();
  });

  it('records a thread that does not answer as an empty cell instead of waiting for it', async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'memlog-')), 'memory.csv');
    const silent = heapProbe();
    const stop = startMemoryLog(file, [silent.probe], 60_000);
    await stop();
    const row = readFileSync(file, 'utf8').trim().split('\n')[1]?.split(',') ?? [];
    expect(row[3]).toBe('');
    silent.probe.port.close();
  }, 10_000);
});

describe('the resident memory of engine processes', () => {
  const status = (kb: number) => `Name:\tnode\nVmPeak:\t  999999 kB\nVmRSS:\t  ${kb} kB\nThreads:\t7\n`;

  it('reads VmRSS, and sums the processes, a gone one holding nothing', () => {
    expect(vmRssBytes(status(2048))).toBe(2048 * 1024);
    expect(Number.isNaN(vmRssBytes('Name:\tzombie\n'))).toBe(true);
    const read = (file: string) => {
      if (file === '/proc/11/status') return status(100);
      if (file === '/proc/12/status') return status(300);
      throw new Error('ENOENT');
    };
    expect(residentBytesOf([11, 12, 13], read)).toBe(400 * 1024);
    expect(residentBytesOf([], read)).toBe(0);
  });
});
