// Why a run failed: its recorded evidence, the catalog of causes with their sides and words, and
// the one rule that names a cause from the evidence. Pure; core/result gathers the evidence and
// writes the diagnosis into the run's document, every view renders it.
export {
  CAUSE_IDS,
  type CauseId,
  CAUSES,
  type Diagnosis,
  diagnosisLines,
  docsAnchorOf,
  isFault,
  limitSentenceApplies,
  SIDE_LABELS,
  sideOf,
} from './causes.ts';
export { diagnose } from './diagnose.ts';
export { type HealthCheck, type RunEvidence, type ServerEvidence, type TextMismatch } from './evidence.ts';
export { CAUSE_LABELS } from './labels.ts';
export { textNotFoundSentence } from './words.ts';
export { browserFetchFailed, connectStatuses, type StatusCount, type ConnectStage } from './failures.ts';
