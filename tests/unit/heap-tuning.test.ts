/** The runner's heap settings (cli/heap-tuning.ts): 4 MB semi-spaces once, before the engines
 *  (and on an engine process's command line); the heap's growth set by each engine at its run's
 *  start, 100% for an engine holding many WebSocket connections. */
import { describe, expect, it, vi } from 'vitest';

const flags: string[] = [];
vi.mock('node:v8', () => ({ setFlagsFromString: (flag: string) => flags.push(flag) }));
// Unit files share a module graph (isolate: false): another file may have loaded heap-tuning.ts
// with the real node:v8 and its once-only state; this file's import must be a fresh one on the mock.
vi.resetModules();
const { tuneHeapForConnections, tuneHeapForRun, heapGrowingPercent, HEAP_TUNING_FLAGS, HEAP_GROWING_PERCENT, HEAP_TUNED_CONNECTIONS, SEMI_SPACE_MB } = await import('../../cli/heap-tuning.ts');

const start = (transport: string, count: number, workers = 1) => ({ type: 'start', config: { transport, workers }, share: { count } });

describe('the heap settings', () => {
  it('4 MB semi-spaces, set once however often asked', () => {
    flags.length = 0;
    tuneHeapForConnections();
    tuneHeapForConnections();
    expect(flags).toEqual([`--max-semi-space-size=${SEMI_SPACE_MB}`]);
    expect(HEAP_TUNING_FLAGS).toEqual(flags);
  });

  it('HEAP_GROWING_PERCENT (100%) for an engine of many WebSocket connections; V8\'s own for fewer, and for Server-Sent Events and long polling', () => {
    expect(heapGrowingPercent('WebSockets', HEAP_TUNED_CONNECTIONS)).toBe(HEAP_GROWING_PERCENT);
    expect(heapGrowingPercent('WebSockets', HEAP_TUNED_CONNECTIONS - 1)).toBe(0);
    expect(heapGrowingPercent('ServerSentEvents', 4 * HEAP_TUNED_CONNECTIONS)).toBe(0);
    expect(heapGrowingPercent('LongPolling', 4 * HEAP_TUNED_CONNECTIONS)).toBe(0);
  });

  it('each run\'s start sets its growth (a next run with fewer connections goes back to V8\'s own); other messages set nothing', () => {
    flags.length = 0;
    for (const message of [start('WebSockets', 12_500), { type: 'go' }, { type: 'finish' }, start('ServerSentEvents', 12_500), start('WebSockets', 100)]) tuneHeapForRun(message);
    expect(flags).toEqual([`--heap-growing-percent=${HEAP_GROWING_PERCENT}`, '--heap-growing-percent=0', '--heap-growing-percent=0']);
  });

  it('engine threads size it for the connections of every engine of the process: two threads of 2,500 are 5,000', () => {
    flags.length = 0;
    const half = HEAP_TUNED_CONNECTIONS / 2;
    tuneHeapForRun(start('WebSockets', half, 2), true);
    // An engine process, or the runner's own thread, holds its share alone.
    tuneHeapForRun(start('WebSockets', half, 2));
    expect(flags).toEqual([`--heap-growing-percent=${HEAP_GROWING_PERCENT}`, '--heap-growing-percent=0']);
  });
});
