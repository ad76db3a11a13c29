// Runs side by side: the plans that run one configuration per transport x protocol or per drop
// variant, the table of runs with the winner of each figure, and the verdict that names a best
// run only on evidence. Pure.
export * from './comparison-runs.ts';
export * from './comparison.ts';
export * from './drop-comparison.ts';
export * from './p99-evidence.ts';
export * from './verdict.ts';
export * from './held-comparison.ts';
