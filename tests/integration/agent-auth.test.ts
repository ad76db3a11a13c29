/**
 * Agents of a session against a protected hub: the dashboard's token reaches a headless agent in
 * its threads' start messages over the control hub (which stays open), the agent's connections
 * use it, and the agent prints nothing of it. An agent that does not present the session's
 * secret receives nothing; over the plain http control hub the lead says the token will cross
 * in plain text, or refuses to send it (--agents-secrets refuse). The "dashboard" is the page's
 * Fleet and RunCoordinator in Node, or the built runner's headless lead; the hub-sample runs
 * with --RequireAuth true.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock, systemTimers } from '../../core/clocks/clock.ts';
import { attachFleet, Fleet } from '../../core/fleet/fleet.ts';
import { validateRunConfig } from '../../core/run-config/config.ts';
import { RunCoordinator } from '../../core/execution/coordinator.ts';
import { runResult } from '../../core/result/document.ts';
import { openControlConnection, type ControlConnection } from '../../signalr/control-connection.ts';
import { startAgent, type RunningAgent } from '../support/agents.ts';
import { startHub, type RunningHub } from '../support/hub-process.ts';
import { liveBench } from '../support/live-bench.ts';
import { parseRunResult } from '../../core/result/result.ts';

let hub: RunningHub;
let control: ControlConnection | null = null;
let agent: RunningAgent | null = null;
const others: RunningAgent[] = [];
const SECRET = 'K7QW2MZP9RTXVB4N';

beforeAll(async () => {
  hub = await startHub({ extraArgs: ['--RequireAuth', 'true', '--EnableTestHubs', 'true'] });
}, 60_000);

afterAll(async () => {
  agent?.child.kill('SIGKILL');
  for (const other of others) other.child.kill('SIGKILL');
  await control?.stop();
  await hub?.stop();
});

describe('an agent of a session against a hub that requires a token', () => {
  it('receives the token with its start messages, opens every connection with it, and never prints it', async () => {
    const token = await (await fetch(`${hub.httpUrl}/testhubs/token?user=agent-user`, { method: 'POST' })).text();
    control = await openControlConnection(`${hub.httpUrl}/control`);
    const fleet = new Fleet({ toAgent: (id, message) => control!.invoke('ToAgent', id, message) }, systemClock, systemTimers, () => {}, SECRET);
    attachFleet(control, fleet);
    const session = await control.invoke<string>('OpenSession');
    agent = await startAgent(`${hub.httpUrl}/control`, session, ['--session-secret', SECRET, '--workers', '2', '--name', 'agent-1', '--once']);
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

  it('an agent without the session secret, or with the wrong one, is turned away: exit 3, said why, sent nothing but that', async () => {
    const dashboard = await openControlConnection(`${hub.httpUrl}/control`);
    try {
      const texts: string[] = [];
      const fleet = new Fleet({ toAgent: (id, message) => (texts.push(message), dashboard.invoke('ToAgent', id, message)) }, systemClock, systemTimers, () => {}, SECRET);
      attachFleet(dashboard, fleet);
      const session = await dashboard.invoke<string>('OpenSession');
      const none = await startAgent(`${hub.httpUrl}/control`, session, ['--workers', '1', '--name', 'no-secret']);
      const wrong = await startAgent(`${hub.httpUrl}/control`, session, ['--session-secret', 'ZXCVBNMLKJHGFDSA', '--workers', '1', '--name', 'wrong-secret']);
      others.push(none, wrong);
      expect(await none.exited).toBe(3);
      expect(await wrong.exited).toBe(3);
      expect(none.stderr()).toContain('live-bench: the lead turned this agent away: Agent "no-secret" was refused: it presented no session secret, and the session code alone does not admit an agent. It received nothing of the run.');
      expect(wrong.stderr()).toContain('Agent "wrong-secret" was refused: it presented a session secret that is not this session\'s');
      expect(fleet.agents()).toEqual([]);
      expect(fleet.refusals).toHaveLength(2);
      // What the control hub carried to them: one refusal each, no clock round, no start message.
      expect(texts.map((text) => JSON.parse(text).type)).toEqual(['refused', 'refused']);
      expect(none.stdout() + none.stderr() + wrong.stdout() + wrong.stderr() + texts.join()).not.toContain(SECRET);
    } finally {
      await dashboard.stop();
    }
  });
});

describe('the headless lead, its token and a plain http control hub', () => {
  async function tokenFile(token: string): Promise<string> {
    const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'agents-secrets-')), 'token');
    await writeFile(file, `${token}\n`);
    return file;
  }

  it('--agents-secrets refuse: exit 2 before connecting anything, says the token would cross in plain text, never prints it', async () => {
    const token = await (await fetch(`${hub.httpUrl}/testhubs/token?user=lead-user`, { method: 'POST' })).text();
    const run = await liveBench(['--lead', '--agents', '1', '--agents-secrets', 'refuse', '--agents-timeout', '5', '--endpoint', `${hub.httpUrl}/signalrbench`, '--access-token-file', await tokenFile(token), '--connections', '2', '--duration', '1']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`live-bench: Nothing was sent: the control hub ${hub.httpUrl}/control is plain http: the access token will cross it to the agents in plain text, readable by anyone on the network between this lead, the hub and the agents. Serve the control hub over https, or send anyway with --agents-secrets warn.`);
    // No session was opened: nothing reached the control hub.
    expect(run.stderr).not.toContain('session ');
    expect(run.elapsedMs).toBeLessThan(2_000);
    expect(run.stdout + run.stderr).not.toContain(token);
  });

  it('by default warns before sending, prints the agent command with the session secret, turns away an agent without it, and runs with the one that has it', async () => {
    const token = await (await fetch(`${hub.httpUrl}/testhubs/token?user=lead-user`, { method: 'POST' })).text();
    const jsonPath = path.join(await mkdtemp(path.join(os.tmpdir(), 'agents-secrets-')), 'run.json');
    let started: Promise<void> = Promise.resolve();
    const run = await liveBench(['--lead', '--agents', '1', '--agents-timeout', '30', '--endpoint', `${hub.httpUrl}/signalrbench`, '--access-token-file', await tokenFile(token), '--connections', '4', '--interval-ms', '500', '--duration', '2', '--warmup', '0', '--quiet', '--json', jsonPath], (child) => {
      let said = '';
      child.stderr!.on('data', (chunk: Buffer) => {
        const before = said;
        said += chunk.toString();
        const command = /--session (\S+) --session-secret (\S+) --once/.exec(said);
        if (!command || /--session-secret/.test(before)) return;
        const [, session, secret] = command as unknown as [string, string, string];
        started = (async () => {
          // The agent given only the public code first: turned away before the one with the secret joins.
          const intruder = await startAgent(`${hub.httpUrl}/control`, session, ['--workers', '1', '--name', 'intruder']);
          others.push(intruder);
          expect(await intruder.exited).toBe(3);
          expect(intruder.stdout() + intruder.stderr()).not.toContain(token);
          others.push(await startAgent(`${hub.httpUrl}/control`, session, ['--session-secret', secret, '--workers', '1', '--name', 'invited', '--once']));
        })();
      });
    });
    await started;
    expect(run.code).toBe(0);
    const warning = run.stderr.indexOf(`live-bench: warning: The control hub ${hub.httpUrl}/control is plain http: the access token will cross it to the agents in plain text`);
    expect(warning).toBeGreaterThanOrEqual(0);
    expect(warning).toBeLessThan(run.stderr.indexOf('live-bench: session '));
    expect(run.stderr).toContain('live-bench: Agent "intruder" was refused: it presented no session secret');
    const result = parseRunResult(await readFile(jsonPath, 'utf8'));
    expect(result.agents?.map((a) => a.name)).toEqual(['invited']);
    expect(result.fates).toMatchObject({ planned: 16, lost: 0 });
    expect(run.stdout + run.stderr + (await readFile(jsonPath, 'utf8'))).not.toContain(token);
  });
});
