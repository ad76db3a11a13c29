/** A kept run shown with the live run's components: its document as the summary's view. */
import type { RunResult } from '../../core/run-result.ts';
import type { RunView } from './run-controller.svelte.ts';

export function viewOfResult(result: RunResult, complete: boolean): RunView {
  const last = result.points.at(-1);
  return {
    phase: 'done',
    totals: result.totals,
    // An interrupted run never drained: what was in flight is unknown, not lost.
    lost: complete ? result.lost : null,
    connectionsOpen: last?.connectionsOpen ?? 0,
    connectTimes: result.connectTimes,
    latency: result.latency,
    uncorrectedLatency: result.uncorrectedLatency,
    underOneSecondShare: result.underOneSecondShare,
    errorCounts: result.errorCounts,
    errorSamples: result.errorSamples,
    workerFailures: result.workerFailures,
    maxEventLoopLagMs: result.points.reduce((max, p) => Math.max(max, p.eventLoopLagMs), 0),
    workers: result.workers,
    agents: result.agents ?? [],
  };
}
