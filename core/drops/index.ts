// Dropping connections on purpose and what it cost: the drop settings, the counters each worker
// keeps, latency before, during and after a drop, and a run's drops in one record. Pure.
export {
  DROP_DEFAULTS,
  DROP_KINDS,
  dropProblems,
  type DropSettings,
  dropSettingsOf,
  dropTimesUs,
  isDropped,
  RECONNECT_POLICIES,
  RECONNECT_POLICY_LABELS,
  type ReconnectPolicyName,
  retryDelayMs,
} from './drop-schedule.ts';
export {
  dropPanelShown,
  dropPanelTitle,
  dropPlanText,
  dropsText,
  plannedDropOf,
  resentText,
  runDrops,
  type RunDrops,
} from './drop-report.ts';
export { addDropTotals, type BackHow, type DropTotals, emptyDropTotals } from './totals.ts';
