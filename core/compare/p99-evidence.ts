/**
 * What a run's p99 rests on, for ranking runs by it: how many messages it was read from, how many
 * were slower, and how far it moves when the run's seconds are drawn again (core/stats/resample.ts,
 * from the per-second HDR histograms every run keeps). Pure.
 */
import { formatCount, formatMs } from '../format.ts';
import { bucketValues, decodeHistogram } from '../latency/index.ts';
import { countAbove, resampledInterval, type PercentileInterval } from '../stats/index.ts';
import type { RunResult } from '../result/index.ts';
import { COMPARE_WORDS } from './words.ts';

/**
 * Messages that must be slower than a run's p99 before runs are ranked by it: with fewer, the
 * p99 is the slowest message or one of a handful, and one slow message decides the ranking.
 */
export const MIN_SLOWER_THAN_P99 = 5;
/** Receptions a run needs for MIN_SLOWER_THAN_P99 of them to lie above its p99: 500. */
export const MIN_RECEPTIONS_TO_RANK = minimumReceptions();

function minimumReceptions(): number {
  let n = MIN_SLOWER_THAN_P99;
  while (countAbove(99, n) < MIN_SLOWER_THAN_P99) n++;
  return n;
}

export interface P99Evidence {
  /** Messages with a latency (after the warm-up). */
  receptions: number;
  p99Us: number | null;
  /** Messages slower than the p99. */
  slowerThanP99: number;
  /** Seconds the interval was drawn from. */
  seconds: number;
  interval: PercentileInterval | null;
  /** Whether the p99 rests on enough messages to rank by (MIN_RECEPTIONS_TO_RANK). */
  enough: boolean;
}

export function p99Evidence(result: RunResult): P99Evidence {
  const receptions = result.latency.count;
  const seconds = (result.histograms ?? []).map((s) => bucketValues(decodeHistogram(s.latency))).filter((s) => s.counts.length > 0);
  return {
    receptions,
    p99Us: receptions === 0 ? null : result.latency.p99Us,
    slowerThanP99: countAbove(99, receptions),
    seconds: seconds.length,
    interval: resampledInterval(seconds, 99),
    enough: receptions >= MIN_RECEPTIONS_TO_RANK,
  };
}

/**
 * Seconds a run of this configuration needs for MIN_RECEPTIONS_TO_RANK receptions at the rate
 * this run received them, warm-up included, rounded up to 5 s; null when nothing arrived.
 */
export function secondsToRank(result: RunResult): number | null {
  const warmupSec = result.config.warmupSec ?? 0;
  const measuredSec = Math.max(1, result.config.durationSec - warmupSec);
  if (result.latency.count === 0) return null;
  const perSec = result.latency.count / measuredSec;
  return Math.ceil((MIN_RECEPTIONS_TO_RANK / perSec + warmupSec) / 5) * 5;
}

/** "12.3 ms, 95%: 11.9–13.0 ms": a p99 with its interval. */
export function p99WithInterval(evidence: P99Evidence): string {
  if (evidence.p99Us === null) return 'no message arrived';
  const i = evidence.interval;
  return i === null ? formatMs(evidence.p99Us) : `${formatMs(evidence.p99Us)}, ${Math.round(i.confidence * 100)}%: ${formatMs(i.lowUs)}–${formatMs(i.highUs)}`;
}

/**
 * "WebSockets + JSON: p99 12.3 ms, 95%: 11.9–13.0 ms from 1,000 draws of its 30 seconds; 6,000
 * messages, 60 slower than p99": what the ranking read, one line per run.
 */
export function evidenceLine(label: string, evidence: P99Evidence): string {
  return COMPARE_WORDS.evidenceLine({
    label, p99: evidence.p99Us === null ? null : p99WithInterval(evidence),
    draws: evidence.interval ? { resamples: evidence.interval.resamples, seconds: evidence.seconds } : null,
    receptions: evidence.receptions, slower: evidence.slowerThanP99, enough: evidence.enough, minReceptions: MIN_RECEPTIONS_TO_RANK,
  });
}
