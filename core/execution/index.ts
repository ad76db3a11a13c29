// A run in motion: the messages between page and workers, the coordinator that drives the workers, the watchdog, the aggregator that merges their snapshots into per-second points, the current rates. Pure.
export { RunAggregator, type SecondPoint, type WorkerHealth } from './aggregator.ts';
export { GO_LEAD_MS, RunCoordinator, runNeedsConnectionIds, type RunPhase, type WorkerPort } from './coordinator.ts';
export { connectionsHeld, recentRates, runRates, sendingSecOf } from './recent-rates.ts';
export { RUN_ID_LENGTH, runGroupName } from './run-id.ts';
export {
  type ErrorCounts,
  type ErrorKind,
  type ErrorSample,
  type FromWorker,
  type GoMessage,
  type IntervalCounts,
  type StartMessage,
  type TextlessCalls,
  type ToWorker,
  type WorkerPhase,
  type WorkerTotals,
  emptyErrorCounts,
  emptyTotals,
} from './worker-messages.ts';
