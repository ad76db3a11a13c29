/**
 * Entry point of one headless worker thread: the same engine as a dashboard Web Worker.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { hostEngine } from '../hosts/engine-host.ts';
import type { ToWorker } from '../core/run/index.ts';
import { answerHeapRequests } from './memory-log.ts';
import { nodePlatform } from './node-websocket.ts';
import { tuneHeapByPhase } from './heap-tuning.ts';

// Started on its own, it is misused: an internal error, not a user's.
if (!parentPort) throw new Error('engine-thread runs as a worker thread of the headless runner, not on its own.');
const port = parentPort;
const host = hostEngine((message) => {
  tuneHeapByPhase(message);
  port.postMessage(message);
}, nodePlatform);
port.on('message', (message: ToWorker) => {
  tuneHeapByPhase(message);
  host.handle(message);
});
process.on('unhandledRejection', (reason) => host.fatal(reason));
if (workerData?.heapPort) answerHeapRequests(workerData.heapPort);
