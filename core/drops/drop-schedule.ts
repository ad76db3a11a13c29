/**
 * A drop planned into a run: at a chosen second of the sends, a chosen share of the connections
 * loses its connection, once or repeatedly, and comes back by a reconnect policy. Pure: the
 * form, the runner and every worker work out the same plan from the configuration alone.
 *
 * Two kinds of drop:
 * - network: the client cuts its transport without a SignalR close, as a lost network would
 *   (the hub learns of it only from the dead socket);
 * - server: the hub-sample aborts the connection (its `DropMe` method, off unless the hub is
 *   started with `--EnableServerDrops true`). Other hubs offer network drops only.
 */
import { DROP_WORDS as W, POLICY_LABELS } from './words.ts';

export const DROP_KINDS = ['network', 'server'] as const;
export type DropKind = (typeof DROP_KINDS)[number];

/** How a dropped connection retries: SignalR's own default backoff (0, 2, 10, 30 s, then it gives
 *  up), a fixed 1-s delay, or jittered exponential backoff (the usual advice against reconnect
 *  storms: clients that lost the hub together must not come back together). */
export const RECONNECT_POLICIES = ['default', 'fixed', 'jittered'] as const;
export type ReconnectPolicyName = (typeof RECONNECT_POLICIES)[number];

export const RECONNECT_POLICY_LABELS: Record<ReconnectPolicyName, string> = POLICY_LABELS;

/** The drop fields of a run's configuration (see RunConfig). */
export interface DropSettings {
  /** Second of the sends (from the first planned send) at which the drop happens; null for none. */
  dropAtSec: number | null;
  /** Repeat the drop every this many seconds after the first; null for once. */
  dropEverySec: number | null;
  /** Share of the connections dropped, in percent (1–100). */
  dropSharePercent: number;
  dropKind: DropKind;
  reconnectPolicy: ReconnectPolicyName;
  /** `withStatefulReconnect()` on the client (WebSockets only): a short drop loses nothing. */
  statefulReconnect: boolean;
}

export const DROP_DEFAULTS: DropSettings = {
  dropAtSec: null,
  dropEverySec: null,
  dropSharePercent: 100,
  dropKind: 'network',
  reconnectPolicy: 'fixed',
  statefulReconnect: false,
};

/** The drop settings of a configuration; runs kept before drops existed have none of the fields. */
export function dropSettingsOf(config: Partial<DropSettings>): DropSettings {
  return {
    dropAtSec: config.dropAtSec ?? DROP_DEFAULTS.dropAtSec,
    dropEverySec: config.dropEverySec ?? DROP_DEFAULTS.dropEverySec,
    dropSharePercent: config.dropSharePercent ?? DROP_DEFAULTS.dropSharePercent,
    dropKind: config.dropKind ?? DROP_DEFAULTS.dropKind,
    reconnectPolicy: config.reconnectPolicy ?? DROP_DEFAULTS.reconnectPolicy,
    statefulReconnect: config.statefulReconnect ?? DROP_DEFAULTS.statefulReconnect,
  };
}

/**
 * Whether connection `index` (of `total`) is in the dropped share. The share is spread evenly over
 * the indices (every worker holds a contiguous range, so each drops its part), and is exact over
 * the run: floor(total × share) connections.
 */
export function isDropped(index: number, total: number, sharePercent: number): boolean {
  if (index < 0 || index >= total) return false;
  const share = sharePercent / 100;
  return Math.floor((index + 1) * share) > Math.floor(index * share);
}

/** Connections of the run the drop takes. */
export function droppedCount(total: number, sharePercent: number): number {
  return Math.floor(total * (sharePercent / 100));
}

/** The times of the drops within the sends [sendStartUs, sendEndUs), epoch µs, oldest first. */
export function dropTimesUs(settings: Pick<DropSettings, 'dropAtSec' | 'dropEverySec'>, sendStartUs: number, sendEndUs: number): number[] {
  if (settings.dropAtSec === null) return [];
  const times: number[] = [];
  for (let atUs = sendStartUs + settings.dropAtSec * 1_000_000; atUs < sendEndUs; atUs += (settings.dropEverySec ?? Infinity) * 1_000_000) {
    times.push(atUs);
    if (settings.dropEverySec === null) break;
  }
  return times;
}

/** How long a reconnect policy keeps trying after the connection was lost, in ms. */
export const RECONNECT_FOR_MS = 60_000;
/** SignalR's DefaultReconnectPolicy delays, in ms; after the last it gives up. */
export const SIGNALR_DEFAULT_DELAYS_MS = [0, 2_000, 10_000, 30_000] as const;
const JITTER_BASE_MS = 500;
const JITTER_CAP_MS = 10_000;

/**
 * The delay before reconnect attempt `previousRetryCount + 1`, in ms, or null to give up (the
 * connection then stays lost and counts as never back). `random` is in [0, 1).
 */
export function retryDelayMs(policy: ReconnectPolicyName, previousRetryCount: number, elapsedMs: number, random: () => number): number | null {
  switch (policy) {
    case 'default':
      return SIGNALR_DEFAULT_DELAYS_MS[previousRetryCount] ?? null;
    case 'fixed':
      return elapsedMs < RECONNECT_FOR_MS ? 1_000 : null;
    case 'jittered': {
      if (elapsedMs >= RECONNECT_FOR_MS) return null;
      const ceilingMs = Math.min(JITTER_CAP_MS, JITTER_BASE_MS * 2 ** Math.min(previousRetryCount, 20));
      return Math.round(ceilingMs * (0.5 + random() / 2));
    }
  }
}

/** A drop setting that cannot work, and the run setting it is about. */
export interface DropProblem {
  field: 'dropAtSec' | 'dropEverySec' | 'reconnect' | 'statefulReconnect';
  message: string;
}

/** Problems with the drop fields, each saying what to do; empty when they are fine. */

export function dropProblems(settings: DropSettings, run: { durationSec: number; warmupSec?: number; reconnect: boolean; transport: string }): DropProblem[] {
  const problems: DropProblem[] = [];
  if (settings.dropAtSec === null) {
    if (settings.dropEverySec !== null) problems.push({ field: 'dropEverySec', message: W.everyWithoutAt() });
  } else {
    if (settings.dropAtSec >= run.durationSec) {
      problems.push({ field: 'dropAtSec', message: W.atAfterSends({ atSec: settings.dropAtSec, durationSec: run.durationSec }) });
    } else if (settings.dropAtSec < (run.warmupSec ?? 0)) {
      // The warm-up's messages are left out of every figure: a drop there would cost nothing the
      // verdict sees, and the run would pass while connections were lost and sends never went out.
      problems.push({ field: 'dropAtSec', message: W.atInWarmup({ atSec: settings.dropAtSec, warmupSec: run.warmupSec }) });
    }
    if (!run.reconnect) {
      problems.push({ field: 'reconnect', message: W.needsReconnect() });
    }
  }
  if (settings.statefulReconnect && run.transport !== 'WebSockets') {
    problems.push({ field: 'statefulReconnect', message: W.statefulNotWebSockets(run) });
  }
  if (settings.statefulReconnect && !run.reconnect) {
    problems.push({ field: 'statefulReconnect', message: W.statefulNeedsReconnect() });
  }
  return problems;
}
