/** A worker's share of the run's connections: `count` connections whose run-wide indices start at `firstIndex`. */
export interface ConnectionShare {
  firstIndex: number;
  count: number;
}

/** Splits `connections` between `workers` as evenly as possible (the first ones take the remainder). */
export function splitConnections(connections: number, workers: number): ConnectionShare[] {
  if (!Number.isInteger(connections) || !Number.isInteger(workers) || connections < 0 || workers < 1) {
    throw new Error(`Cannot split ${connections} connections between ${workers} workers: both must be whole numbers, workers at least 1.`);
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
