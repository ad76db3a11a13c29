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

export interface TaggedRunSeconds {
  /** The run's name; written as the intervals' tag (commas and spaces become "_", as tags allow neither). */
  tag: string;
  runStartMs: number;
  seconds: readonly EncodedSecond[];
}

/**
 * Several runs in one interval log, each interval tagged with its run, on one time base (the
 * earliest run's start): HdrHistogram's tools can then select or plot each run by its tag.
 */
export function taggedHistogramLog(runs: readonly TaggedRunSeconds[], comment: string): string {
  const baseMs = Math.min(...runs.map((r) => r.runStartMs));
  let text = '';
  const writer = new HistogramLogWriter((chunk) => (text += chunk));
  writer.outputComment(comment);
  writer.outputLogFormatVersion();
  writer.outputStartTime(baseMs);
  writer.baseTime = baseMs;
  writer.outputLegend();
  for (const run of runs) {
    const offsetSec = (run.runStartMs - baseMs) / 1_000;
    for (const { second, latency } of run.seconds) {
      const histogram = decodeHistogram(latency);
      histogram.tag = logTag(run.tag);
      writer.outputIntervalHistogram(histogram, offsetSec + second - 1, offsetSec + second, 1_000);
    }
  }
  return text;
}

export function logTag(name: string): string {
  return name.trim().replace(/[,\s]+/g, '_') || 'run';
}
