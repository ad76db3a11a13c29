// Keeping runs: a kept run and its JSON files, the store they live in (head and per-second
// rows), the history's operations, and the recorder that writes a live run as it goes. Pure.
export { joinRun, type KeptSecond, MemoryRunDb, type RunDb, secondsOf } from './db.ts';
export { RunHistory } from './history.ts';
export {
  exportComparison,
  exportRun,
  headOf,
  type KeptRun,
  type KeptRunHead,
  keptRunOf,
  newRunId,
} from './kept-run.ts';
export { type RecordingOptions, REWRITTEN_SECONDS, RunRecorder, type Versions } from './recorder.ts';
export { VERSIONS } from './versions.ts';
