// Latency histograms (HdrHistogram in microseconds): the settings every side records with, a
// run's per-second log, and the recent window the live figures read. Pure.
export { type EncodedSecond, histogramLog, taggedHistogramLog } from './histogram-log.ts';
export {
  addPosted,
  bucketValues,
  countBetweenUs,
  createLatencyHistogram,
  decodeHistogram,
  encodeHistogram,
  GUIDE_LATENCY_LIMIT_US,
  type Histogram,
  knownLatency,
  type LatencySummary,
  type PostedHistogram,
  postHistogram,
  recordLatencyUs,
  summarizeLatency,
} from './latency.ts';
export { RecentLatency } from './recent-latency.ts';
