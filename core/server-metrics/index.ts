// The server's own figures: reading an app's /metrics (Prometheus text) once a second, the
// per-second series a run keeps, and the rule that says whether the client or the server set the
// limit. Pure but for the injected fetch.
export { explainLimit, type LimitExplanation, SERVER_LOAD_ADVICE_PERCENT } from './attribution.ts';
export { readMetrics, type ServerReading } from './reading.ts';
export {
  defaultMetricsUrl,
  metricsUrlProblem,
  type ParseMetrics,
  platformFetchText,
  ServerScraper,
} from './scraper.ts';
export { peakOf, type ServerMetricsRecord, type ServerSecond } from './series.ts';
export { INSTANCE_COLORS, instanceLabel, instanceSeries, ServerScrapers } from './instances.ts';
