// A run for people outside the page: the self-contained HTML report, the per-second CSV, and
// the server's side of a run in words and charts. Pure.
export * from './csv.ts';
export * from './html.ts';
export * from './server-summary.ts';
export * from './run-summary.ts';
