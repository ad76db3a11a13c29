// Keeping runs: a kept run and its JSON files, the store they live in (head and per-second
// rows), the history's operations, and the recorder that writes a live run as it goes. Pure.
export * from './db.ts';
export * from './history.ts';
export * from './kept-run.ts';
export * from './recorder.ts';
export * from './versions.ts';
