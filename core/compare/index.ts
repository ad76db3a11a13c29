// Runs side by side: the plans that run one configuration per transport x protocol or per drop
// variant, and the table of runs with the winner of each figure. Pure.
export * from './comparison-plan.ts';
export * from './comparison.ts';
export * from './drop-comparison.ts';
export * from './verdict.ts';
