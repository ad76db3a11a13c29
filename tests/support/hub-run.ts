/** Runs against the test hub-sample with engines in this process and the real SignalR client. */
import { inject } from 'vitest';
import { systemClock, systemTimers } from '../../core/clocks/clock.ts';
import { validateRunConfig, type RunConfig } from '../../core/run-config/config.ts';
import { RunCoordinator } from '../../core/execution/coordinator.ts';
import { inProcessWorkers } from './in-process-workers.ts';

/** A validated configuration aimed at the test hub; throws with every problem if invalid. */
export function hubConfig(overrides: Partial<Record<keyof RunConfig, unknown>>): RunConfig {
  const result = validateRunConfig({ endpointUrl: `${inject('hubHttpUrl')}/signalrbench`, ...overrides });
  if (!result.ok) throw new Error(result.errors.join('\n'));
  return result.config;
}

export async function runInProcess(runConfig: RunConfig): Promise<RunCoordinator> {
  const coordinator = new RunCoordinator(runConfig, inProcessWorkers(runConfig.workers), systemClock, systemTimers);
  coordinator.start();
  await coordinator.finished();
  return coordinator;
}

/**
 * Resolves once the run's sends have begun (every engine connected), however long a busy machine
 * took to connect: a test that freezes or kills the hub some seconds into the sends counts from
 * here, not from the start.
 */
export async function untilSending(coordinator: RunCoordinator, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (coordinator.phase === 'connecting') {
    if (Date.now() > deadline) throw new Error(`the run was still connecting after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
