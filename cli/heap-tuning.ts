/**
 * V8's heap settings for engines that hold thousands of connections. A connection is ~13 KB of
 * live heap (the SignalR client, its socket, the engine's state), but V8 lets a busy heap grow
 * well past what is live before it collects: by default the old generation may grow to 4 times
 * what survived, and each isolate keeps a 32 MB new space. On 2 cores with 6,000 connections
 * echoing every 10 s (bench/RESULTS.md, 2026-11-26) the runner's resident memory kept climbing
 * ~2 MB/s after the ramp, to 362-388 MB by 40 s, with only ~150 MB of it fixed cost; with the
 * settings below (then 20% growth) it stayed level at 258-268 MB after the ramp (peak 271 MB).
 * - heap growing 100%, for an engine that holds many WebSocket connections (at least
 *   HEAP_TUNED_CONNECTIONS): the old generation is collected once it is twice what survived the
 *   last collection. V8's own growth lets a heap with gigabytes of room grow up to 4 times what
 *   survived when little is collected: at 25,000 connections (two engine processes, a ~300 MB heap
 *   each) it reached 948-1,033 MB (bench/RESULTS.md, 2026-11-28), and at 1,000 connections x
 *   10/s the runner peaked at 246-364 MB against the plain-library control's 225-230 MB (issue 44).
 *   Twice is what V8 chose for that control at 5,000 connections (60 MB live, collected at
 *   124-132 MB). This was 20% until issue 44: a collection every ~15 MB promoted, 33-39
 *   mark-compacts a run at 5,000 and 10,000 connections x 1/s against the control's 6-10, whose
 *   concurrent marking on V8's helper threads was the runner's extra CPU a message (5,000 x 1/s,
 *   load 3-4, one process each: 17.7 s of CPU at 20%, 14.5 s at 100%, the control 14.9 s; peak RSS
 *   229, 282 and 314 MB: bench/PEERS-RESULTS.md). It is left to V8 for Server-Sent Events and long
 *   polling (a fetch per message promotes what each request holds: 4,000 Server-Sent Events
 *   connections at 20% spent 48.7-52.2 s of CPU against 34.1-39.2 without it). It applies from
 *   the run's start: V8's own growth during the ramp and 100% from "go" made half the ramp's
 *   mark-compacts (3 against 6 at 10,000 connections) and 9% less CPU a connect, but a peak of
 *   437 MB against 368-385 and the control's 406 (bench/PEERS-RESULTS.md, 2026-12-06 evening):
 *   the memory is held all run, the connect paid once;
 * - semi-spaces of 4 MB (a new space of 8 MB instead of 32 MB per isolate): the young objects of
 *   a send or a delivery die in a few ms; a larger nursery only holds garbage longer.
 * Flags are process-wide: the semi-space size is read when an isolate is made, so it is set once,
 * before the engine threads start; an engine process (cli/process-port.ts) is given it on its
 * command line.
 */
import { setFlagsFromString } from 'node:v8';

export const HEAP_GROWING_PERCENT = 100;
export const SEMI_SPACE_MB = 4;
/** An engine's connections from which its heap grows by HEAP_GROWING_PERCENT. */
export const HEAP_TUNED_CONNECTIONS = 1_000;

/** The flags set once, as node takes them on its command line (execArgv). */
export const HEAP_TUNING_FLAGS: readonly string[] = [`--max-semi-space-size=${SEMI_SPACE_MB}`];

/** The heap's growth for an engine's run: HEAP_GROWING_PERCENT for many WebSocket connections, else 0 (V8's own). */
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

