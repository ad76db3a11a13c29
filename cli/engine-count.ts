/** How many engines a run gets when --workers is not given. */
import { availableParallelism } from 'node:os';

/** The most engines a run takes (the Workers field's maximum, core/run-config/config.ts). */
export const MAX_ENGINES = 64;

/** Connections one engine carries before the default adds a worker thread (see defaultEngineCount). */
export const CONNECTIONS_PER_ENGINE = 5_000;

/**
 * The default of --workers: one engine per 5,000 connections, at most one per core beyond the
 * first (the hub, the kernel's network work and the runner's own thread need it), at least one.
 * Measured on 2 cores with the hub beside it (bench/TOOL-RESULTS.md): a second thread raised no
 * ceiling and cost 1.2-1.7x the CPU per message, so one engine is the default up to 5,000
 * connections, and on a 2-core machine at any count.
 */
export function defaultEngineCount(connections: number, cores: number = availableParallelism()): number {
  if (!Number.isFinite(connections) || connections < 1) return 1;
  return Math.max(1, Math.min(cores - 1, Math.ceil(connections / CONNECTIONS_PER_ENGINE)));
}

/**
 * The engines of one capacity step: a connections ramp given no --workers scales them with the
 * step's connections by the default above (its first step may need one, its last several);
 * otherwise the step keeps what the search planned.
 */
export function stepEngineCount(step: { connections: number; workers: number }, ramp: 'connections' | 'rate', workersGiven: boolean, cores: number = availableParallelism()): number {
  return ramp === 'connections' && !workersGiven ? defaultEngineCount(step.connections, cores) : step.workers;
}
