// A run for people outside the page: the self-contained HTML report, the per-second CSV, and
// the server's side of a run in words and charts. Pure.
export { comparisonCsv, runCsv } from './csv.ts';
export { reportHtml } from './html.ts';
export { serverLines } from './server-summary.ts';
export { errorSampleText, runSummary } from './run-summary.ts';
