/**
 * The runner's engines, one WorkerPort each: one engine runs in the runner's own thread (a
 * worker thread would only add a second isolate beside it); several run one per worker thread,
 * where they can use more cores; or one per child process, when the connections need more open
 * files than one process may hold (cli/engine-kind.ts). The engine and the coordinator are the
 * same every way.
 */
import type { MessagePort } from 'node:worker_threads';
import type { WorkerPort } from '../core/execution/index.ts';
import type { EngineKind } from './engine-kind.ts';
import { tuneHeapForConnections } from './heap-tuning.ts';
import { inProcessPort } from './in-process-port.ts';
import { processPort } from './process-port.ts';
import { threadPort } from './thread-port.ts';

const engineScript = new URL('./engine-thread.js', import.meta.url);

/** Whether `count` engines of `kind` run in worker threads (and so have a heap of their own to log). */
export const runsInThreads = (count: number, kind: EngineKind = 'threads'): boolean => kind === 'threads' && count > 1;

/** Port of engine `index` of `count`; `heapPort` is a thread's end of a memory probe (threads only). */
export function enginePort(index: number, count: number, kind: EngineKind = 'threads', heapPort?: MessagePort): WorkerPort {
  if (kind === 'processes') return processPort(engineScript, index);
  // Before the first thread starts: V8's flags apply to the isolates made after them.
  tuneHeapForConnections();
  return runsInThreads(count) ? threadPort(engineScript, index, heapPort) : inProcessPort();
}
