/**
 * V8's heap settings for engines that hold thousands of connections. A connection is ~13 KB of
 * live heap (the SignalR client, its socket, the engine's state), but V8 lets a busy heap grow
 * well past what is live before it collects: by default the old generation may double, and each
 * isolate keeps a 32 MB new space. On 2 cores with 6,000 connections echoing every 10 s
 * (bench/RESULTS.md, 2026-11-26) the runner's resident memory kept climbing ~2 MB/s after the
 * ramp, to 362-388 MB by 40 s, with only ~150 MB of it fixed cost; with the settings below it
 * stayed level at 258-268 MB after the ramp (peak 271 MB), at no measurable cost in CPU or
 * latency on that machine.
 * - heap growing 20%, for an engine that holds many WebSocket connections (at least
 *   HEAP_TUNED_CONNECTIONS): the old generation is collected once it is 1.2x what survived the
 *   last collection, instead of up to 2x. At 25,000 connections (two engine processes, a ~300 MB
 *   heap each) V8's own growth let the heap reach 948-1,033 MB against 638-652 MB, +48%, ramp
 *   included (bench/RESULTS.md, 2026-11-28). It costs CPU wherever garbage is made fast, since
 *   what a request holds survives a scavenge and the old generation fills: one engine, 4,000
 *   Server-Sent Events connections, 20 s: CPU 48.7-52.2 s against 34.1-39.2 and p99 253-480 against
 *   47-262 ms without it; 1,000 WebSockets at 4,000 msg/s each way, +10% CPU (3 of 3 pairs), at
 *   10,000 +16-21% (2 of 2). So
 *   each engine sets it at its run's start from its process's connections, and leaves V8's own growth to
 *   runs of fewer connections, and to Server-Sent Events and long polling (a fetch per message);
 * - semi-spaces of 4 MB (a new space of 8 MB instead of 32 MB per isolate): the young objects of
 *   a send or a delivery die in a few ms; a larger nursery only holds garbage longer.
 * Flags are process-wide: the semi-space size is read when an isolate is made, so it is set once,
 * before the engine threads start; an engine process (cli/process-port.ts) is given it on its
 * command line.
 */
import { setFlagsFromString } from 'node:v8';

export const HEAP_GROWING_PERCENT = 20;
export const SEMI_SPACE_MB = 4;
/** An engine's connections from which its heap grows by HEAP_GROWING_PERCENT. */
export const HEAP_TUNED_CONNECTIONS = 5_000;

/** The flags set once, as node takes them on its command line (execArgv). */
export const HEAP_TUNING_FLAGS: readonly string[] = [`--max-semi-space-size=${SEMI_SPACE_MB}`];

/** The heap's growth for an engine's run: 20% for many WebSocket connections, else 0 (V8's own). */
export function heapGrowingPercent(transport: string, engineConnections: number): number {
  return transport === 'WebSockets' && engineConnections >= HEAP_TUNED_CONNECTIONS ? HEAP_GROWING_PERCENT : 0;
}

/**
 * At an engine's start: the growth its run asks for. V8 reads the flag at each collection, so
 * it applies from the next one; it is process-wide, and the engines of one process share a run,
 * so it is sized for the connections of the whole process: with `inThreads`, every engine of the
 * run is a worker thread of this process (config.workers of them); else this engine is alone in
 * its process (an engine process, or the runner's own thread). Sized by the engine's own share,
 * two engine threads of 2,500 connections each were left to V8's own growth and peaked at 504 MB
 * (103 KB a connection) at 5,000 connections, where one engine peaked at 302 MB and two of 5,000
 * at 326 MB (bench/PEERS-RESULTS.md, issue 44).
 */
export function tuneHeapForRun(message: { type: string; config?: { transport: string; workers?: number }; share?: { count: number } }, inThreads = false): void {
  if (message.type !== 'start' || !message.config || !message.share) return;
  const engines = inThreads ? Math.max(1, message.config.workers ?? 1) : 1;
  setFlagsFromString(`--heap-growing-percent=${heapGrowingPercent(message.config.transport, message.share.count * engines)}`);
}

let tuned = false;

export function tuneHeapForConnections(): void {
  if (tuned) return;
  tuned = true;
  for (const flag of HEAP_TUNING_FLAGS) setFlagsFromString(flag);
}

