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
 *  `tokenUsers`: the user each access token names (deliveries to users); empty without tokens. */
export function plannedOfShare(config: RunConfig, share: ConnectionShare, window: ShareWindow, tokenUsers: readonly (string | null)[] = []): Map<number, number> {
  const bySecond = new Map<number, number>();
  const planned = planScenario(config);
  if (!planned.ok) return bySecond;
  // Each slot plans what the engine's does (workers/scenarios/profile-scenario.ts), by the run's delivery.
  const receivers = runReceivers({ deliver: profileOfRun(config).deliver, connections: config.connections, plan: planned.plan, tokenUsers });
  const intervalUs = config.sendIntervalMs * 1_000;
  // Without a warm-up every slot is measured (the engine compares with -Infinity before "go").
  const measuredFromUs = config.warmupSec > 0 ? window.warmupEndUs : -Infinity;
  for (let index = share.firstIndex; index < share.firstIndex + share.count; index++) {
    const recipients = receivers.perSlot(index);
    if (recipients === 0) continue;
    const firstSlotUs = window.sendStartUs + (index / config.connections) * intervalUs;
    for (let seq = 0, plannedUs = firstSlotUs; plannedUs < window.sendEndUs; seq++, plannedUs = firstSlotUs + seq * intervalUs) {
      if (Math.round(plannedUs) < measuredFromUs) continue;
      const second = plannedSecond(plannedUs, window.runStartUs);
      bySecond.set(second, (bySecond.get(second) ?? 0) + recipients);
    }
  }
  return bySecond;
}
