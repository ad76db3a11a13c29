/**
 * V8's heap settings for engines that hold thousands of connections. A connection is ~13 KB of
 * live heap (the SignalR client, its socket, the engine's state), but V8 lets a busy heap grow
 * well past what is live before it collects: by default the old generation may double, and each
 * isolate keeps a 32 MB new space. On 2 cores with 6,000 connections echoing every 10 s
 * (bench/RESULTS.md, 2026-11-26) the runner's resident memory kept climbing ~2 MB/s after the
 * ramp, to 362-388 MB by 40 s, with only ~150 MB of it fixed cost; with the settings below it
 * stayed level at 258-268 MB after the ramp (peak 271 MB), at no measurable cost in CPU or
 * latency on that machine.
 * - heap growing 20% once the connections are open: the old generation is collected once it is
 *   1.2x what survived the last collection, instead of up to 2x. Not while they open: a ramp
 *   only adds live objects, and collecting at every 20% of growth cost 0.07 ms of CPU per
 *   connect, ~10% of a connect without negotiation, for 1-5% less peak memory (bench/RESULTS.md,
 *   2026-11-26, "the runner's own cost"). V8 reads this flag at each collection, so setting it
 *   mid-run takes effect at the next one (in every isolate: flags are process-wide);
 * - semi-spaces of 4 MB (a new space of 8 MB instead of 32 MB per isolate): the young objects of
 *   a send or a delivery die in a few ms; a larger nursery only holds garbage longer.
 * Flags are process-wide: the semi-space size is read when an isolate is made, so it is set once,
 * before the engine threads start; an engine process (cli/process-port.ts) is given it on its
 * command line.
 */
import { setFlagsFromString } from 'node:v8';

export const HEAP_GROWING_PERCENT = 20;
export const SEMI_SPACE_MB = 4;

/** The flags set once, as node takes them on its command line (execArgv); the heap's growth
 *  follows the run's phase (tuneHeapByPhase). */
export const HEAP_TUNING_FLAGS: readonly string[] = [`--max-semi-space-size=${SEMI_SPACE_MB}`];

let tuned = false;

export function tuneHeapForConnections(): void {
  if (tuned) return;
  tuned = true;
  for (const flag of HEAP_TUNING_FLAGS) setFlagsFromString(flag);
}

/**
 * Follows an engine's run from the messages its host passes: V8's own heap growth from its start
 * (a run of a capacity search or an agent's next run ramps again), 20% from its first "ready"
 * (its connections are open). 0 is V8's default: a growth it picks from the collector's speed.
 */
export function tuneHeapByPhase(message: { type: string }): void {
  if (message.type === 'start') setFlagsFromString('--heap-growing-percent=0');
  else if (message.type === 'ready') setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
