// Latency histograms (HdrHistogram in microseconds): the settings every side records with, a
// run's per-second log, and the recent window the live figures read. Pure.
export * from './histogram-log.ts';
export * from './latency.ts';
export * from './recent-latency.ts';
