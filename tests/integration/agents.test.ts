/**
 * Agents: two headless runners join a dashboard's session on the real hub-sample's control hub
 * and run one benchmark together; the "dashboard" here is the same Fleet and RunCoordinator the
 * page uses, in Node.
 */
import { afterEach, describe, expect, inject, it } from 'vitest';
import { systemClock, systemTimers } from '../../core/clocks/clock.ts';
import { attachFleet, Fleet, type RunAgents } from '../../core/fleet/fleet.ts';
import type { RunConfig } from '../../core/run-config/config.ts';
import { RunCoordinator } from '../../core/execution/coordinator.ts';
import { parseRunResult } from '../../core/result/result.ts';
import { runResult } from '../../core/result/document.ts';
import { openControlConnection, type ControlConnection } from '../../signalr/control-connection.ts';
import { agentCounts, startAgent, type RunningAgent } from '../support/agents.ts';
import { hubConfig } from '../support/hub-run.ts';

const controlUrl = () => `${inject('hubHttpUrl')}/control`;
const agents: RunningAgent[] = [];
const controls: ControlConnection[] = [];

afterEach(async () => {
  for (const agent of agents.splice(0)) agent.child.kill('SIGKILL');
  for (const control of controls.splice(0)) await control.stop();
});

async function dashboardWithAgents(count: number, agentArgs: string[] = ['--once'], threads = 2) {
  const control = await openControlConnection(controlUrl());
  controls.push(control);
  /** Every text the dashboard handed the control hub, for tests that look at the pieces. */
  const toAgentTexts: string[] = [];
  const fleet = new Fleet({ toAgent: (id, message) => (toAgentTexts.push(message), control.invoke('ToAgent', id, message)) }, systemClock, systemTimers);
  attachFleet(control, fleet);
  const fromAgentTexts: string[] = [];
  control.on('FromAgent', (_id: string, message: string) => fromAgentTexts.push(message));
  const session = await control.invoke<string>('OpenSession');
  for (let i = 0; i < count; i++) agents.push(await startAgent(controlUrl(), session, ['--workers', String(threads), '--name', `agent-${i + 1}`, ...agentArgs]));
  // Wait for both introductions and their clock estimates.
  for (let i = 0; i < 100 && fleet.agents().filter((a) => a.clock).length < count; i++) await new Promise((r) => setTimeout(r, 100));
  return { control, fleet, session, toAgentTexts, fromAgentTexts };
}

/** What the page does at a run's start: a fresh clock round with every agent, then their ports. */
async function prepare(fleet: Fleet, config: RunConfig): Promise<RunAgents> {
  const prepared = await fleet.prepareRun(fleet.agents().map((a) => a.id), 0, config.scenario);
  if ('error' in prepared) throw new Error(`the run was refused: ${prepared.error}`);
  return prepared;
}

describe('agents joining a dashboard run', () => {
  it('two agents run one echo run; the merged counts are the sum of what each agent counted itself', async () => {
    const { fleet } = await dashboardWithAgents(2);
    const views = fleet.agents();
    expect(views.map((a) => a.info.name).sort()).toEqual(['agent-1', 'agent-2']);
    for (const view of views) {
      // Same machine, same clock: the estimate is near 0 and says how sure it is.
      expect(view.clock!.samples).toBeGreaterThanOrEqual(8);
      expect(Math.abs(view.clock!.offsetUs)).toBeLessThanOrEqual(view.clock!.uncertaintyUs + 2_000);
    }
    const config = hubConfig({ connections: 20, workers: 1, sendIntervalMs: 250, durationSec: 2 });
    const { ports, agents: runAgents } = await prepare(fleet, config);
    expect(ports).toHaveLength(4);
    const coordinator = new RunCoordinator(config, ports, systemClock, systemTimers, { goLeadMs: 1_000 });
    coordinator.start();
    await coordinator.finished();
    // What the page does at a run's end: the closing clock round, then "run-over" (the agents,
    // started with --once, leave on it).
    await fleet.closeRun(runAgents);
    const merged = coordinator.aggregator.totals();
    expect(merged.connectionsOpened).toBe(20);
    expect(merged.sent).toBe(160);
    expect(merged.received).toBe(160);
    expect(runResult(coordinator, new Date(), 'test').fates).toMatchObject({ planned: 160, underOneSecond: 160, lost: 0 });
    const own = await Promise.all(agents.map(async (agent) => {
      expect(await agent.exited).toBe(0);
      return agentCounts(agent.stdout());
    }));
    expect(own.map((c) => c.opened)).toEqual([10, 10]);
    expect(own.reduce((sum, c) => sum + c.sent, 0)).toBe(merged.sent);
    expect(own.reduce((sum, c) => sum + c.received, 0)).toBe(merged.received);
    expect(own.reduce((sum, c) => sum + c.planned, 0)).toBe(coordinator.aggregator.fates().planned);
  });

  // 10 connections, 4 sends each: broadcast has 2 senders reaching all 10; send to connection
  // has every connection send to one other, whose id crossed the control hub.
  for (const [scenario, expected] of [['broadcast', 80], ['sendToConnection', 40]] as const) {
    it(`${scenario} across two agents: every reception arrives, across agents too`, async () => {
      const { fleet } = await dashboardWithAgents(2);
      const config = hubConfig({ scenario, connections: 10, workers: 1, sendIntervalMs: 500, durationSec: 2 });
      // The run's clocks come from a round taken after it was asked for, not from the join's.
      const requestedUs = systemClock.nowUs();
      const { ports, agents: runAgents } = await prepare(fleet, config);
      expect(runAgents.map((a) => a.name).sort()).toEqual(['agent-1', 'agent-2']);
      for (const agent of runAgents) {
        expect(agent.clockMeasuredAtUs).toBeGreaterThan(requestedUs);
        expect(agent.clockUncertaintyUs).toBeGreaterThan(0);
        // Same machine, same clock: near 0, within the round's bound and some scheduling slack.
        expect(Math.abs(agent.clockOffsetUs!)).toBeLessThanOrEqual(agent.clockUncertaintyUs! + 2_000);
      }
      const coordinator = new RunCoordinator(config, ports, systemClock, systemTimers, { goLeadMs: 1_000 });
      coordinator.start();
      await coordinator.finished();
      // The second clock round, after every final snapshot is in.
      const endedUs = systemClock.nowUs();
      const closed = await fleet.closeRun(runAgents);
      const totals = coordinator.aggregator.totals();
      expect(coordinator.aggregator.fates().planned).toBe(expected);
      expect(totals.received).toBe(expected);
      expect(coordinator.aggregator.latency().count).toBe(expected);
      for (const [i, agent] of closed.entries()) {
        // Both rounds are recorded: the start's as it was, the end's taken after the run.
        expect(agent).toMatchObject({ clockOffsetUs: runAgents[i]!.clockOffsetUs, clockMeasuredAtUs: runAgents[i]!.clockMeasuredAtUs });
        expect(agent.clockEnd!.measuredAtUs).toBeGreaterThan(endedUs);
        expect(agent.clockEnd!.uncertaintyUs).toBeGreaterThan(0);
        // Same machine, same clock: no drift to speak of between the rounds.
        expect(Math.abs(agent.clockEnd!.offsetUs)).toBeLessThanOrEqual(agent.clockEnd!.uncertaintyUs + 2_000);
      }
      // The run's JSON keeps both rounds' figures, as History does, and its clocks' judgement.
      const stored = parseRunResult(JSON.stringify(runResult(coordinator, new Date(), 'node test', closed)));
      expect(stored.agents).toEqual(closed.map((agent) => ({ ...agent, lost: false })));
      expect(stored.clocks).toMatchObject({ rounds: 2, undecidable: 0 });
      // Two agents, no local workers: the bound is the sum of both agents' bounds, over 0.
      expect(stored.clocks!.boundUs).toBeGreaterThan(0);
      expect(stored.clocks!.boundUs).toBeLessThan(100_000);
      expect(stored.fates).toMatchObject({ planned: expected, underOneSecond: expected, lost: 0 });
      expect(stored.verdict.status).toBe('pass');
    });
  }

  it('an agent killed mid-run is reported lost, its connections counted, and the run goes on with the other', async () => {
    const { fleet } = await dashboardWithAgents(2, []);
    const config = hubConfig({ connections: 20, workers: 1, sendIntervalMs: 250, durationSec: 4 });
    const coordinator = new RunCoordinator(config, (await prepare(fleet, config)).ports, systemClock, systemTimers, { goLeadMs: 1_000 });
    coordinator.start();
    while (coordinator.phase !== 'running' || coordinator.aggregator.totals().received < 40) await new Promise((r) => setTimeout(r, 50));
    agents[0]!.child.kill('SIGKILL');
    await coordinator.finished();
    expect(fleet.agents().filter((a) => a.state === 'left').map((a) => a.info.name)).toEqual(['agent-1']);
    expect(coordinator.workerFailures).toHaveLength(2);
    expect(coordinator.workerFailures[0]).toMatch(/agent "agent-1" \(thread \d\) left the run/);
    const totals = coordinator.aggregator.totals();
    expect(totals.disconnects).toBeGreaterThanOrEqual(10);
    expect(coordinator.aggregator.connectionsOpen()).toBe(10);
    // The survivor's 10 connections sent all 16 each; what the lost agent had reported is kept.
    expect(totals.sent).toBeGreaterThan(160);
    expect(totals.received).toBeGreaterThan(160);
    expect(coordinator.aggregator.workerHealth().filter((w) => w.lost)).toHaveLength(2);
  });
});

describe('the control hub', () => {
  it('closes a connection that sends a message over 64 KiB (MaxControlMessageBytes), so none can make it buffer more', async () => {
    const dashboard = await openControlConnection(controlUrl());
    const agent = await openControlConnection(controlUrl());
    controls.push(dashboard, agent);
    const closed = new Promise<string>((resolve) => agent.onClose((error) => resolve(error?.message ?? 'no error')));
    const code = await dashboard.invoke<string>('OpenSession');
    await agent.invoke('JoinSession', code, JSON.stringify({ name: 'big', kind: 'node', threads: 1, client: 'test' }));
    await agent.invoke('ToDashboard', 'x'.repeat(60_000));
    await expect(agent.invoke('ToDashboard', 'x'.repeat(70_000))).rejects.toThrow();
    expect(await closed).toMatch(/closed with an error/);
  });

  it('send to connection with 2,800 connections on one agent thread: ids over 64 KiB cross both ways in pieces, every message arrives', async () => {
    const { fleet, toAgentTexts, fromAgentTexts } = await dashboardWithAgents(1, ['--once'], 1);
    const config = hubConfig({ scenario: 'sendToConnection', connections: 2_800, workers: 1, sendIntervalMs: 1_000, durationSec: 2 });
    const { ports } = await prepare(fleet, config);
    const coordinator = new RunCoordinator(config, ports, systemClock, systemTimers, { goLeadMs: 1_000 });
    coordinator.start();
    await coordinator.finished();
    const totals = coordinator.aggregator.totals();
    // Two cores carry the hub, the agent and this test: how many slots came due before the
    // agent had its 'go' varies, but every connection sent, and every message sent arrived.
    expect(totals.connectionsOpened).toBe(2_800);
    expect(totals.sent).toBeGreaterThanOrEqual(2_800);
    expect(totals.received).toBe(totals.sent);
    expect(coordinator.aggregator.fates().planned).toBe(totals.sent);
    expect(coordinator.aggregator.errorSamples()).toEqual([]);
    // The agent's 'ready' (its 2,800 connection ids) and the dashboard's 'go' (2,800 target ids)
    // were each longer than the hub takes in one message.
    const longest = (texts: string[]) => Math.max(...joinedLengths(texts));
    expect(longest(fromAgentTexts)).toBeGreaterThan(64 * 1024);
    expect(longest(toAgentTexts)).toBeGreaterThan(64 * 1024);
  });

  it('does not let a connection outside a session reach a dashboard', async () => {
    const stranger = await openControlConnection(controlUrl());
    controls.push(stranger);
    await expect(stranger.invoke('ToDashboard', 'hello')).rejects.toThrow(/has not joined a session/);
    await expect(stranger.invoke('ToAgent', 'someone', 'hello')).rejects.toThrow(/leads no session/);
  });
});

/** Lengths of the messages a sequence of control texts carried, pieces joined (core/fleet/pieces.ts). */
function joinedLengths(texts: string[]): number[] {
  const lengths: number[] = [];
  let pending = 0;
  for (const text of texts) {
    if (text.startsWith('+')) pending += text.length - 1;
    else if (text.startsWith('=')) (lengths.push(pending + text.length - 1), (pending = 0));
    else lengths.push(text.length);
  }
  return lengths;
}

describe('live-bench --agent, bad input', () => {
  it('a session code that is not open: exit 3 and says what to check', async () => {
    await expect(startAgent(controlUrl(), 'NOSUCHCODE')).rejects.toThrow(/exited with 3 before joining: .*No session 'NOSUCHCODE' is open on this control hub: check the code the dashboard shows/s);
  });

  it('a control hub that does not answer: exit 3 and says which hub it tried', async () => {
    await expect(startAgent('http://127.0.0.1:9/control', 'ABCDEFGH')).rejects.toThrow(/exited with 3 before joining: .*Cannot reach the control hub: .*127\.0\.0\.1:9\/control/s);
  });

  it('the benchmark hub given instead of the control hub: exit 3, said so, with the address to use', async () => {
    const benchUrl = `${inject('hubHttpUrl')}/signalrbench`;
    await expect(startAgent(benchUrl, 'ABCDEFGH')).rejects.toThrow(new RegExp(`exited with 3 before joining: .*${benchUrl.replace(/[.]/g, '\\.')} has no JoinSession: that is the benchmark hub, not the control hub\\. Point --agent at the hub-sample's control hub, ${controlUrl().replace(/[.]/g, '\\.')}\\.`, 's'));
  });

  it('a host that does not resolve: exit 3 with the DNS cause', async () => {
    await expect(startAgent('http://no-such-host.invalid/control', 'ABCDEFGH')).rejects.toThrow(/exited with 3 before joining: .*ENOTFOUND.*The host name does not resolve: check its spelling/s);
  });

  it('no URL and no code: exit 2, both problems listed', async () => {
    await expect(startAgent('not-a-url', '!')).rejects.toThrow(/exited with 2 before joining: .*--agent must be the control hub's http\(s\) URL.*--session must be the code/s);
  });
});
