/**
 * A worker's plan from the configuration alone (core/accounting/planned-receptions.ts) is the engine's: in a run
 * where every worker finishes, each worker's reported planned receptions, second by second, are
 * what plannedOfShare computes for its share; and a run that loses a worker mid-run plans as many
 * receptions as one that does not, the lost worker's unreported ones counted never sent (the client's).
 */
import { describe, expect, it } from 'vitest';
import { validateRunConfig, type RunConfig } from '../../core/run-config/config.ts';
import { RunCoordinator, type WorkerPort } from '../../core/execution/coordinator.ts';
import type { FromWorker } from '../../core/execution/worker-messages.ts';
import { plannedOfShare } from '../../core/accounting/planned-receptions.ts';
import { splitConnections } from '../../core/plan/worker-shares.ts';
import { BenchEngine } from '../../workers/engine/bench-engine.ts';
import { classifyPlainly, fakeHub } from '../support/fake-connections.ts';
import { FakeTime } from '../support/fake-time.ts';

function config(scenario: string): RunConfig {
  const result = validateRunConfig({ endpointUrl: 'http://fake/signalrbench', scenario, connections: 24, workers: 3, sendIntervalMs: 300, durationSec: 3, warmupSec: 1 });
  if (!result.ok) throw new Error(result.errors.join());
  return result.config;
}

/** Runs `cfg` over in-process engines on fake time; `crashAtMs` loses worker 2 then. */
async function run(cfg: RunConfig, crashAtMs?: number) {
  const time = new FakeTime();
  const hub = fakeHub(time, { deliveryDelayMs: 2 });
  const handlers: ((message: FromWorker) => void)[] = [];
  const reported = new Map<number, Map<number, number>>();
  const ports: WorkerPort[] = Array.from({ length: cfg.workers }, (_, index) => {
    const engine = new BenchEngine({ clock: time, timers: time, connect: hub.factory, classify: classifyPlainly, post: (m) => {
      if (m.type === 'snapshot') for (const d of m.fates) {
        const bySecond = reported.get(index) ?? new Map<number, number>();
        reported.set(index, bySecond.set(d.second, (bySecond.get(d.second) ?? 0) + d.planned));
      }
      handlers[index]?.(m);
    } });
    return { post: (m) => engine.handle(m), onMessage: (h) => (handlers[index] = h), terminate: () => void engine.finish() };
  });
  const coordinator = new RunCoordinator(cfg, ports, time, time);
  coordinator.start();
  if (crashAtMs !== undefined) {
    await time.advanceByMs(crashAtMs);
    handlers[1]!({ type: 'fatal', workerIndex: 1, message: 'out of memory' });
    handlers[1] = () => {};
  }
  await time.advanceByMs(30_000);
  expect(coordinator.phase).toBe('done');
  return { coordinator, reported };
}

const withoutZeros = (m: Map<number, number> | undefined) => new Map([...(m ?? [])].filter(([, n]) => n > 0));

describe('plannedOfShare', () => {
  for (const scenario of ['echo', 'broadcast', 'smallGroup', 'bigGroup', 'sendToConnection']) {
    it(`${scenario}: each worker's plan, second by second, is the engine's`, async () => {
      const cfg = config(scenario);
      const { coordinator, reported } = await run(cfg);
      const { runStartUs, startUs, endUs } = coordinator.sendWindowUs;
      const window = { runStartUs, sendStartUs: startUs, sendEndUs: endUs, warmupEndUs: startUs + cfg.warmupSec * 1_000_000 };
      const shares = splitConnections(cfg.connections, cfg.workers);
      let total = 0;
      shares.forEach((share, w) => {
        const computed = plannedOfShare(cfg, share, window);
        expect(computed).toEqual(withoutZeros(reported.get(w)));
        for (const n of computed.values()) total += n;
      });
      expect(total).toBe(coordinator.aggregator.fates().planned);
      expect(total).toBeGreaterThan(0);
    });
  }

  it('a worker lost mid-run: the run plans what it would have without the loss, the rest never sent as the client\'s', async () => {
    const cfg = config('broadcast');
    const whole = (await run(cfg)).coordinator.aggregator.settledFates(true);
    const { coordinator } = await run(cfg, 2_500);
    const fates = coordinator.aggregator.settledFates(true);
    expect(coordinator.aggregator.lostWorkers).toBe(1);
    expect(fates.planned).toBe(whole.planned);
    expect(fates.notSent.workerLost).toBeGreaterThan(0);
    expect(fates.notSent.workerLost).toBeLessThan(fates.planned);
    // Per second too: every second's buckets still sum to its planned count (lost is what is left).
    for (const point of coordinator.aggregator.points()) expect(point.fates.notSent.workerLost).toBeLessThanOrEqual(point.fates.planned);
  });
});
