/**
 * A fleet run planned in one place for both leads (core/fleet/fleet-run.ts): which ports, in which
 * order, with which capacities and lead time, and when the run is refused before it starts.
 */
import { describe, expect, it } from 'vitest';
import { AGENT_GO_LEAD_MS, ENGINE_CONNECTIONS, fleetRunPorts, planFleetRun, type RemoteWorkers } from '../../../core/fleet/fleet-run.ts';
import type { Fleet, RunAgents } from '../../../core/fleet/fleet.ts';
import { DEFAULTS, type RunConfig } from '../../../core/run-config/config.ts';
import { GO_LEAD_MS, type WorkerPort } from '../../../core/execution/coordinator.ts';
import type { RunAgent } from '../../../core/result/result.ts';

const config = (overrides: Partial<RunConfig> = {}): RunConfig => ({ ...DEFAULTS, endpointUrl: 'http://hub:5180/signalrbench', workers: 2, ...overrides });

interface FakePort extends WorkerPort {
  terminated: boolean;
}
const port = (): FakePort => {
  const p: FakePort = { terminated: false, post: () => {}, onMessage: () => {}, terminate: () => void (p.terminated = true) };
  return p;
};
const runAgent = (name: string, threads: number, firstWorkerIndex: number): RunAgent => ({ name, kind: 'node', client: 'node test', threads, firstWorkerIndex, clockOffsetUs: 0, clockUncertaintyUs: 100, clockMeasuredAtUs: 1, lost: false });

/** A Fleet whose clock round gives every listed agent's threads a port (or `answer`, when given). */
function fakeFleet(answer?: (ids: readonly string[], first: number) => RunAgents | { error: string }) {
  const calls: { ids: readonly string[]; firstWorkerIndex: number }[] = [];
  const fleet = {
    prepareRun: async (ids: readonly string[], firstWorkerIndex: number): Promise<RunAgents | { error: string }> => {
      calls.push({ ids, firstWorkerIndex });
      if (answer) return answer(ids, firstWorkerIndex);
      return { ports: ids.flatMap(() => [port(), port()]), agents: ids.map((id, i) => runAgent(id, 2, firstWorkerIndex + 2 * i)) };
    },
    closeRun: async (agents: readonly RunAgent[]) => agents.map((a) => ({ ...a, clockEnd: null })),
  } as unknown as Fleet;
  return { fleet, calls };
}
const nodeAgent = (id: string) => ({ id, info: { kind: 'node' as const, threads: 2 } });

describe('planFleetRun', () => {
  it('a headless lead that runs nothing itself: the agents\' threads from index 0, each holding what one engine was measured to hold', async () => {
    const { fleet, calls } = fakeFleet();
    const planned = await planFleetRun(fleet, [nodeAgent('a'), nodeAgent('b')], config({ connections: 50_000 }), { includeLocal: false, localIsBrowser: false, controlUrl: 'http://hub/control' });
    if ('error' in planned) throw new Error(planned.error);
    expect(calls).toEqual([{ ids: ['a', 'b'], firstWorkerIndex: 0 }]);
    expect(planned.remote.ports).toHaveLength(4);
    expect(ENGINE_CONNECTIONS).toBe(12_500);
    expect(planned.remote.capacities).toEqual([12_500, 12_500, 12_500, 12_500]);
    expect(planned.remote.localCapacities).toEqual([]);
    expect(planned.remote.includeLocal).toBe(false);
    expect((await planned.remote.close!(planned.remote.agents)).every((a) => a.clockEnd === null)).toBe(true);
  });

  it('with the lead\'s own workers: the agents\' indices start after them, and the ports put them first', async () => {
    const { fleet, calls } = fakeFleet();
    const planned = await planFleetRun(fleet, [nodeAgent('a')], config({ workers: 3 }), { includeLocal: true, localIsBrowser: false, controlUrl: 'http://hub/control' });
    if ('error' in planned) throw new Error(planned.error);
    expect(calls[0]!.firstWorkerIndex).toBe(3);
    expect(planned.remote.localCapacities).toEqual([12_500, 12_500, 12_500]);
    const local = [port(), port(), port()];
    const run = fleetRunPorts(local, planned.remote);
    expect(run.ports).toEqual([...local, ...planned.remote.ports]);
    expect(run.capacities).toEqual(new Array(5).fill(12_500));
    expect(run.goLeadMs).toBe(AGENT_GO_LEAD_MS);
  });

  it('a browser lead shares one browser\'s 255 WebSockets among its workers; past that it is refused before any round trip', async () => {
    const { fleet, calls } = fakeFleet();
    const held = await planFleetRun(fleet, [nodeAgent('a')], config({ connections: 600, workers: 2 }), { includeLocal: true, localIsBrowser: true, controlUrl: 'http://hub/control' });
    if ('error' in held) throw new Error(held.error);
    expect(held.remote.localCapacities).toEqual([128, 127]);
    const browserOnly = [{ id: 'b', info: { kind: 'browser' as const, threads: 1 } }];
    const refused = await planFleetRun(fleet, browserOnly, config({ connections: 600 }), { includeLocal: true, localIsBrowser: true, controlUrl: 'http://hub/control' });
    expect(refused).toEqual({ error: expect.stringMatching(/can hold 510 WebSockets connections .* not 600/) });
    expect(calls).toHaveLength(1);
  });

  it("a REST scenario with a browser agent is refused before any round trip: its engines hold the connection string's AccessKey; headless agents run it", async () => {
    const { fleet, calls } = fakeFleet();
    const browser = { id: 'b', info: { kind: 'browser' as const, threads: 1 } };
    const refused = await planFleetRun(fleet, [nodeAgent('a'), browser], config({ scenario: 'restBroadcast' }), { includeLocal: false, localIsBrowser: false, controlUrl: 'http://hub/control' });
    expect(refused).toEqual({ error: expect.stringMatching(/^A browser agent is in the session, but a REST scenario's engines sign with the Azure SignalR connection string's AccessKey/) });
    expect(calls).toHaveLength(0);
    const held = await planFleetRun(fleet, [nodeAgent('a')], config({ scenario: 'restSendToUser' }), { includeLocal: false, localIsBrowser: false, controlUrl: 'http://hub/control' });
    expect('error' in held).toBe(false);
  });

  it('Unit1000: 1,000,000 connections over 133 two-thread agents fit; over 16 they are refused before any round trip, with how many engines more', async () => {
    const agents = (n: number) => Array.from({ length: n }, (_, i) => nodeAgent(`a${i}`));
    const { fleet, calls } = fakeFleet();
    const held = await planFleetRun(fleet, agents(133), config({ connections: 1_000_000 }), { includeLocal: false, localIsBrowser: false, controlUrl: 'http://hub/control' });
    if ('error' in held) throw new Error(held.error);
    expect(held.remote.ports).toHaveLength(266);
    const refused = await planFleetRun(fleet, agents(16), config({ connections: 1_000_000 }), { includeLocal: false, localIsBrowser: false, controlUrl: 'http://hub/control' });
    expect(refused).toEqual({ error: "The fleet's 32 headless engine(s) can hold 400,000 WebSockets connections (an engine of a headless runner 12,500, the most one was measured to hold), not 1,000,000: 48 more engine(s) would. Start more agents, or agents with more --workers, or lower the connections." });
    expect(calls).toHaveLength(1);
  });

  it('passes on the clock round\'s refusal, and refuses a run left with no worker at all', async () => {
    const unknown = fakeFleet(() => ({ error: 'Agent "a" did not answer' }));
    expect(await planFleetRun(unknown.fleet, [nodeAgent('a')], config(), { includeLocal: false, localIsBrowser: false, controlUrl: 'http://hub/control' })).toEqual({ error: 'Agent "a" did not answer' });
    const allLeft = fakeFleet(() => ({ ports: [], agents: [] }));
    const refused = await planFleetRun(allLeft.fleet, [nodeAgent('a')], config(), { includeLocal: false, localIsBrowser: false, controlUrl: 'http://hub/control' });
    expect(refused).toEqual({ error: expect.stringMatching(/Every agent left .* nothing would run/) });
  });

  it('a browser agent that left during the round no longer counts towards the capacity: its ports are ended', async () => {
    const kept = [port(), port()];
    const shrunk = fakeFleet((_ids, first) => ({ ports: kept, agents: [{ ...runAgent('a', 2, first), kind: 'browser' }] }));
    const agents = [{ id: 'a', info: { kind: 'browser' as const, threads: 2 } }, nodeAgent('b')];
    const refused = await planFleetRun(shrunk.fleet, agents, config({ connections: 300 }), { includeLocal: false, localIsBrowser: true, controlUrl: 'http://hub/control' });
    expect('error' in refused).toBe(true);
    expect(kept.every((p) => p.terminated)).toBe(true);
  });
});

describe('fleetRunPorts', () => {
  it('without agents: the lead\'s own workers, the ordinary lead time, an even split', () => {
    const local = [port()];
    expect(fleetRunPorts(local, undefined)).toEqual({ ports: local, goLeadMs: GO_LEAD_MS });
  });

  it('agents with no thread in the run keep the ordinary lead time', () => {
    const remote: RemoteWorkers = { ports: [], agents: [], capacities: [], localCapacities: [null], includeLocal: true };
    expect(fleetRunPorts([port()], remote).goLeadMs).toBe(GO_LEAD_MS);
  });
});
