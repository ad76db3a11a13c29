/**
 * The receptions one worker's share of the connections plans over a run, per planned second,
 * computed from the configuration alone, as the engine plans them (workers/engine/scenario-runner.ts:
 * each sending connection's first slot is spread over the interval by its run-wide index, one slot
 * every interval until the send window's end, measured from the warm-up's end on; each slot plans
 * every configured receiver). For a worker lost mid-run (a crashed engine, an agent gone): what it
 * never reported still counts, never sent (core/execution/coordinator.ts); whose loss, core/outcome/worker-loss.ts.
 */
import type { RunConfig } from '../run-config/index.ts';
import { plannedSecond } from './fates.ts';
import { planScenario, type ConnectionShare } from '../plan/index.ts';
import { profileOfRun, runReceivers } from '../profiles/index.ts';

export interface ShareWindow {
  /** When connecting began: the time base of the planned seconds, epoch µs. */
  runStartUs: number;
  /** The send window "go" set, and the warm-up's end; the end is earlier when the run was stopped. */
  sendStartUs: number;
  sendEndUs: number;
  warmupEndUs: number;
}

/** Planned receptions by planned second (1-based, as core/accounting/fates.ts counts them) of `share`.
 *  `tokenUsers`: the user each access token names (deliveries to users); empty without tokens.
 *  Each connection's slot `seq` falls later the higher its index (its first slot is spread over
 *  the interval by index), so for one `seq` the share's connections split into runs of indices by
 *  planned second, found by bisection: the cost grows with the share's connections once (their
 *  recipients summed) and with the run's slots and seconds, not with connections times slots (a
 *  lost Unit1000 fleet's plan is 1,000,000 connections). Exactly the per-connection walk's counts. */
export function plannedOfShare(config: RunConfig, share: ConnectionShare, window: ShareWindow, tokenUsers: readonly (string | null)[] = []): Map<number, number> {
  const bySecond = new Map<number, number>();
  const planned = planScenario(config);
  if (!planned.ok || share.count === 0) return bySecond;
  // Each slot plans what the engine's does (workers/scenarios/profile-scenario.ts), by the run's delivery.
  const receivers = runReceivers({ deliver: profileOfRun(config).deliver, connections: config.connections, plan: planned.plan, tokenUsers });
  const intervalUs = config.sendIntervalMs * 1_000;
  // Without a warm-up every slot is measured (the engine compares with -Infinity before "go").
  const measuredFromUs = config.warmupSec > 0 ? window.warmupEndUs : -Infinity;
  // Recipients of the share's first k connections' slots, for any k.
  const before = new Float64Array(share.count + 1);
  for (let k = 0; k < share.count; k++) before[k + 1] = before[k]! + receivers.perSlot(share.firstIndex + k);
  if (before[share.count] === 0) return bySecond;
  // The engine's planned time of connection k's slot seq (workers/engine: the same arithmetic).
  const slotUs = (k: number, seq: number) => window.sendStartUs + ((share.firstIndex + k) / config.connections) * intervalUs + seq * intervalUs;
  /** The first k in [lo, hi) where `past(k)` holds, `past` false then true over k; hi when none. */
  const firstPast = (lo: number, hi: number, past: (k: number) => boolean) => {
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (past(mid)) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
  for (let seq = 0; ; seq++) {
    // Connections whose slot seq comes before the window's end, then those of them measured.
    const end = firstPast(0, share.count, (k) => !(slotUs(k, seq) < window.sendEndUs));
    if (end === 0) break;
    let k = firstPast(0, end, (j) => !(Math.round(slotUs(j, seq)) < measuredFromUs));
    while (k < end) {
      const second = plannedSecond(slotUs(k, seq), window.runStartUs);
      const next = firstPast(k + 1, end, (j) => plannedSecond(slotUs(j, seq), window.runStartUs) !== second);
      const recipients = before[next]! - before[k]!;
      if (recipients > 0) bySecond.set(second, (bySecond.get(second) ?? 0) + recipients);
      k = next;
    }
  }
  return new Map([...bySecond].sort(([a], [b]) => a - b));
}
