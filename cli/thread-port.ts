/** A WorkerPort over a Node worker thread running cli/engine-thread. */
import { Worker, type MessagePort } from 'node:worker_threads';
import type { WorkerPort, FromWorker } from '../core/run/index.ts';

/** `heapPort`, when given, is the thread's end of a memory probe (see memory-log.ts). */
export function threadPort(scriptUrl: URL, workerIndex: number, heapPort?: MessagePort): WorkerPort {
  const worker = heapPort ? new Worker(scriptUrl, { workerData: { heapPort }, transferList: [heapPort] }) : new Worker(scriptUrl);
  return {
    post: (message) => worker.postMessage(message),
    onMessage: (handler) => {
      worker.on('message', (message: FromWorker) => handler(message));
      // A thread that dies is reported like a worker that crashed: the run goes on without it.
      worker.on('error', (error) => handler({ type: 'fatal', workerIndex, message: error.message }));
    },
    terminate: () => void worker.terminate(),
  };
}
