import { describe, expect, it } from 'vitest';
import { AgentRelay, type AgentRunReport } from '../../../core/fleet/agent-relay.ts';
import { CLOCK_ROUNDS, Fleet } from '../../../core/fleet/fleet.ts';
import type { WorkerPort } from '../../../core/run-coordinator.ts';
import { DEFAULTS } from '../../../core/run-config.ts';
import { emptyTotals, type FromWorker, type StartMessage, type ToWorker, type WorkerSnapshot } from '../../../workers/protocol.ts';
import { FakeTime } from '../../support/fake-time.ts';

const info = (threads: number, name = 'agent-a') => JSON.stringify({ name, kind: 'node', threads, client: 'node test' });
const start = (workerIndex: number): StartMessage => ({ type: 'start', workerIndex, config: { ...DEFAULTS, endpointUrl: 'http://hub/' }, share: { firstIndex: 0, count: 1 }, connectConcurrency: 1, runStartUs: 0 });
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A dashboard Fleet and one AgentRelay joined by an in-memory control hub; the agent's clock is `offsetUs` ahead. */
function joined(threads: number, offsetUs: number, legUs = 300) {
  const time = new FakeTime();
  const toAgentLog: string[] = [];
  const threadPosts = new Map<number, ToWorker[]>();
  const threadHandlers = new Map<number, (m: FromWorker) => void>();
  const reports: AgentRunReport[] = [];
  let relay!: AgentRelay;
  const fleet = new Fleet(
    {
      toAgent: async (_id, message) => {
        toAgentLog.push(message);
        // Each leg of the trip takes legUs on the dashboard's clock.
        await time.advanceTo(time.nowUs() + legUs);
        relay.handle(message);
      },
    },
    time,
    time,
  );
  relay = new AgentRelay(
    {
      toDashboard: async (message) => {
        await time.advanceTo(time.nowUs() + legUs);
        fleet.fromAgent('agent-1', message);
      },
    },
    { nowUs: () => time.nowUs() + offsetUs },
    (thread): WorkerPort => ({
      post: (m) => threadPosts.set(thread, [...(threadPosts.get(thread) ?? []), m]),
      onMessage: (h) => threadHandlers.set(thread, h),
      terminate: () => threadHandlers.delete(thread),
    }),
    (report) => reports.push(report),
  );
  fleet.agentJoined('agent-1', info(threads));
  return { fleet, relay, time, toAgentLog, threadPosts, threadHandlers, reports };
}

const finalSnapshot = (workerIndex: number, sent: number, received: number): WorkerSnapshot => ({
  type: 'snapshot', workerIndex, phase: 'done', second: 3, final: true, latencyHistogram: '', uncorrectedHistogram: '', connectHistogram: '',
  interval: { sent: 0, received: 0, sentBytes: 0, receivedBytes: 0 }, fates: [],
  totals: { ...emptyTotals(), sent, received, connectionsOpened: 1 },
  connectionsOpen: 1, connectionsConnecting: 0, eventLoopLagMs: 0, maxSendLagMs: 0, errorCounts: { negotiate: 0, transport: 0, handshake: 0, connect: 0, join: 0, send: 0, closed: 0, protocol: 0 }, errorSamples: [],
});

describe('Fleet and AgentRelay', () => {
  it('estimates the agent clock offset within half the best round trip', async () => {
    const { fleet } = joined(1, 3_000_000);
    const estimate = await fleet.measureClock('agent-1');
    expect(estimate).not.toBeNull();
    expect(estimate!.samples).toBeGreaterThanOrEqual(CLOCK_ROUNDS);
    expect(estimate!.uncertaintyUs).toBe(300);
    expect(Math.abs(estimate!.offsetUs - 3_000_000)).toBeLessThanOrEqual(estimate!.uncertaintyUs);
  });

  it('gives one port per agent thread, stamps the clock offset on start, and relays both ways', async () => {
    const { fleet, threadPosts, threadHandlers } = joined(2, 1_000);
    await fleet.measureClock('agent-1');
    const ports = fleet.ports(['agent-1']);
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
    const { fleet, threadHandlers, reports } = joined(2, 0);
    fleet.ports(['agent-1']).forEach((port, i) => {
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
    const { fleet } = joined(2, 0);
    const failures: FromWorker[] = [];
    fleet.ports(['agent-1']).forEach((port, i) => {
      port.onMessage((m) => failures.push(m));
      port.post(start(3 + i));
    });
    fleet.agentLeft('agent-1');
    expect(failures.map((m) => m.type === 'fatal' && [m.workerIndex, m.message.includes('agent "agent-a"') && m.message.includes('count as lost')])).toEqual([[3, true], [4, true]]);
    expect(fleet.agents()[0]?.state).toBe('left');
    expect(fleet.ports(['agent-1'])).toEqual([]);
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
