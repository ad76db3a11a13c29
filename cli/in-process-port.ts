/**
 * A WorkerPort whose engine runs in the runner's own thread: the same engine host as
 * cli/engine-thread.ts, without a second V8 isolate. With one engine there is nothing to run in
 * parallel, and a worker thread only adds a second heap, a second JIT and a second GC beside
 * the main thread (measured in bench/TOOL-RESULTS.md, "The headless runner").
 *
 * It behaves as a transport exactly like a thread: every message is a structured copy
 * delivered on a later turn of the event loop, and a failure the engine did not catch (a
 * throw in a timer, a rejected promise) is reported as the worker's "fatal" instead of ending
 * the process, so the run goes on and keeps what was measured.
 */
import { hostEngine } from '../workers/engine-host.ts';
import type { FromWorker, ToWorker } from '../core/protocol.ts';
import type { WorkerPort } from '../core/run-coordinator.ts';

export function inProcessPort(workerIndex: number): WorkerPort {
  let handler: (message: FromWorker) => void = () => {};
  let terminated = false;
  const deliver = (message: FromWorker) => {
    if (terminated) return;
    const copy = structuredClone(message);
    setImmediate(() => !terminated && handler(copy));
  };
  const host = hostEngine(deliver);
  const fatal = (error: unknown) => host.fatal(error);
  process.on('uncaughtException', fatal);
  process.on('unhandledRejection', fatal);
  const detach = () => {
    process.off('uncaughtException', fatal);
    process.off('unhandledRejection', fatal);
  };
  return {
    post: (message) => {
      if (terminated) return;
      const copy = structuredClone(message);
      setImmediate(() => !terminated && host.handle(copy));
    },
    onMessage: (next) => (handler = next),
    terminate: () => {
      if (terminated) return;
      // A thread's terminate ends its sockets with it: here the engine is told to finish, which
      // closes its connections; nothing it says afterwards is delivered.
      terminated = true;
      host.handle({ type: 'finish' });
      detach();
    },
  };
}
