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
import { hostEngine, type EngineHost } from '../hosts/engine-host.ts';
import type { FromWorker, WorkerPort } from '../core/execution/index.ts';
import { nodePlatform } from './node-websocket.ts';
import { nodeRestPost } from './node-rest-post.ts';
import { tuneHeapForRun } from './heap-tuning.ts';

/** The engine that is running in this thread, if any: an uncaught failure is its failure. */
let running: EngineHost | null = null;
let routed = false;

/** Installed once per process: a runner that does several runs (capacity steps, agent runs) adds no listener per run. */
function routeUncaughtFailures(): void {
  if (routed) return;
  routed = true;
  const onFailure = (error: unknown) => {
    if (running) running.fatal(error);
    // An engine that has ended can still be closing its sockets, as a terminated thread would be:
    // what goes wrong then changes no figure, and is said rather than ending the process.
    else console.error(`live-bench: after the run: ${error instanceof Error ? error.message : String(error)}`);
  };
  process.on('uncaughtException', onFailure);
  process.on('unhandledRejection', onFailure);
}

export function inProcessPort(): WorkerPort {
  routeUncaughtFailures();
  let handler: (message: FromWorker) => void = () => {};
  let terminated = false;
  const host = hostEngine((message) => {
    if (terminated) return;
    const copy = structuredClone(message);
    setImmediate(() => !terminated && handler(copy));
  }, nodePlatform, nodeRestPost);
  running = host;
  return {
    post: (message) => {
      if (terminated) return;
      tuneHeapForRun(message);
      const copy = structuredClone(message);
      setImmediate(() => !terminated && host.handle(copy));
    },
    onMessage: (next) => (handler = next),
    terminate: () => {
      if (terminated) return;
      // A thread's terminate ends its sockets with it: here the engine is told to finish, which
      // closes its connections; nothing it says afterwards is delivered.
      terminated = true;
      if (running === host) running = null;
      host.handle({ type: 'finish' });
    },
  };
}
