/**
 * Entry point of one headless worker thread: the same BenchEngine as a dashboard Web Worker,
 * with Node's clock and timers and the real SignalR client.
 */
import { parentPort } from 'node:worker_threads';
import { systemClock, systemTimers } from '../core/clock.ts';
import { BenchEngine } from '../workers/engine/bench-engine.ts';
import type { FromWorker, ToWorker } from '../workers/protocol.ts';
import { classifySignalRError, encodedSizeFor, signalRConnectionFactory } from '../workers/signalr-connection.ts';

if (!parentPort) throw new Error('engine-thread runs as a worker thread of the headless runner, not on its own.');
const port = parentPort;
let workerIndex = -1;
const post = (message: FromWorker) => port.postMessage(message);
const engine = new BenchEngine({
  clock: systemClock,
  timers: systemTimers,
  connect: signalRConnectionFactory(),
  classify: classifySignalRError,
  encodedSize: encodedSizeFor,
  post,
});

function fatal(error: unknown): void {
  post({ type: 'fatal', workerIndex, message: error instanceof Error ? error.message : String(error) });
}

port.on('message', (message: ToWorker) => {
  if (message.type === 'start') workerIndex = message.workerIndex;
  try {
    engine.handle(message);
  } catch (error) {
    fatal(error);
  }
});
process.on('unhandledRejection', fatal);
