/**
 * Entry point of one headless engine: a worker thread of the runner (cli/thread-port.ts), or a
 * child process of it (cli/process-port.ts) when the runner's connections need more open files
 * than one process may hold. The same engine as a dashboard Web Worker either way.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { hostEngine } from '../hosts/engine-host.ts';
import type { FromWorker, ToWorker } from '../core/execution/index.ts';
import { answerHeapRequests } from './memory-log.ts';
import { nodePlatform } from './node-websocket.ts';
import { nodeRestPost } from './node-rest-post.ts';
import { tuneHeapForRun } from './heap-tuning.ts';
import { RUN_WORDS } from './run-words.ts';

function hostInThread(port: NonNullable<typeof parentPort>): void {
  const host = hostEngine((message) => port.postMessage(message), nodePlatform, nodeRestPost);
  port.on('message', (message: ToWorker) => {
    // Every engine of the run is a thread of this process: the heap's growth is sized for all of them.
    tuneHeapForRun(message, true);
    host.handle(message);
  });
  process.on('unhandledRejection', (reason) => host.fatal(reason));
  if (workerData?.heapPort) answerHeapRequests(workerData.heapPort);
}

function hostInProcess(send: (message: FromWorker) => void): void {
  const host = hostEngine(send, nodePlatform, nodeRestPost);
  process.on('message', (message: ToWorker) => {
    tuneHeapForRun(message);
    host.handle(message);
  });
  process.on('unhandledRejection', (reason) => host.fatal(reason));
  // A throw nothing caught ends a thread with its message: here it is said, then the process ends
  // (once the message had time to leave; the runner takes the first of the two).
  process.on('uncaughtException', (error) => {
    host.fatal(error);
    setTimeout(() => process.exit(1), 200);
  });
  // The runner decides when the run stops: a Ctrl+C reaches the whole process group, and so does
  // a SIGTERM sent to the group (GNU timeout, systemd's stop, a CI job's cancel); the runner, told
  // too, drains and ends its engines itself. An engine that died of it would count as lost.
  process.on('SIGINT', () => {});
  process.on('SIGTERM', () => {});
  // No orphans: when the runner is gone (exited, killed, even by SIGKILL) its IPC channel closes.
  process.on('disconnect', () => process.exit(0));
}

if (parentPort) hostInThread(parentPort);
else if (process.send) {
  const send = process.send.bind(process);
  // Nothing is sent once the runner is gone (this process is exiting then).
  hostInProcess((message) => void (process.connected && send(message)));
}
// Started on its own, it is misused: an internal error, not a user's.
else throw new Error(RUN_WORDS.notOnItsOwn({ file: 'engine-thread', as: 'a worker thread or a child process' }));
