/// <reference lib="webworker" />
/**
 * Entry point of one dashboard Web Worker: runs a {@link BenchEngine} with the browser's clock,
 * timers and the real SignalR client. One worker runs one run, then the page terminates it.
 */
import { systemClock, systemTimers } from '../core/clock.ts';
import { BenchEngine } from './engine/bench-engine.ts';
import type { FromWorker, ToWorker } from './protocol.ts';
import { classifySignalRError, encodedSizeFor, signalRConnectionFactory } from './signalr-connection.ts';

declare const self: DedicatedWorkerGlobalScope;

let workerIndex = -1;
const post = (message: FromWorker) => self.postMessage(message);
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

self.onmessage = (event: MessageEvent<ToWorker>) => {
  if (event.data.type === 'start') workerIndex = event.data.workerIndex;
  try {
    engine.handle(event.data);
  } catch (error) {
    fatal(error);
  }
};
self.addEventListener('unhandledrejection', (event) => fatal(event.reason));
self.addEventListener('error', (event) => fatal(event.error ?? event.message));
