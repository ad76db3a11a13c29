/**
 * Whose loss a lost worker is (core/run/worker-loss.ts): a worker of the lead's own, or an agent
 * that alone fell silent or left, is the client's; agents' threads whose reports stopped together
 * with the control hub are not, and are the service's when the control hub is the run's hub and
 * the agents answered once it was back. The verdict, the client's evidence, the limit and the exit
 * reason all read the same sides.
 */
import { describe, expect, it } from 'vitest';
import { validateRunConfig } from '../../core/run/config.ts';
import { RunCoordinator, type WorkerPort } from '../../core/run/coordinator.ts';
import { WORKER_SILENCE_LIMIT_MS } from '../../core/run/watchdog.ts';
import { lostEnginesReason, lossSide, lostWorkersText, relayWentQuiet, type RelayState } from '../../core/run/worker-loss.ts';
import { lostSidesOf, workersOfRun, type RunAgent } from '../../core/run/result.ts';
import { runVerdict } from '../../core/run/outcome.ts';
import { runLimit } from '../../core/run/limit.ts';
import { clientLimitReasons } from '../../core/client/evidence.ts';
import { isRunHubOf } from '../../core/fleet/fleet-run.ts';
import { Fleet } from '../../core/fleet/fleet.ts';
import { DEFAULTS } from '../../core/run/config.ts';
import { BenchEngine } from '../../workers/engine/bench-engine.ts';
import type { FromWorker, StartMessage } from '../../core/run/protocol.ts';
import { classifyPlainly, fakeEncodedSize, fakeHub } from '../support/fake-connections.ts';
import { FakeTime } from '../support/fake-time.ts';

const CONTROL = 'http://hub:5000/control';

/**
 * Two workers as an agent's threads: their messages come through a "control hub" the test can
 * freeze (nothing passes, as with SIGSTOP) for one thread or for every one, and each port says
 * how long the hub has relayed nothing, as the lead's Fleet does.
 */
function relayedRun(durationSec = 30) {
  const result = validateRunConfig({ endpointUrl: 'http://hub:5000/signalrbench', connections: 4, workers: 2, sendIntervalMs: 100, durationSec });
  if (!result.ok) throw new Error(result.errors.join());
  const time = new FakeTime();
  const hub = fakeHub(time, { deliveryDelayMs: 2 });
  const handlers: ((message: FromWorker) => void)[] = [];
  const frozen = new Set<number>();
  let heardUs = 0;
  const relay = (): RelayState => ({ url: CONTROL, isRunHub: true, quietMs: (time.nowUs() - heardUs) / 1_000 });
  const ports: WorkerPort[] = [0, 1].map((index) => {
    const engine = new BenchEngine({ clock: time, timers: time, connect: hub.factory, classify: classifyPlainly, encodedSize: fakeEncodedSize, post: (m) => {
      if (frozen.has(index)) return;
      heardUs = time.nowUs();
      handlers[index]?.(m);
    } });
    return { post: (m) => engine.handle(m), onMessage: (h) => (handlers[index] = h), terminate: () => {}, relay };
  });
  const coordinator = new RunCoordinator(result.config, ports, time, time);
  return { coordinator, time, frozen, handlers, config: result.config };
}

const agentOf = (clockEnd: RunAgent['clockEnd']): RunAgent => ({ name: 'agent-a', kind: 'node', client: 'node', firstWorkerIndex: 0, threads: 2, clockOffsetUs: 0, clockUncertaintyUs: 100, lost: false, clockEnd });

describe('agents\' threads silent together with their control hub', () => {
  it('are not the client\'s loss: unknown without more, the service\'s once they answer the closing clock round on the run\'s hub', async () => {
    const { coordinator, time, frozen } = relayedRun();
    coordinator.start();
    await time.advanceByMs(3_200);
    expect(coordinator.phase).toBe('running');
    // The control hub freezes: nothing of either thread, nor of anyone, comes through.
    frozen.add(0).add(1);
    await time.advanceByMs(WORKER_SILENCE_LIMIT_MS + 1_200);
    expect(coordinator.aggregator.lostWorkers).toBe(2);
    expect(coordinator.workerLosses.map((l) => l.how)).toEqual(['relayQuiet', 'relayQuiet']);
    expect(coordinator.workerFailures[0]).toMatch(/^Worker \d sent no report for \d+ s .*the agents' reports stopped together with the control hub at http:\/\/hub:5000\/control, the run's own hub.*not counted as the client's/);
    expect(coordinator.workerFailures.join()).not.toMatch(/client's failure/);
    await time.advanceByMs(40_000);
    expect(coordinator.phase).toBe('done');

    // No agent's closing round known: unknown.
    const unknown = workersOfRun(coordinator);
    expect(lostSidesOf(unknown)).toEqual(['unknown', 'unknown']);
    // The agent did not answer its closing round: still unknown; it answered: it was alive, the hub stalled.
    expect(lostSidesOf(workersOfRun(coordinator, [agentOf(null)]))).toEqual(['unknown', 'unknown']);
    const alive = workersOfRun(coordinator, [agentOf({ offsetUs: 0, uncertaintyUs: 100, measuredAtUs: 1 })]);
    expect(lostSidesOf(alive)).toEqual(['service', 'service']);

    const fates = coordinator.aggregator.settledFates(true);
    // Every planned message still counts: 4 connections x 300 slots (100 ms for 30 s).
    expect(fates.planned).toBe(1_200);
    // Every worker lost: the seconds of their plan past the last report are points too, so the seconds sum to the run.
    expect(coordinator.aggregator.points().reduce((sum, p) => sum + p.fates.planned, 0)).toBe(1_200);
    for (const [workers, says] of [[unknown, /cannot be told from the lead, so the side is unknown, not the client's/], [alive, /the service stalled, not the client/]] as const) {
      const verdict = runVerdict({ outcome: coordinator.outcome, fates, durationSec: 30, p99Us: 1_000, lostWorkers: 2, lostSides: lostSidesOf(workers) });
      expect(verdict.status).toBe('fail');
      expect(verdict.sentence).toMatch(/^Fail: the agents' reports stopped together with the control hub: 2 agent thread\(s\) were given up for silence/);
      expect(verdict.sentence).toMatch(says);
      expect(verdict.sentence).not.toMatch(/the client's loss/);
      // Not the client's own limit; and no side for the run's limit unless the hub is known to have stalled.
      const clientLimits = clientLimitReasons({ connections: 4, connectionsFailed: 0, workers, workerFailures: coordinator.workerFailures });
      expect(clientLimits).toEqual([]);
      const limit = runLimit({ points: [], missedSlots: 0, sent: 100, clientLimits, workers });
      expect(limit.side).toBe(workers === alive ? 'server' : 'unknown');
      expect(lostEnginesReason(2, workers)).toMatch(/^2 of 2 engine\(s\) were lost \(2 of them with the control hub, not known to be the client's\)/);
    }
    expect(runLimit({ points: [], missedSlots: 0, sent: 100, workers: alive }).sentence).toMatch(/^The server stopped relaying the reports of 2 agent threads .*the service is the limit/);
  });

  it('one thread silent while the control hub still relays the other: the client\'s, as before', async () => {
    const { coordinator, time, frozen } = relayedRun();
    coordinator.start();
    await time.advanceByMs(3_200);
    frozen.add(1);
    await time.advanceByMs(WORKER_SILENCE_LIMIT_MS + 1_200);
    expect(coordinator.workerLosses).toEqual([{ workerIndex: 1, how: 'silent' }]);
    expect(coordinator.workerFailures[0]).toMatch(/client's failure, not the hub's/);
    await time.advanceByMs(40_000);
    const workers = workersOfRun(coordinator, [agentOf({ offsetUs: 0, uncertaintyUs: 100, measuredAtUs: 1 })]);
    expect(lostSidesOf(workers)).toEqual(['client']);
    const verdict = runVerdict({ outcome: coordinator.outcome, fates: coordinator.aggregator.settledFates(true), durationSec: 30, p99Us: 1_000, lostWorkers: 1, lostSides: lostSidesOf(workers) });
    expect(verdict.sentence).toMatch(/^Fail: 1 worker\(s\) were lost mid-run, the client's loss/);
    expect(clientLimitReasons({ connections: 4, connectionsFailed: 0, workers, workerFailures: coordinator.workerFailures })[0]).toMatch(/^lost 1 of its 2 engines mid-run/);
    expect(lostEnginesReason(1, workers)).toBe('1 of 2 engine(s) failed (see above): a run that lost part of its load is not a pass.');
  });
});

describe('the rule, and the Fleet that feeds it', () => {
  it('relayWentQuiet, lossSide and the wording', () => {
    const relay = (quietMs: number): RelayState => ({ url: CONTROL, isRunHub: true, quietMs });
    expect(relayWentQuiet(10_000, undefined)).toBe(false);
    expect(relayWentQuiet(10_000, relay(900))).toBe(false);
    expect(relayWentQuiet(10_000, relay(5_000))).toBe(true);
    expect(relayWentQuiet(10_000, relay(Infinity))).toBe(true);
    const quiet = { workerIndex: 0, how: 'relayQuiet' as const, relay: { url: CONTROL, isRunHub: true } };
    const elsewhere = { ...quiet, relay: { url: 'http://control:6000/control', isRunHub: false } };
    expect(lossSide({ workerIndex: 0, how: 'failed' }, true)).toBe('client');
    expect(lossSide({ workerIndex: 0, how: 'silent' }, null)).toBe('client');
    expect(lossSide(quiet, null)).toBe('unknown');
    expect(lossSide(quiet, false)).toBe('unknown');
    expect(lossSide(quiet, true)).toBe('service');
    // A control hub of its own that stalled is not the run's service either.
    expect(lossSide(elsewhere, true)).toBe('unknown');
    // Runs kept before sides: every lost worker the client's.
    expect(lostWorkersText(2, undefined)).toBe("2 worker(s) were lost mid-run, the client's loss");
    expect(lostWorkersText(3, ['unknown', 'unknown', 'client'])).toMatch(/2 agent thread\(s\) were given up for silence.*; 1 more worker\(s\) were lost, the client's loss$/);
    expect(lostWorkersText(2, ['service', 'unknown'])).toMatch(/for 1 of them the control hub, the run's own hub, stalled/);
  });

  it('isRunHubOf: the same origin as one of the run\'s endpoints', () => {
    expect(isRunHubOf('http://hub:5000/control', { endpointUrl: 'http://hub:5000/signalrbench' })).toBe(true);
    expect(isRunHubOf('http://hub:5001/control', { endpointUrl: 'http://hub:5000/signalrbench', endpointUrls: ['http://hub:5000/signalrbench', 'http://hub:5001/signalrbench'] })).toBe(true);
    expect(isRunHubOf('http://control:5000/control', { endpointUrl: 'http://hub:5000/signalrbench' })).toBe(false);
    expect(isRunHubOf('not a url', { endpointUrl: 'http://hub:5000/signalrbench' })).toBe(false);
  });

  it('Fleet: quiet since its last word about any agent; a lost control connection loses the threads as relayLost, an agent that left as failed', async () => {
    const time = new FakeTime();
    let closed = false;
    const fleet = new Fleet({ toAgent: () => (closed ? Promise.reject(new Error("Invocation canceled due to the underlying connection being closed.")) : new Promise<void>(() => {})) }, time, time);
    fleet.agentJoined('a1', JSON.stringify({ name: 'agent-a', kind: 'node', threads: 1, client: 'node' }));
    fleet.agentJoined('a2', JSON.stringify({ name: 'agent-b', kind: 'node', threads: 1, client: 'node' }));
    await time.advanceByMs(3_000);
    expect(fleet.quietMs()).toBe(3_000);
    fleet.fromAgent('a1', 'not json');
    expect(fleet.quietMs()).toBe(0);
    // Ports for a run, as prepareRun makes them (its clock round is skipped here).
    const seen: FromWorker[] = [];
    const start = (workerIndex: number): StartMessage => ({ type: 'start', workerIndex, config: { ...DEFAULTS, endpointUrl: 'http://hub:5000/' }, share: { firstIndex: 0, count: 1 }, connectConcurrency: 1, runStartUs: 0, runId: 'testrun1' });
    const prepared = fleet.prepareRun(['a1', 'a2'], 0, 'echo');
    // The rounds of the joins, then the run's, each ping timing out.
    await time.advanceByMs(40_000);
    const run = await prepared;
    if ('error' in run) throw new Error(run.error);
    run.ports.forEach((port, w) => {
      port.onMessage((m) => seen.push(m));
      port.post(start(w));
    });
    fleet.agentLeft('a2');
    expect(seen).toEqual([expect.objectContaining({ type: 'fatal', workerIndex: 1 })]);
    expect(seen[0]).not.toHaveProperty('relayLost');
    // The lead's connection closes: a send fails for that reason, and every agent still here is out of reach.
    closed = true;
    run.ports[0]!.post({ type: 'stop' });
    await time.advanceByMs(10);
    expect(fleet.quietMs()).toBe(Infinity);
    expect(seen[1]).toMatchObject({ type: 'fatal', workerIndex: 0, relayLost: true, message: expect.stringMatching(/agent "agent-a" \(thread 1\) is out of reach: the lead lost its connection to the control hub/) });
  });
});
