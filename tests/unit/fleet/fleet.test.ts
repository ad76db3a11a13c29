import { describe, expect, it } from 'vitest';
import { AgentRelay, type AgentRunReport } from '../../../core/fleet/agent-relay.ts';
import { CLOCK_PING_TIMEOUT_MS, CLOCK_ROUND_TRIPS, Fleet, unknownClockReason, type RunAgents } from '../../../core/fleet/fleet.ts';
import type { WorkerPort } from '../../../core/execution/coordinator.ts';
import { type ScenarioName } from '../../../core/plan/scenario-roles.ts';
import { DEFAULTS } from '../../../core/run-config/config.ts';
import { emptyTotals, type FromWorker, type StartMessage, type ToWorker, type WorkerSnapshot } from '../../../core/execution/worker-messages.ts';
import { FakeTime } from '../../support/fake-time.ts';

const info = (threads: number, name: string) => JSON.stringify({ name, kind: 'node', threads, client: 'node test' });
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const start = (workerIndex: number): StartMessage => ({ type: 'start', workerIndex, config: { ...DEFAULTS, endpointUrl: 'http://hub/' }, share: { firstIndex: 0, count: 1 }, connectConcurrency: 1, runStartUs: 0, runId: 'testrun1' });

/** How the in-memory control hub and the agent behave; tests change it between rounds. */
interface Link {
  /** The agent's clock minus the dashboard's, µs. */
  offsetUs: number;
  /** Each leg of a trip, on the dashboard's clock, µs. */
  legUs: number;
  /** False: the agent does not answer clock pings (its other messages still pass). */
  answersPings: boolean;
}

/** A dashboard Fleet and one AgentRelay joined by an in-memory control hub, after the join's clock round. */
async function joined(threads: number, offsetUs: number, legUs = 300, name = 'agent-a') {
  const time = new FakeTime();
  const link: Link = { offsetUs, legUs, answersPings: true };
  const toAgentLog: string[] = [];
  const threadPosts = new Map<number, ToWorker[]>();
  const threadHandlers = new Map<number, (m: FromWorker) => void>();
  const reports: AgentRunReport[] = [];
  let relay!: AgentRelay;
  const fleet = new Fleet(
    {
      toAgent: async (_id, message) => {
        toAgentLog.push(message);
        await time.advanceTo(time.nowUs() + link.legUs);
        if (!link.answersPings && message.includes('"clock-ping"')) return;
        relay.handle(message);
      },
    },
    time,
    time,
  );
  relay = new AgentRelay(
    {
      toDashboard: async (message) => {
        await time.advanceTo(time.nowUs() + link.legUs);
        fleet.fromAgent('agent-1', message);
      },
    },
    { nowUs: () => time.nowUs() + link.offsetUs },
    (thread): WorkerPort => ({
      post: (m) => threadPosts.set(thread, [...(threadPosts.get(thread) ?? []), m]),
      onMessage: (h) => threadHandlers.set(thread, h),
      terminate: () => threadHandlers.delete(thread),
    }),
    (report) => reports.push(report),
  );
  fleet.agentJoined('agent-1', info(threads, name));
  await until(time, () => fleet.agents()[0]?.measuring === false);
  return { fleet, relay, time, link, toAgentLog, threadPosts, threadHandlers, reports };
}

/** Lets answers in flight arrive (the in-memory hub needs no timer), then fake time pass, 100 ms
 *  at a time, until `done`: time-outs fire on the way. */
async function until(time: FakeTime, done: () => boolean): Promise<void> {
  for (let step = 0; ; step++) {
    await settle();
    if (done()) return;
    if (step > 1_000) throw new Error('still not done after 100 s of fake time');
    await time.advanceByMs(100);
  }
}

/** Prepares a run, letting fake time pass until the clock round has ended. */
async function prepared(fleet: Fleet, time: FakeTime, scenario: ScenarioName = 'echo', firstWorkerIndex = 0): Promise<RunAgents | { error: string }> {
  let result: RunAgents | { error: string } | undefined;
  void fleet.prepareRun(['agent-1'], firstWorkerIndex, scenario).then((r) => (result = r));
  await until(time, () => result !== undefined);
  return result!;
}

function portsOf(result: RunAgents | { error: string }): WorkerPort[] {
  if ('error' in result) throw new Error(`the run was refused: ${result.error}`);
  return result.ports;
}

const finalSnapshot = (workerIndex: number, sent: number, received: number): WorkerSnapshot => ({
  type: 'snapshot', workerIndex, phase: 'done', second: 3, final: true, latencyHistogram: [], uncorrectedHistogram: [], connectHistogram: [],
  interval: { sent: 0, received: 0, sentBytes: 0, receivedBytes: 0 }, fates: [],
  totals: { ...emptyTotals(), sent, received, connectionsOpened: 1 },
  connectionsOpen: 1, connectionsConnecting: 0, eventLoopLagMs: 0, maxSendLagMs: 0, errorCounts: { negotiate: 0, transport: 0, handshake: 0, connect: 0, join: 0, send: 0, closed: 0, protocol: 0 }, errorSamples: [],
});

describe('Fleet and AgentRelay', () => {
  it('estimates the agent clock offset within half the best round trip', async () => {
    const { fleet } = await joined(1, 3_000_000);
    const estimate = await fleet.measureClock('agent-1');
    expect(estimate).not.toBeNull();
    expect(estimate!.samples).toBe(CLOCK_ROUND_TRIPS);
    expect(estimate!.uncertaintyUs).toBe(300);
    expect(Math.abs(estimate!.offsetUs - 3_000_000)).toBeLessThanOrEqual(estimate!.uncertaintyUs);
  });

  it('gives one port per agent thread, stamps the run\'s clock offset on start, and relays both ways', async () => {
    const { fleet, time, threadPosts, threadHandlers } = await joined(2, 1_000);
    const ports = portsOf(await prepared(fleet, time, 'echo', 5));
    expect(ports).toHaveLength(2);
    const fromThreads: FromWorker[] = [];
    ports.forEach((port, i) => {
      port.onMessage((m) => fromThreads.push(m));
      port.post(start(5 + i));
    });
    await settle();
    const started = threadPosts.get(1)?.[0] as StartMessage;
    expect(started.workerIndex).toBe(6);
    expect(Math.abs(started.clockOffsetUs! - 1_000)).toBeLessThanOrEqual(300);
    threadHandlers.get(1)!({ type: 'ready', workerIndex: 6, connectionsOpen: 1, connectionsFailed: 0, connectionIds: ['c'], groupMembers: [], refusal: null });
    await settle();
    expect(fromThreads).toEqual([expect.objectContaining({ type: 'ready', workerIndex: 6 })]);
  });

  it('the agent reports its own totals once every thread has finished', async () => {
    const { fleet, time, threadHandlers, reports } = await joined(2, 0);
    portsOf(await prepared(fleet, time)).forEach((port, i) => {
      port.onMessage(() => {});
      port.post(start(i));
    });
    await settle();
    threadHandlers.get(0)!(finalSnapshot(0, 10, 9));
    expect(reports).toHaveLength(0);
    threadHandlers.get(1)!(finalSnapshot(1, 20, 20));
    expect(reports).toEqual([expect.objectContaining({ threads: 2, failedThreads: 0, totals: expect.objectContaining({ sent: 30, received: 29, connectionsOpened: 2 }) })]);
  });

  it('an agent that leaves mid-run is reported to the run as a lost worker for each of its threads', async () => {
    const { fleet, time } = await joined(2, 0);
    const failures: FromWorker[] = [];
    portsOf(await prepared(fleet, time)).forEach((port, i) => {
      port.onMessage((m) => failures.push(m));
      port.post(start(3 + i));
    });
    fleet.agentLeft('agent-1');
    expect(failures.map((m) => m.type === 'fatal' && [m.workerIndex, m.message.includes('agent "agent-a"') && m.message.includes('count as lost')])).toEqual([[3, true], [4, true]]);
    expect(fleet.agents()[0]?.state).toBe('left');
    expect(await prepared(fleet, time)).toEqual({ ports: [], agents: [] });
  });

  it('a thread that has reported its end is not reported lost when its agent leaves afterwards (--once)', async () => {
    const { fleet, time, threadHandlers } = await joined(2, 0);
    const fromThreads: FromWorker[] = [];
    portsOf(await prepared(fleet, time)).forEach((port, i) => {
      port.onMessage((m) => fromThreads.push(m));
      port.post(start(i));
    });
    await settle();
    threadHandlers.get(0)!(finalSnapshot(0, 10, 10));
    await settle();
    fleet.agentLeft('agent-1');
    // Thread 1 had not finished: it alone is lost.
    expect(fromThreads.map((m) => [m.type, m.workerIndex])).toEqual([['snapshot', 0], ['fatal', 1]]);
  });

  it('refuses an agent whose introduction is wrong, and says why', () => {
    const time = new FakeTime();
    const fleet = new Fleet({ toAgent: async () => {} }, time, time);
    fleet.agentJoined('x', '{"name":"a","kind":"node","threads":0}');
    fleet.agentJoined('y', 'not json');
    expect(fleet.agents()).toEqual([]);
    expect(fleet.refusals).toEqual([expect.stringContaining('thread count "0"'), expect.stringContaining('not JSON')]);
  });
});

describe('clock rounds: each estimate from its own round only', () => {
  it('an agent whose clock jumped 20 ms between rounds reports the new offset, not the old best sample', async () => {
    // The join's round had short trips (± 300 us); the next round's trips are longer, so the
    // old rule (best sample of all rounds) would still report the old offset.
    const { fleet, link } = await joined(1, 5_000, 300);
    expect(Math.abs(fleet.agents()[0]!.clock!.offsetUs - 5_000)).toBeLessThanOrEqual(300);
    link.offsetUs = 25_000;
    link.legUs = 1_000;
    const estimate = (await fleet.measureClock('agent-1'))!;
    expect(estimate.uncertaintyUs).toBe(1_000);
    expect(Math.abs(estimate.offsetUs - 25_000)).toBeLessThanOrEqual(estimate.uncertaintyUs);
    expect(estimate.samples).toBe(CLOCK_ROUND_TRIPS);
    expect(fleet.agents()[0]!.clock).toEqual(estimate);
  });

  it('a round that gets no answer leaves the clock unknown (null), not the previous estimate and not 0', async () => {
    const { fleet, time, link } = await joined(1, 40_000);
    expect(fleet.agents()[0]!.clock).not.toBeNull();
    link.answersPings = false;
    let estimate: unknown = 'pending';
    void fleet.measureClock('agent-1').then((e) => (estimate = e));
    await until(time, () => estimate !== 'pending');
    expect(estimate).toBeNull();
    expect(fleet.agents()[0]).toEqual(expect.objectContaining({ clock: null, measuring: false, state: 'ready' }));
  });

  it('an answer that comes after its time-out belongs to no round', async () => {
    // Each leg takes longer than the time-out allows for the whole trip.
    const { fleet } = await joined(1, 7_000, (CLOCK_PING_TIMEOUT_MS * 1_000) / 2 + 1);
    expect(fleet.agents()[0]!.clock).toBeNull();
  });

  it('a round asked for while another is under way begins after it, never in parallel', async () => {
    const { fleet, time, toAgentLog } = await joined(1, 0);
    const pingsBefore = toAgentLog.length;
    const askedUs = time.nowUs();
    const [first, second] = await Promise.all([fleet.measureClock('agent-1'), fleet.measureClock('agent-1')]);
    // Two rounds of their own: twice the round trips, and the second's best answer after the first's end.
    expect(toAgentLog.length - pingsBefore).toBe(2 * CLOCK_ROUND_TRIPS);
    expect(first!.measuredAtUs).toBeGreaterThan(askedUs);
    expect(second!.measuredAtUs).toBeGreaterThan(first!.measuredAtUs);
    expect(second!.samples).toBe(CLOCK_ROUND_TRIPS);
  });
});

describe('a run\'s agents and their clocks', () => {
  it('a run takes a fresh round at its start and records its offset, bound and time', async () => {
    const { fleet, time, link } = await joined(2, 2_000, 300, 'rack-2');
    // Drift after the join: the run must carry what the agent's clock says now.
    link.offsetUs = 9_000;
    const requestedUs = time.nowUs();
    const result = await prepared(fleet, time, 'broadcast', 3);
    if ('error' in result) throw new Error(result.error);
    const [agent] = result.agents;
    expect(result.agents).toHaveLength(1);
    expect(agent).toEqual(expect.objectContaining({ name: 'rack-2', threads: 2, firstWorkerIndex: 3, clockUncertaintyUs: 300, lost: false }));
    expect(Math.abs(agent!.clockOffsetUs! - 9_000)).toBeLessThanOrEqual(300);
    expect(agent!.clockMeasuredAtUs).toBeGreaterThan(requestedUs);
  });

  it.each<{ name: string; scenario: ScenarioName }>([
    { name: 'broadcast', scenario: 'broadcast' },
    { name: 'small groups', scenario: 'smallGroup' },
    { name: 'big groups', scenario: 'bigGroup' },
    { name: 'send to connection', scenario: 'sendToConnection' },
  ])('an agent whose clock is unknown is refused from $name, named, with what to do', async ({ scenario }) => {
    const { fleet, time, link, threadPosts } = await joined(1, 0, 300, 'rack-2');
    link.answersPings = false;
    const result = await prepared(fleet, time, scenario);
    expect(result).toEqual({ error: expect.stringMatching(/^Agent "rack-2" did not answer the clock round trips within 16 s: its clock is unknown, so ".+" latencies across agents would be wrong\. Stop that agent .*or run echo/) });
    expect(threadPosts.size).toBe(0);
  });

  it('an agent whose clock is unknown takes part in echo on its own clock: no offset sent, null recorded', async () => {
    const { fleet, time, link, threadPosts } = await joined(1, 50_000, 300, 'rack-2');
    link.answersPings = false;
    const result = await prepared(fleet, time, 'echo');
    if ('error' in result) throw new Error(result.error);
    expect(result.agents).toEqual([expect.objectContaining({ name: 'rack-2', clockOffsetUs: null, clockUncertaintyUs: null, clockMeasuredAtUs: null })]);
    result.ports[0]!.onMessage(() => {});
    result.ports[0]!.post(start(0));
    await settle();
    const started = threadPosts.get(0)?.[0] as StartMessage;
    expect(started.type).toBe('start');
    expect('clockOffsetUs' in started).toBe(false);
  });

  it('names every agent whose clock is unknown at once', () => {
    expect(unknownClockReason(['rack-2', 'rack-3', 'lab'], 'smallGroup')).toMatch(
      /^Agents "rack-2", "rack-3" and "lab" did not answer the clock round trips within 16 s: their clocks are unknown, so "Send to small groups" latencies across agents would be wrong\. Stop those agents/,
    );
  });
});
