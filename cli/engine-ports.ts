/**
 * The runner's engines, one WorkerPort each: one engine runs in the runner's own thread (a
 * worker thread would only add a second isolate beside it); several run one per worker thread,
 * where they can use more cores. The engine and the coordinator are the same either way.
 */
import type { MessagePort } from 'node:worker_threads';
import type { WorkerPort } from '../core/run/index.ts';
import { tuneHeapForConnections } from './heap-tuning.ts';
import { inProcessPort } from './in-process-port.ts';
import { threadPort } from './thread-port.ts';

const threadScript = new URL('./engine-thread.js', import.meta.url);

/** Whether `count` engines run in worker threads (and so have a heap of their own to log). */
export const runsInThreads = (count: number): boolean => count > 1;

/** Port of engine `index` of `count`; `heapPort` is a thread's end of a memory probe (threads only). */
export function enginePort(index: number, count: number, heapPort?: MessagePort): WorkerPort {
  // Before the first thread starts: V8's flags apply to the isolates made after them.
  tuneHeapForConnections();
  return runsInThreads(count) ? threadPort(threadScript, index, heapPort) : inProcessPort();
}
