// The server's own figures: reading an app's /metrics (Prometheus text) once a second, the
// per-second series a run keeps, and the rule that says whether the client or the server set the
// limit. Pure but for the injected fetch.
export * from './attribution.ts';
export * from './reading.ts';
export * from './scraper.ts';
export * from './series.ts';
export * from './instances.ts';
