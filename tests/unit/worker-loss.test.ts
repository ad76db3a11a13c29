/**
 * Whose loss a lost worker is (core/outcome/worker-loss.ts): a worker of the lead's own, or an agent
 * that left, or an agent's thread silent while another thread of its agent reported, is the
 * client's; agents' threads whose reports stopped together with the control hub, or were held by a
 * slow one (other agents still heard), are not: the service's when the control hub is the run's
 * hub and the agents were alive (they answered the closing clock round, or their reports came
 * late), unknown when nothing decides. The verdict, the client's evidence, the limit and the exit
 * reason all read the same sides.
 */
import { describe, expect, it } from 'vitest';
import { validateRunConfig } from '../../core/run-config/config.ts';
import { RunCoordinator, type WorkerPort } from '../../core/execution/coordinator.ts';
import { WORKER_SILENCE_LIMIT_MS } from '../../core/execution/watchdog.ts';
import {
  lostEnginesReason,
  lossSide,
  lossSides,
  lostWorkersText,
  relayedLate,
  relayWentQuiet,
  silenceText,
  type AgentAfterRun,
  type RelayState,
  type WorkerLoss,
} from '../../core/outcome/worker-loss.ts';
import { lostSidesOf, workersOfRun, type RunAgent } from '../../core/result/result.ts';
import { runVerdict } from '../../core/outcome/outcome.ts';
import { runLimit } from '../../core/result/limit.ts';
import { clientLimitReasons } from '../../core/client/own-limits.ts';
import { isRunHubOf } from '../../core/fleet/fleet-run.ts';
import { Fleet } from '../../core/fleet/fleet.ts';
import { DEFAULTS } from '../../core/run-config/config.ts';
import { BenchEngine } from '../../workers/engine/bench-engine.ts';
import type { FromWorker, StartMessage } from '../../core/execution/worker-messages.ts';
import { classifyPlainly, fakeHub } from '../support/fake-connections.ts';
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
    const engine = new BenchEngine({ clock: time, timers: time, connect: hub.factory, classify: classifyPlainly, post: (m) => {
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

  it('one thread silent while the control hub still relays the other thread of its agent: the client\'s', async () => {
    const { coordinator, time, frozen } = relayedRun();
    coordinator.start();
    await time.advanceByMs(3_200);
    frozen.add(1);
    await time.advanceByMs(WORKER_SILENCE_LIMIT_MS + 1_200);
    expect(coordinator.workerLosses).toEqual([{ workerIndex: 1, how: 'silent' }]);
    // Said before the run ends: the side is not known yet.
    expect(coordinator.workerFailures[0]).toMatch(/its thread is stuck, .*whose failure it was is told once the run ends/);
    await time.advanceByMs(40_000);
    const workers = workersOfRun(coordinator, [agentOf({ offsetUs: 0, uncertaintyUs: 100, measuredAtUs: 1 })]);
    expect(lostSidesOf(workers)).toEqual(['client']);
    const verdict = runVerdict({ outcome: coordinator.outcome, fates: coordinator.aggregator.settledFates(true), durationSec: 30, p99Us: 1_000, lostWorkers: 1, lostSides: lostSidesOf(workers) });
    expect(verdict.sentence).toMatch(/^Fail: 1 worker\(s\) were lost mid-run, the client's loss/);
    expect(clientLimitReasons({ connections: 4, connectionsFailed: 0, workers, workerFailures: coordinator.workerFailures })[0]).toMatch(/^lost 1 of its 2 engines mid-run/);
    expect(lostEnginesReason(1, workers)).toBe('1 of 2 engine(s) failed (see above): a run that lost part of its load is not a pass.');
  });
});

/**
 * Three workers as two agents' threads: agent A (threads 0 and 1) behind a control hub that, from
 * `slowFromMs` on, relays A's reports `delayMs` late and in order (slow, not stopped), while agent
 * B's thread (worker 2) is relayed at once, so the hub is never quiet.
 */
function slowRelayRun(delayMs: number, slowThreads: readonly number[] = [0, 1]) {
  const result = validateRunConfig({ endpointUrl: 'http://hub:5000/signalrbench', connections: 6, workers: 3, sendIntervalMs: 100, durationSec: 30 });
  if (!result.ok) throw new Error(result.errors.join());
  const time = new FakeTime();
  const hub = fakeHub(time, { deliveryDelayMs: 2 });
  const handlers: ((message: FromWorker) => void)[] = [];
  let slow = false;
  let heardUs = 0;
  const late: FromWorker[] = [];
  const relay = (): RelayState => ({ url: CONTROL, isRunHub: true, quietMs: (time.nowUs() - heardUs) / 1_000 });
  const deliver = (index: number, m: FromWorker) => {
    heardUs = time.nowUs();
    handlers[index]?.(m);
  };
  const ports: WorkerPort[] = [0, 1, 2].map((index) => {
    const engine = new BenchEngine({ clock: time, timers: time, connect: hub.factory, classify: classifyPlainly, post: (m) => {
      if (!slow || !slowThreads.includes(index)) return deliver(index, m);
      late.push(m);
      time.setTimeout(() => deliver(index, m), delayMs);
    } });
    return { post: (m) => engine.handle(m), onMessage: (h) => (handlers[index] = h), terminate: () => {}, relay };
  });
  const coordinator = new RunCoordinator(result.config, ports, time, time);
  return { coordinator, time, late, slowDown: () => (slow = true) };
}

const answeredRound = { offsetUs: 0, uncertaintyUs: 100, measuredAtUs: 1 };
const agentsOf = (clockEnd: RunAgent['clockEnd']): RunAgent[] => [
  { ...agentOf(clockEnd), firstWorkerIndex: 0, threads: 2 },
  { ...agentOf(answeredRound), name: 'agent-b', firstWorkerIndex: 2, threads: 1 },
];

describe('a slow control hub: agents\' reports relayed late, not stopped', () => {
  it('its agent\'s threads are not the client\'s loss: the hub was never quiet, other agents were still heard', async () => {
    const { coordinator, time, late, slowDown } = slowRelayRun(WORKER_SILENCE_LIMIT_MS + 3_000);
    coordinator.start();
    await time.advanceByMs(3_200);
    expect(coordinator.phase).toBe('running');
    slowDown();
    await time.advanceByMs(WORKER_SILENCE_LIMIT_MS + 1_200);
    // Agent B's reports kept coming: not quiet, so the losses are "silent", the hub not recorded.
    expect(coordinator.workerLosses).toEqual([{ workerIndex: 0, how: 'silent' }, { workerIndex: 1, how: 'silent' }]);
    // Its threads were reporting all along: the hub held reports taken before they were given up.
    expect(late.some((m) => m.type === 'snapshot' && m.second <= 6)).toBe(true);
    expect(coordinator.workerFailures[0]).toMatch(/^Worker 1 sent no report for 10 s .*whose failure it was is told once the run ends/);
    expect(coordinator.workerFailures.join()).not.toMatch(/client's failure/);
    await time.advanceByMs(40_000);
    expect(coordinator.phase).toBe('done');

    // The agent answered the closing clock round, or not: nothing names the client. With the hub
    // not recorded for a silent loss, the run's own hub cannot be named either: unknown.
    for (const clockEnd of [answeredRound, null, undefined]) {
      const workers = workersOfRun(coordinator, agentsOf(clockEnd));
      expect(lostSidesOf(workers)).toEqual(['unknown', 'unknown']);
      const verdict = runVerdict({ outcome: coordinator.outcome, fates: coordinator.aggregator.settledFates(true), durationSec: 30, p99Us: 1_000, lostWorkers: 2, lostSides: lostSidesOf(workers) });
      expect(verdict.sentence).toMatch(/2 agent thread\(s\) were given up for silence, and whether the agents or the hub \(stopped, or slow to relay\) failed cannot be told from the lead, so the side is unknown, not the client's/);
      expect(verdict.sentence).not.toMatch(/the client's loss/);
      const clientLimits = clientLimitReasons({ connections: 6, connectionsFailed: 0, workers, workerFailures: coordinator.workerFailures });
      expect(clientLimits).toEqual([]);
      expect(runLimit({ points: [], missedSlots: 0, sent: 100, clientLimits, workers }).side).toBe('unknown');
    }
  });

  it('one thread held while the other thread of its agent is relayed in time: that thread was stuck, the client\'s', async () => {
    // A hub cannot hold one thread's reports and pass the next of the same agent: this is a stuck thread.
    const { coordinator, time, slowDown } = slowRelayRun(WORKER_SILENCE_LIMIT_MS + 3_000, [1]);
    coordinator.start();
    await time.advanceByMs(3_200);
    slowDown();
    await time.advanceByMs(50_000);
    expect(coordinator.phase).toBe('done');
    expect(coordinator.workerLosses).toEqual([{ workerIndex: 1, how: 'silent' }]);
    expect(lostSidesOf(workersOfRun(coordinator, agentsOf(answeredRound)))).toEqual(['client']);
  });
});

describe('the rule for an agent\'s thread given up for silence while the hub relayed others', () => {
  const silent: WorkerLoss = { workerIndex: 1, how: 'silent' };
  const runHub = { url: CONTROL, isRunHub: true };
  const ownHub = { url: 'http://control:6000/control', isRunHub: false };
  // Named cases: the loss, what is known of its agent after the run, the side.
  const cases: [string, WorkerLoss, AgentAfterRun | null, ReturnType<typeof lossSide>][] = [
    ['a worker of the lead\'s own', silent, null, 'client'],
    ['its agent said it left', { workerIndex: 1, how: 'failed' }, { answeredAfter: null, siblingReported: false }, 'client'],
    ['another thread of its agent reported to the end', silent, { answeredAfter: true, siblingReported: true }, 'client'],
    ['... even on the run\'s hub', { ...silent, relay: runHub }, { answeredAfter: true, siblingReported: true }, 'client'],
    ['its agent answered the closing round, the run\'s hub recorded', { ...silent, relay: runHub }, { answeredAfter: true, siblingReported: false }, 'service'],
    ['its agent answered, a control hub of its own', { ...silent, relay: ownHub }, { answeredAfter: true, siblingReported: false }, 'unknown'],
    ['its agent answered, the hub not recorded', silent, { answeredAfter: true, siblingReported: false }, 'unknown'],
    ['no answer to the closing round, nothing else', { ...silent, relay: runHub }, { answeredAfter: false, siblingReported: false }, 'unknown'],
    ['the closing round not taken', silent, { answeredAfter: null, siblingReported: false }, 'unknown'],
    ['its reports taken in its silence came late, the run\'s hub', { ...silent, relay: runHub, relayedLate: true }, { answeredAfter: false, siblingReported: false }, 'service'],
    ['... the late report outweighs a sibling heard', { ...silent, relay: runHub, relayedLate: true }, { answeredAfter: null, siblingReported: true }, 'service'],
    ['... with the hub not recorded', { ...silent, relayedLate: true }, { answeredAfter: false, siblingReported: false }, 'unknown'],
    ['the hub went quiet with it, a sibling heard after', { workerIndex: 1, how: 'relayQuiet', relay: runHub }, { answeredAfter: true, siblingReported: true }, 'service'],
  ];
  it.each(cases)('%s', (_name, loss, agent, side) => {
    expect(lossSide(loss, agent)).toBe(side);
  });

  it('lossSides finds each thread\'s agent, its closing round and whether another of its threads was lost', () => {
    const agents = [{ firstWorkerIndex: 0, threads: 2, clockEnd: answeredRound }, { firstWorkerIndex: 2, threads: 2, clockEnd: null }, { firstWorkerIndex: 4, threads: 1 }];
    const runHubSilent = (workerIndex: number): WorkerLoss => ({ workerIndex, how: 'silent', relay: runHub });
    // Agent 1: both threads lost, it answered: the hub's. Agent 2: thread 3 lost, thread 4 reported: stuck.
    // Agent 3: no closing round taken: unknown. Worker 6 belongs to no agent: the lead's own.
    const sides = lossSides([runHubSilent(0), runHubSilent(1), runHubSilent(2), runHubSilent(4), { workerIndex: 5, how: 'silent' }], agents);
    expect([...sides]).toEqual([[0, 'service'], [1, 'service'], [2, 'client'], [4, 'unknown'], [5, 'client']]);
  });

  it('relayedLate: a report taken at least half the silence before the give-up that came after it', () => {
    const runStartUs = 1_000_000_000;
    const givenUp = { atUs: runStartUs + 14_000_000, silentMs: 10_000 };
    // Taken at 4 s (on time) or 8.5 s (its tick 500 ms late): held at least 5 s by the relay.
    expect(relayedLate({ second: 4, eventLoopLagMs: 0 }, runStartUs, givenUp)).toBe(true);
    expect(relayedLate({ second: 8, eventLoopLagMs: 500 }, runStartUs, givenUp)).toBe(true);
    // Taken at 9.5 s, or at 13 s after a stall of its own thread: a thread that came back, not a relay that held it.
    expect(relayedLate({ second: 9, eventLoopLagMs: 500 }, runStartUs, givenUp)).toBe(false);
    expect(relayedLate({ second: 4, eventLoopLagMs: 9_000 }, runStartUs, givenUp)).toBe(false);
  });

  it('the coordinator\'s line names the hub when it is recorded, and leaves the side to the run\'s end', () => {
    expect(silenceText(1, 10_000, { workerIndex: 1, how: 'silent', relay: runHub })).toBe(
      'Worker 2 sent no report for 10 s (it reports every second) and was given up for lost: its thread is stuck, or the control hub at http://hub:5000/control, the run\'s own hub, ' +
      'holds its agent\'s reports while still relaying others\'; whose failure it was is told once the run ends. Its figures up to then are kept.');
    expect(silenceText(1, 10_000, { workerIndex: 1, how: 'silent' })).not.toMatch(/client's failure/);
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
    const answered: AgentAfterRun = { answeredAfter: true, siblingReported: false };
    const silentOf = (answeredAfter: boolean | null): AgentAfterRun => ({ answeredAfter, siblingReported: false });
    expect(lossSide({ workerIndex: 0, how: 'failed' }, answered)).toBe('client');
    expect(lossSide({ workerIndex: 0, how: 'silent' }, null)).toBe('client');
    expect(lossSide(quiet, null)).toBe('unknown');
    expect(lossSide(quiet, silentOf(false))).toBe('unknown');
    expect(lossSide(quiet, silentOf(true))).toBe('service');
    // A control hub of its own that stalled is not the run's service either.
    expect(lossSide(elsewhere, silentOf(true))).toBe('unknown');
    // Runs kept before sides: every lost worker the client's.
    expect(lostWorkersText(2, undefined)).toBe("2 worker(s) were lost mid-run, the client's loss");
    expect(lostWorkersText(3, ['unknown', 'unknown', 'client'])).toMatch(/2 agent thread\(s\) were given up for silence.*; 1 more worker\(s\) were lost, the client's loss$/);
    expect(lostWorkersText(2, ['service', 'unknown'])).toMatch(/for 1 of them the control hub, the run's own hub, stalled/);
    expect(lostWorkersText(2, ['service', 'service'])).toMatch(/the agents were alive \(they answered the closing clock round, or their reports came late\): the service stalled, not the client$/);
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
