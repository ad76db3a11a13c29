import { PLAN_WORDS } from './words.ts';

/** A worker's share of the run's connections: `count` connections whose run-wide indices start at `firstIndex`. */
export interface ConnectionShare {
  firstIndex: number;
  count: number;
}

/** Splits `connections` between `workers` as evenly as possible (the first ones take the remainder). */
export function splitConnections(connections: number, workers: number): ConnectionShare[] {
  // Plain Errors here (internal): the counts were validated with the run's configuration.
  if (!Number.isInteger(connections) || !Number.isInteger(workers) || connections < 0 || workers < 1) {
    throw new Error(PLAN_WORDS.splitCounts({ connections, workers }));
  }
  const base = Math.floor(connections / workers);
  const remainder = connections % workers;
  const shares: ConnectionShare[] = [];
  let firstIndex = 0;
  for (let w = 0; w < workers; w++) {
    const count = base + (w < remainder ? 1 : 0);
    shares.push({ firstIndex, count });
    firstIndex += count;
  }
  return shares;
}

/** Connects in flight for one worker, so that all workers together keep about `total` in flight. */
export function connectConcurrencyPerWorker(total: number, workers: number): number {
  return Math.max(1, Math.floor(total / workers));
}

/**
 * Splits `connections` as evenly as the workers' capacities allow: a worker that can hold
 * fewer than an even share (a browser agent's 255 WebSockets) takes what it can, and the rest
 * is shared evenly by the others. `null` is no known limit. Throws when they cannot hold them
 * all; check with `capacityShortfall` first to say so in words.
 */
export function splitWithinCapacity(connections: number, capacities: readonly (number | null)[]): ConnectionShare[] {
  const shortfall = capacityShortfall(connections, capacities);
  // Internal: callers check capacityShortfall first and say it in words.
  if (shortfall > 0) throw new Error(`The workers can hold ${connections - shortfall} of ${connections} connections.`);
  const counts = new Array<number>(capacities.length).fill(0);
  let left = connections;
  let open = capacities.map((_, w) => w);
  // Each round gives every worker still open an even share, capped; at most one round per worker.
  while (left > 0 && open.length > 0) {
    const even = splitConnections(left, open.length).map((share) => share.count);
    let given = 0;
    open.forEach((w, i) => {
      const room = capacities[w] === null ? Infinity : capacities[w]! - counts[w]!;
      const take = Math.min(room, even[i]!);
      counts[w]! += take;
      given += take;
    });
    left -= given;
    open = open.filter((w) => capacities[w] === null || counts[w]! < capacities[w]!);
  }
  let firstIndex = 0;
  return counts.map((count) => {
    const share = { firstIndex, count };
    firstIndex += count;
    return share;
  });
}

/** Connections the workers cannot hold (0 when they can hold them all). */
export function capacityShortfall(connections: number, capacities: readonly (number | null)[]): number {
  if (capacities.some((c) => c === null)) return 0;
  const total = capacities.reduce<number>((sum, c) => sum + (c ?? 0), 0);
  return Math.max(0, connections - total);
}
