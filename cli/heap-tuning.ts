/**
 * V8's heap settings for engines that hold thousands of connections. A connection is ~13 KB of
 * live heap (the SignalR client, its socket, the engine's state), but V8 lets a busy heap grow
 * well past what is live before it collects: by default the old generation may double, and each
 * isolate keeps a 32 MB new space. On 2 cores with 6,000 connections echoing every 10 s
 * (bench/RESULTS.md, 2026-11-26) the runner's resident memory kept climbing ~2 MB/s after the
 * ramp, to 362-388 MB by 40 s, with only ~150 MB of it fixed cost; with the settings below it
 * stayed level at 258-268 MB after the ramp (peak 271 MB), at no measurable cost in CPU or
 * latency on that machine.
 * - heap growing 20%: the old generation is collected once it is 1.2x what survived the last
 *   collection, instead of up to 2x. From the start, ramp included: at 6,000 connections V8's own
 *   growth while connections opened saved 0.09 ms of CPU per connect for 2-4% more peak memory,
 *   but at 25,000 (two engine processes, a ~300 MB heap each) it let the ramp's heap reach
 *   948-1,033 MB against 639 MB with 20% throughout, +48%, for a ramp inside the machine's noise
 *   (962-1,250 against 735 connections a second, the control's 1,162-1,245; bench/RESULTS.md,
 *   2026-11-28);
 * - semi-spaces of 4 MB (a new space of 8 MB instead of 32 MB per isolate): the young objects of
 *   a send or a delivery die in a few ms; a larger nursery only holds garbage longer.
 * Flags are process-wide: the semi-space size is read when an isolate is made, so it is set once,
 * before the engine threads start; an engine process (cli/process-port.ts) is given it on its
 * command line.
 */
import { setFlagsFromString } from 'node:v8';

export const HEAP_GROWING_PERCENT = 20;
export const SEMI_SPACE_MB = 4;

/** The flags set once, as node takes them on its command line (execArgv). */
export const HEAP_TUNING_FLAGS: readonly string[] = [
  `--heap-growing-percent=${HEAP_GROWING_PERCENT}`,
  `--max-semi-space-size=${SEMI_SPACE_MB}`,
];

let tuned = false;

export function tuneHeapForConnections(): void {
  if (tuned) return;
  tuned = true;
  for (const flag of HEAP_TUNING_FLAGS) setFlagsFromString(flag);
}

