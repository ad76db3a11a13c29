/**
 * A run's per-second latency histograms in HdrHistogram's standard interval log format (the
 * one HdrHistogram's own tools read and plot). Values are microseconds; the Interval_Max column
 * is in milliseconds.
 */
import { HistogramLogWriter } from 'hdr-histogram-js';
import { decodeHistogram } from './latency.ts';

export interface EncodedSecond {
  /** The interval [second - 1, second) after the run's start. */
  second: number;
  /** HdrHistogram compressed base64 of the latencies (from planned send time) in that second. */
  latency: string;
}

export function histogramLog(seconds: readonly EncodedSecond[], runStartMs: number, comment: string): string {
  let text = '';
  const writer = new HistogramLogWriter((chunk) => (text += chunk));
  writer.outputComment(comment);
  writer.outputLogFormatVersion();
  writer.outputStartTime(runStartMs);
  writer.baseTime = runStartMs;
  writer.outputLegend();
  for (const { second, latency } of seconds) {
    writer.outputIntervalHistogram(decodeHistogram(latency), second - 1, second, 1_000);
  }
  return text;
}
