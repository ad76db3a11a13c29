/**
 * A run's drops in one record and one line of words: what the summary, the runner, History, the
 * JSON and the HTML report say about connections that were lost and came back.
 */
import { neverBackOf, type DropTotals } from './totals.ts';
import { dropPhases, type DropPhases, type DropSecond } from './phases.ts';
import { droppedCount, dropSettingsOf, RECONNECT_POLICY_LABELS, type DropSettings } from './drop-schedule.ts';
import { formatBytes, formatCount, formatMs } from '../format.ts';
import type { EncodedSecond, LatencySummary } from '../latency/index.ts';
import { DROP_WORDS as W } from './words.ts';

/** What a run's drops read of its configuration (core/run-config/config.ts RunConfig has it all). */
type DropConfig = Partial<DropSettings> & { connections: number };

/** What a run's drops read of its counters (core/execution/aggregator.ts RunAggregator has it all). */
export interface DropCounters {
  dropTotals(): DropTotals;
  reconnectTimes(): LatencySummary;
  points(): readonly DropSecond[];
  secondHistograms(): readonly EncodedSecond[];
  totals(): { statefulGranted?: number; connectionsOpened: number };
}

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
  /** With stateful reconnect asked for: connections the hub granted it to, of those opened.
   *  Absent when it was not asked for, and in runs kept before the grant was read. */
  stateful?: StatefulGrant;
}

/** How many opened connections the hub granted stateful reconnect (its negotiate answer decides). */
export interface StatefulGrant {
  granted: number;
  opened: number;
}

/** The grant, from a run's totals; null when stateful reconnect was not asked for. */
export function statefulGrantOf(config: Partial<DropSettings>, totals: { statefulGranted?: number; connectionsOpened: number }): StatefulGrant | null {
  if (!dropSettingsOf(config).statefulReconnect || totals.statefulGranted === undefined) return null;
  return { granted: totals.statefulGranted, opened: totals.connectionsOpened };
}

/**
 * Whether a run's drops get a panel of their own: a drop was planned, or connections lost without
 * one came back (a reconnect storm worth its charts). Connections lost for good without a plan
 * (a hub killed mid-run) are the diagnosis's to name; a "Drop and reconnect" panel would show a
 * drop that never happened.
 */
export function dropPanelShown(drops: RunDrops | null | undefined): drops is RunDrops {
  if (!drops) return false;
  return drops.settings.dropAtSec !== null || drops.totals.reconnected + drops.totals.resumed > 0;
}

/** The panel's heading: a planned drop's, or what happened without one. */
export function dropPanelTitle(drops: RunDrops): string {
  return drops.settings.dropAtSec !== null ? 'Drop and reconnect' : 'Connections lost and reconnected (no drop planned)';
}

/** The drops of a run; null when none was planned and no connection was lost. */
export function runDrops(config: DropConfig, aggregator: DropCounters, withPhases = true): RunDrops | null {
  const settings = dropSettingsOf(config);
  const totals = aggregator.dropTotals();
  if (settings.dropAtSec === null && totals.dropped === 0) return null;
  const stateful = statefulGrantOf(config, aggregator.totals());
  return {
    ...(stateful ? { stateful } : {}),
    settings,
    plannedPerDrop: settings.dropAtSec === null ? 0 : droppedCount(config.connections, settings.dropSharePercent),
    totals,
    neverBack: neverBackOf(totals),
    reconnectTimes: aggregator.reconnectTimes(),
    peakReconnectsPerSec: peakOf(aggregator.points()),
    ...(withPhases ? { latency: dropPhases(aggregator.points(), aggregator.secondHistograms()) } : {}),
  };
}

function peakOf(points: readonly DropSecond[]): number | null {
  if (points.length === 0) return null;
  return Math.max(...points.map((p) => p.reconnects));
}

/** The verdict's view of a planned drop (core/outcome/outcome.ts): null when the run planned none. */
export function plannedDropOf(config: Partial<DropSettings>, totals: { duplicated: number; statefulGranted?: number; connectionsOpened: number }): { duplicated: number; statefulReconnect: StatefulState } | null {
  if (dropSettingsOf(config).dropAtSec === null) return null;
  return { duplicated: totals.duplicated, statefulReconnect: statefulStateOf(config, statefulGrantOf(config, totals)) };
}

/**
 * Stateful reconnect as it was, not as it was asked for: off; on (the hub granted it to every
 * connection that opened); partly (to some); refused (asked for, never granted: the hub's
 * negotiate answer lacks `useStatefulReconnect`, so a drop cannot be bridged); asked (a run kept
 * before the grant was read).
 */
export type StatefulState = 'off' | 'on' | 'partly' | 'refused' | 'asked';

export function statefulStateOf(config: Partial<DropSettings>, grant: StatefulGrant | null | undefined): StatefulState {
  if (!dropSettingsOf(config).statefulReconnect) return 'off';
  if (!grant || grant.opened === 0) return 'asked';
  return grant.granted === 0 ? 'refused' : grant.granted < grant.opened ? 'partly' : 'on';
}

/** "stateful reconnect on", "… asked for, never granted by the hub at http://…", in words. */
export function statefulText(state: StatefulState, grant: StatefulGrant | null | undefined, endpointUrl: string): string {
  switch (state) {
    case 'off': return W.statefulOff();
    case 'on': return W.statefulOn();
    case 'partly': return W.statefulPartly({ granted: formatCount(grant?.granted ?? 0), opened: formatCount(grant?.opened ?? 0) });
    case 'refused': return W.statefulRefused({ url: endpointUrl });
    case 'asked': return W.statefulAsked();
  }
}

/** "network drop of 100% at 5 s (fixed 1 s…), stateful reconnect on (granted by the hub)" */
export function dropPlanText(settings: DropSettings, grant?: StatefulGrant | null, endpointUrl = 'the endpoint'): string {
  if (settings.dropAtSec === null) return `no planned drop; reconnect policy ${RECONNECT_POLICY_LABELS[settings.reconnectPolicy]}`;
  const when = settings.dropEverySec === null ? `at ${settings.dropAtSec} s` : `at ${settings.dropAtSec} s and every ${settings.dropEverySec} s after`;
  return `${settings.dropKind} drop of ${settings.dropSharePercent}% of the connections ${when}; reconnect policy ${RECONNECT_POLICY_LABELS[settings.reconnectPolicy]}; ${statefulText(statefulStateOf(settings, grant), grant, endpointUrl)}`;
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
    W.backCounts({ lost: formatCount(t.dropped), back: formatCount(t.resumed + t.reconnected), reconnected: formatCount(t.reconnected), resumed: formatCount(t.resumed), neverBack: formatCount(drops.neverBack) }),
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

/**
 * What stateful reconnect carried a second time, in words ("stateful reconnect resent 12 messages
 * (24.6 KB) from this client and 40 (81.9 KB) from the hub, which the client discarded as copies;
 * the message and byte figures count each once"); null when nothing was resent (or, in runs kept
 * before resends were counted, unknown).
 */
export function resentText(totals: { resentSent: number; resentSentBytes: number; resentReceived: number; resentReceivedBytes: number }): string | null {
  const sent = totals.resentSent;
  const received = totals.resentReceived;
  if (sent === 0 && received === 0) return null;
  return W.resent({ sent: formatCount(sent), sentBytes: formatBytes(totals.resentSentBytes), received: formatCount(received), receivedBytes: formatBytes(totals.resentReceivedBytes) });
}
