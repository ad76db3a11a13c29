/**
 * A share's plan (core/accounting/planned-receptions.ts) is found by bisection over the share's
 * connections, slot by slot, so that a lost Unit1000 fleet's plan costs seconds' and slots' work,
 * not connections times slots. It must count exactly what walking every slot of every connection
 * counts (the engine's own schedule, which share-plan.test.ts checks it against): here, the walk,
 * written out, against it on random runs, shares and windows of every scenario.
 */
import { describe, expect, it } from 'vitest';
import { validateRunConfig, type RunConfig } from '../../core/run-config/config.ts';
import { plannedOfShare, type ShareWindow } from '../../core/accounting/planned-receptions.ts';
import { plannedSecond } from '../../core/accounting/fates.ts';
import { planScenario } from '../../core/plan/index.ts';
import { profileOfRun, runReceivers } from '../../core/profiles/index.ts';
import type { ConnectionShare } from '../../core/plan/worker-shares.ts';
import { seeded } from '../support/seeded-random.ts';

/** Every slot of every connection of the share, one by one. */
function walked(config: RunConfig, share: ConnectionShare, window: ShareWindow): Map<number, number> {
  const bySecond = new Map<number, number>();
  const planned = planScenario(config);
  if (!planned.ok) return bySecond;
  const receivers = runReceivers({ deliver: profileOfRun(config).deliver, connections: config.connections, plan: planned.plan, tokenUsers: [] });
  const intervalUs = config.sendIntervalMs * 1_000;
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
  return new Map([...bySecond].sort(([a], [b]) => a - b));
}

describe('a share\'s plan, by bisection', () => {
  it.each(['echo', 'broadcast', 'smallGroup', 'bigGroup', 'sendToConnection'])('%s: the same counts, second by second, as walking every slot', (scenario) => {
    const random = seeded(scenario.length * 7919);
    const pick = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
    for (let trial = 0; trial < 40; trial++) {
      const connections = pick(1, 3_000);
      const durationSec = pick(1, 12);
      const valid = validateRunConfig({ endpointUrl: 'http://hub/signalrbench', scenario, connections, workers: 1, sendIntervalMs: [10, 97, 250, 333, 1_000, 1_700, 5_000][pick(0, 6)], durationSec, warmupSec: pick(0, durationSec - 1) });
      if (!valid.ok) throw new Error(valid.errors.join(' '));
      const config = valid.config;
      const firstIndex = pick(0, connections - 1);
      const share = { firstIndex, count: pick(0, connections - firstIndex) };
      // Times as a run has them: epoch µs, "go" a fraction of a second after the start, not whole.
      const runStartUs = 1_796_000_000_000_000 + pick(0, 999_999) + random();
      const sendStartUs = Math.round(runStartUs) + pick(250_000, 3_000_000);
      const window = { runStartUs, sendStartUs, sendEndUs: sendStartUs + durationSec * 1_000_000 - (random() < 0.2 ? pick(0, 900_000) : 0), warmupEndUs: sendStartUs + config.warmupSec * 1_000_000 };
      expect([...plannedOfShare(config, share, window)], `${scenario} trial ${trial}: ${JSON.stringify({ connections, share, interval: config.sendIntervalMs, warmup: config.warmupSec, durationSec })}`).toEqual([...walked(config, share, window)]);
    }
  });

  it('a lost Unit1000 fleet: every slot of 1,000,000 connections for 60 s, planned', () => {
    const valid = validateRunConfig({ endpointUrl: 'http://hub/signalrbench', connections: 1_000_000, durationSec: 60 });
    if (!valid.ok) throw new Error(valid.errors.join(' '));
    const plan = plannedOfShare(valid.config, { firstIndex: 0, count: 1_000_000 }, { runStartUs: 0, sendStartUs: 1_000_000, sendEndUs: 61_000_000, warmupEndUs: 1_000_000 });
    expect([...plan.values()].reduce((a, b) => a + b, 0)).toBe(60_000_000);
  });
});
