/** The runner's heap settings are set once, before its engines start, and the same flags go on an
 *  engine process's command line (cli/heap-tuning.ts, cli/process-port.ts). */
import { describe, expect, it, vi } from 'vitest';

const flags: string[] = [];
vi.mock('node:v8', () => ({ setFlagsFromString: (flag: string) => flags.push(flag) }));
const { tuneHeapForConnections, HEAP_TUNING_FLAGS, HEAP_GROWING_PERCENT, SEMI_SPACE_MB } = await import('../../cli/heap-tuning.ts');

describe('the heap settings', () => {
  it('20% growth and 4 MB semi-spaces, set once however often asked', () => {
    tuneHeapForConnections();
    tuneHeapForConnections();
    expect(flags).toEqual([`--heap-growing-percent=${HEAP_GROWING_PERCENT}`, `--max-semi-space-size=${SEMI_SPACE_MB}`]);
    expect(HEAP_TUNING_FLAGS).toEqual(flags);
  });
});
