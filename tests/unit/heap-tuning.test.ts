/** The runner's heap settings follow an engine's run: V8's own growth while connections open, 20%
 *  once they are open, again V8's own at the next run's start (cli/heap-tuning.ts). */
import { describe, expect, it, vi } from 'vitest';

const flags: string[] = [];
vi.mock('node:v8', () => ({ setFlagsFromString: (flag: string) => flags.push(flag) }));
const { tuneHeapByPhase, tuneHeapForConnections, HEAP_GROWING_PERCENT, SEMI_SPACE_MB } = await import('../../cli/heap-tuning.ts');

describe('the heap settings by phase', () => {
  it('semi-spaces once, before the engines; the growth set at each start and each ready', () => {
    tuneHeapForConnections();
    tuneHeapForConnections();
    expect(flags).toEqual([`--max-semi-space-size=${SEMI_SPACE_MB}`]);
    flags.length = 0;
    for (const type of ['start', 'connected', 'ready', 'snapshot', 'start', 'ready']) tuneHeapByPhase({ type });
    expect(flags).toEqual(['--heap-growing-percent=0', `--heap-growing-percent=${HEAP_GROWING_PERCENT}`, '--heap-growing-percent=0', `--heap-growing-percent=${HEAP_GROWING_PERCENT}`]);
  });
});
