// Runs side by side: the plans that run one configuration per transport x protocol or per drop
// variant, the table of runs with the winner of each figure, and the verdict that names a best
// run only on evidence. Pure.
export {
  ALL_COMBINATIONS,
  combinationKey,
  comparisonProblem,
  DEFAULT_PAUSE_SEC,
  HUB_SAMPLE_HTTPS_PORT,
  planComparison,
  type PlannedCombination,
  rankingNeeds,
} from './comparison-runs.ts';
export { type ComparedRun, comparisonTable, failureOf, sharedLoad } from './comparison.ts';
export { type DropComparisonKind, type DropVariant, planDropComparison } from './drop-comparison.ts';
export { evidenceLine } from './p99-evidence.ts';
export { comparisonVerdict, type ComparisonVerdict, EVIDENCE_NOTE, verdictTone } from './verdict.ts';
export { heldComparison, type HeldEntry } from './held-comparison.ts';
