/**
 * Agents of a session against a protected hub: the dashboard's token reaches a headless agent in
 * its threads' start messages over the control hub (which stays open), the agent's connections
 * use it, and the agent prints nothing of it. The "dashboard" is the page's Fleet and
 * RunCoordinator in Node; the hub-sample runs with --RequireAuth true.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock, systemTimers } from '../../core/clocks/clock.ts';
import { attachFleet, Fleet } from '../../core/fleet/fleet.ts';
import { validateRunConfig } from '../../core/run/config.ts';
import { RunCoordinator } from '../../core/run/coordinator.ts';
import { runResult } from '../../core/run/document.ts';
import { openControlConnection, type ControlConnection } from '../../signalr/control-connection.ts';
import { startAgent, type RunningAgent } from '../support/agents.ts';
import { startHub, type RunningHub } from '../support/hub-process.ts';

let hub: RunningHub;
let control: ControlConnection | null = null;
let agent: RunningAgent | null = null;

beforeAll(async () => {
  hub = await startHub({ extraArgs: ['--RequireAuth', 'true', '--EnableTestHubs', 'true'] });
}, 60_000);

afterAll(async () => {
  agent?.child.kill('SIGKILL');
  await control?.stop();
  await hub?.stop();
});

describe('an agent of a session against a hub that requires a token', () => {
  it('receives the token with its start messages, opens every connection with it, and never prints it', async () => {
    const token = await (await fetch(`${hub.httpUrl}/testhubs/token?user=agent-user`, { method: 'POST' })).text();
    control = await openControlConnection(`${hub.httpUrl}/control`);
    const fleet = new Fleet({ toAgent: (id, message) => control!.invoke('ToAgent', id, message) }, systemClock, systemTimers);
    attachFleet(control, fleet);
    const session = await control.invoke<string>('OpenSession');
    agent = await startAgent(`${hub.httpUrl}/control`, session, ['--workers', '2', '--name', 'agent-1', '--once']);
    for (let i = 0; i < 100 && fleet.agents().filter((a) => a.clock).length < 1; i++) await new Promise((r) => setTimeout(r, 100));
    const checked = validateRunConfig({ endpointUrl: `${hub.httpUrl}/signalrbench`, connections: 6, workers: 1, sendIntervalMs: 500, durationSec: 2, warmupSec: 0 });
    if (!checked.ok) throw new Error(checked.errors.join());
    const config = checked.config;
    const prepared = await fleet.prepareRun(fleet.agents().map((a) => a.id), 0, config.scenario);
    if ('error' in prepared) throw new Error(prepared.error);
    const coordinator = new RunCoordinator(config, prepared.ports, systemClock, systemTimers, { goLeadMs: 1_000, credentials: { accessTokens: [token], headers: [], query: [] } });
    coordinator.start();
    await coordinator.finished();
    await fleet.closeRun(prepared.agents);
    // 6 connections, all on the agent's 2 threads, each echoing every 500 ms for 2 s.
    expect(coordinator.aggregator.totals().connectionsOpened).toBe(6);
    expect(runResult(coordinator, new Date(), 'test').fates).toMatchObject({ planned: 24, lost: 0 });
    const seen = (await (await fetch(`${hub.httpUrl}/testhubs/seen`)).json()) as { kind: string; user: string | null }[];
    expect(seen.filter((r) => r.kind === 'websocket').map((r) => r.user)).toEqual(Array(6).fill('agent-user'));
    expect(await agent.exited).toBe(0);
    expect(agent.stdout() + agent.stderr()).not.toContain(token);
    expect(JSON.stringify(fleet.agents())).not.toContain(token);
  });
});
