import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { answerHeapRequests, heapProbe, startMemoryLog } from '../../cli/memory-log.ts';

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
