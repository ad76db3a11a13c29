/**
 * Older run documents brought to the current version, once, where they are read: a file
 * (parseRunResult), a kept run from the history (core/history/), a comparison's runs. Nothing
 * downstream reads a legacy shape: every field a later version added with a known value for older
 * runs is filled here, and what an older run never measured stays unknown (null, or absent where
 * the field is absent for runs that lack it anyway: drops, server metrics, agents).
 *
 * Version 2 (every planned reception counted) grew these without a bump, each filled here:
 * - unknown percentiles written as 0 (an empty histogram): read as null, so "–" is shown;
 * - never-sent reasons added later (e.g. `receiverAbsent`, `clientBehind`, `workerLost`): 0, none of its slots had them;
 * - totals added later (`foreign`, `statefulGranted`, the stateful reconnect's `resent*`, and with
 *   version 4 `unsolicited`, then `altered` and `receiveCalls`): 0, none were counted;
 * - per-second `reconnects` and `dropped`: 0.
 *
 * Version 3 grew, without a bump, fields that are absent for a run on one hub instance and so
 * need nothing filled in older documents: `config.endpointUrls`, `instances` and
 * `server.instances` (core/run-config/hub-instances.ts). A document without them is a run on one instance.
 *
 * Version 4 (hub profiles, core/profiles): the configuration names the hub profile the run drove.
 * Older runs drove the bundled contract: `config.hubProfile` null, the built-in profile of their
 * scenario (profileOfRun).
 */
import { knownLatency, type LatencySummary } from '../latency/index.ts';
import { NOT_SENT_REASONS, type Fates } from '../accounting/index.ts';
import { emptyTotals, type WorkerTotals, type SecondPoint } from '../execution/index.ts';
import type { RunDrops } from '../drops/index.ts';
import type { HubProfile } from '../profiles/index.ts';

/** 4: the run's hub profile in its configuration (see the module comment). */
export const RUN_RESULT_VERSION = 4;

/** The parts of a run document (result.ts RunResult) the upgrade touches: a whole document or a
 *  kept run's head (no points). */
interface Upgradable {
  version?: number;
  latency?: LatencySummary;
  uncorrectedLatency?: LatencySummary;
  connectTimes?: LatencySummary;
  points?: SecondPoint[];
  drops?: RunDrops;
  fates?: Fates;
  totals?: WorkerTotals;
  config?: { hubProfile?: HubProfile | null };
}

/** A version 2, 3 or 4 document (or head) in the current shape, with the current version. */
export function upgradeRunResult<T extends Upgradable>(result: T): T {
  const known = (summary: LatencySummary | undefined) => (summary ? knownLatency(summary) : summary);
  const { drops } = result;
  return {
    ...result,
    ...(result.version !== undefined ? { version: RUN_RESULT_VERSION } : {}),
    ...(result.config ? { config: { ...result.config, hubProfile: result.config.hubProfile ?? null } } : {}),
    ...(result.fates ? { fates: upgradeFates(result.fates) } : {}),
    ...(result.totals ? { totals: upgradeTotals(result.totals) } : {}),
    ...(result.latency ? { latency: known(result.latency) } : {}),
    ...(result.uncorrectedLatency ? { uncorrectedLatency: known(result.uncorrectedLatency) } : {}),
    ...(result.connectTimes ? { connectTimes: known(result.connectTimes) } : {}),
    ...(result.points ? { points: result.points.map(upgradePoint) } : {}),
    ...(drops ? { drops: { ...drops, reconnectTimes: knownLatency(drops.reconnectTimes), ...(drops.latency ? { latency: { ...drops.latency, before: knownLatency(drops.latency.before), during: knownLatency(drops.latency.during), after: knownLatency(drops.latency.after) } } : {}) } } : {}),
  };
}

/** Fates with every never-sent reason (0 where an older document lacks one). */
export function upgradeFates<T extends Fates>(fates: T): T {
  const notSent = { ...fates.notSent };
  for (const reason of NOT_SENT_REASONS) notSent[reason] ??= 0;
  return { ...fates, notSent };
}

function upgradeTotals(totals: WorkerTotals): WorkerTotals {
  return { ...emptyTotals(), ...totals };
}

function upgradePoint(point: SecondPoint): SecondPoint {
  return {
    ...point,
    reconnects: point.reconnects ?? 0,
    dropped: point.dropped ?? 0,
    fates: upgradeFates(point.fates),
    latency: point.latency.count > 0 ? point.latency : knownLatency(point.latency),
  };
}
