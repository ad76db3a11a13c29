/** A WorkerPort over a Node worker thread running cli/engine-thread. */
import { Worker, type MessagePort } from 'node:worker_threads';
import type { WorkerPort, FromWorker } from '../core/execution/index.ts';

/** `heapPort`, when given, is the thread's end of a memory probe (see memory-log.ts). */
export function threadPort(scriptUrl: URL, workerIndex: number, heapPort?: MessagePort): WorkerPort {
  const worker = heapPort ? new Worker(scriptUrl, { workerData: { heapPort }, transferList: [heapPort] }) : new Worker(scriptUrl);
  let ended = false;
  return {
    post: (message) => worker.postMessage(message),
    onMessage: (handler) => {
      worker.on('message', (message: FromWorker) => handler(message));
      // A thread that dies is reported like a worker that crashed, once: the run goes on without
      // it. Past its heap limit (ERR_WORKER_OUT_OF_MEMORY) it errs; one that exits on its own
      // before the run ends them says nothing, and would otherwise be waited for forever.
      const died = (message: string) => {
        if (ended) return;
        ended = true;
        handler({ type: 'fatal', workerIndex, message });
      };
      worker.on('error', (error) => died(error.message));
      worker.on('exit', (code) => died(`its thread exited (code ${code}) before the run ended it`));
    },
    terminate: () => {
      ended = true;
      void worker.terminate();
    },
  };
}
