/**
 * Worker ports backed by engines running in this process, with the real clock, timers and
 * SignalR client: the engine exactly as a Web Worker runs it, minus the thread.
 */
import { systemClock, systemTimers } from '../../core/clocks/clock.ts';
import type { WorkerPort } from '../../core/execution/coordinator.ts';
import { BenchEngine } from '../../workers/engine/bench-engine.ts';
import type { ConnectionFactory } from '../../workers/engine/connection.ts';
import type { FromWorker } from '../../core/execution/worker-messages.ts';
import { signalRConnectionFactory } from '../../signalr/bench-connection.ts';
import { classifySignalRError } from '../../signalr/errors.ts';

export function inProcessWorkers(count: number, connect: ConnectionFactory = signalRConnectionFactory()): WorkerPort[] {
  return Array.from({ length: count }, () => {
    let handler: (message: FromWorker) => void = () => {};
    const engine = new BenchEngine({
      clock: systemClock,
      timers: systemTimers,
      connect,
      classify: classifySignalRError,
      // Asynchronous like postMessage, so no caller sees a reply inside its own call.
      post: (message) => queueMicrotask(() => handler(message)),
    });
    return {
      post: (message) => engine.handle(structuredClone(message)),
      onMessage: (h) => (handler = h),
      terminate: () => void engine.finish(),
    };
  });
}
