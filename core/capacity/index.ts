// The capacity search: its settings, which load to try next, the verdict on each step, the
// answer in the guide's terms, and the document, CSV and report section it ends with. Pure.
export * from './answer.ts';
export * from './capacity-export.ts';
export * from './capacity-result.ts';
export * from './capacity-search.ts';
export * from './next-load.ts';
export * from './settings.ts';
export * from './step-chart.ts';
export * from './step-judge.ts';
export * from './stage.ts';
