// Why a run failed: its recorded evidence, the catalog of causes with their sides and words, and
// the one rule that names a cause from the evidence. Pure; core/run gathers the evidence and
// writes the diagnosis into the run's document, every view renders it.
export * from './causes.ts';
export * from './diagnose.ts';
export * from './evidence.ts';
export * from './labels.ts';
export { textNotFoundSentence } from './words.ts';
export { browserFetchFailed, connectStatuses, type StatusCount, type ConnectStage } from './failures.ts';
