/**
 * A run's drops in one record and one line of words: what the summary, the runner, History, the
 * JSON and the HTML report say about connections that were lost and came back.
 */
import { neverBackOf, type DropTotals } from './drop-ledger.ts';
import { dropPhases, type DropPhases } from './drop-phases.ts';
import { droppedCount, dropSettingsOf, RECONNECT_POLICY_LABELS, type DropSettings } from './drop-plan.ts';
import { formatCount, formatMs } from './format.ts';
import type { LatencySummary } from './latency.ts';
import type { RunAggregator, SecondPoint } from './run-aggregator.ts';
import type { RunConfig } from './run-config.ts';

export interface RunDrops {
  settings: DropSettings;
  /** Connections the planned drops were to take per drop (0 with no drop planned). */
  plannedPerDrop: number;
  totals: DropTotals;
  /** Connections that never came back: the policy gave up, or the run ended while they were away. */
  neverBack: number;
  /** Time to reconnect, from the start of each gap (the drop) to the connection being back. */
  reconnectTimes: LatencySummary;
  /** Most connections back in one second (the storm's peak); null with no per-second points. */
  peakReconnectsPerSec: number | null;
  /** Latency before, during and after the drop; absent while a run goes (it merges every
   *  second's histogram) and null when no loss shows in the per-second points. */
  latency?: DropPhases | null;
}

/** The drops of a run; null when none was planned and no connection was lost. */
export function runDrops(config: RunConfig, aggregator: Pick<RunAggregator, 'dropTotals' | 'reconnectTimes' | 'points' | 'secondHistograms'>, withPhases = true): RunDrops | null {
  const settings = dropSettingsOf(config);
  const totals = aggregator.dropTotals();
  if (settings.dropAtSec === null && totals.dropped === 0) return null;
  return {
    settings,
    plannedPerDrop: settings.dropAtSec === null ? 0 : droppedCount(config.connections, settings.dropSharePercent),
    totals,
    neverBack: neverBackOf(totals),
    reconnectTimes: aggregator.reconnectTimes(),
    peakReconnectsPerSec: peakOf(aggregator.points()),
    ...(withPhases ? { latency: dropPhases(aggregator.points(), aggregator.secondHistograms()) } : {}),
  };
}

function peakOf(points: readonly SecondPoint[]): number | null {
  if (points.length === 0) return null;
  return Math.max(...points.map((p) => p.reconnects ?? 0));
}

/** The verdict's view of a planned drop (core/run-outcome.ts): null when the run planned none. */
export function plannedDropOf(config: Partial<RunConfig>, totals: { duplicated: number }): { duplicated: number } | null {
  return dropSettingsOf(config).dropAtSec === null ? null : { duplicated: totals.duplicated };
}

/** "network drop of 100% at 5 s (fixed 1 s…), stateful reconnect on" */
export function dropPlanText(settings: DropSettings): string {
  if (settings.dropAtSec === null) return `no planned drop; reconnect policy ${RECONNECT_POLICY_LABELS[settings.reconnectPolicy]}`;
  const when = settings.dropEverySec === null ? `at ${settings.dropAtSec} s` : `at ${settings.dropAtSec} s and every ${settings.dropEverySec} s after`;
  return `${settings.dropKind} drop of ${settings.dropSharePercent}% of the connections ${when}; reconnect policy ${RECONNECT_POLICY_LABELS[settings.reconnectPolicy]}; stateful reconnect ${settings.statefulReconnect ? 'on' : 'off'}`;
}

/**
 * The figures in words: "100 lost, 100 back (100 reconnected, 0 resumed), 0 never back; time to
 * reconnect p50 1.02 s, p99 1.10 s, max 1.20 s; peak 100 reconnects/s; 10 rejoined their group".
 */
export function dropsText(drops: RunDrops): string {
  const t = drops.totals;
  const times = drops.reconnectTimes.count > 0
    ? `time to reconnect p50 ${formatMs(drops.reconnectTimes.p50Us)}, p99 ${formatMs(drops.reconnectTimes.p99Us)}, max ${formatMs(drops.reconnectTimes.maxUs)}`
    : 'time to reconnect: none came back';
  const parts = [
    `${formatCount(t.dropped)} lost, ${formatCount(t.resumed + t.reconnected)} back (${formatCount(t.reconnected)} reconnected, ${formatCount(t.resumed)} resumed by stateful reconnect), ${formatCount(drops.neverBack)} never back`,
    times,
    `peak ${drops.peakReconnectsPerSec === null ? 'unknown' : formatCount(drops.peakReconnectsPerSec)} reconnects/s`,
  ];
  const phases = drops.latency;
  if (phases) {
    const p99 = (summary: { p99Us: number | null }) => (summary.p99Us === null ? 'nothing arrived' : formatMs(summary.p99Us));
    parts.push(`latency p99 before ${p99(phases.before)}, during (s ${phases.fromSecond}–${phases.toSecond}) ${p99(phases.during)}, after ${p99(phases.after)}`);
  }
  if (t.rejoined + t.rejoinFailed > 0) {
    parts.push(`${formatCount(t.rejoined)} rejoined their group${t.rejoinFailed > 0 ? `, ${formatCount(t.rejoinFailed)} rejoins failed` : ''} (mean ${formatMs(t.rejoinUs / (t.rejoined + t.rejoinFailed))} each)`);
  }
  return parts.join('; ');
}
