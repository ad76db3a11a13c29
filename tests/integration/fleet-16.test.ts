/**
 * The widest fleet this machine runs for real: a headless lead and 16 runner agents, each its own
 * process (`live-bench --agent`, one engine, 4 connections), on the real hub-sample's control hub,
 * with the session's secret. A broadcast run, so every agent receives what others sent and the
 * clocks matter: a clock round with each agent at the start and at the end, the merged totals
 * equal to the sum of what each agent counted itself, to the message, and a verdict.
 * (The control plane past 16 agents, to 256, is measured with simulated agents: bench/fleet-sim.)
 */
import { randomInt } from 'node:crypto';
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { parseRunResult } from '../../core/result/result.ts';
import { SESSION_CODE_ALPHABET } from '../../cli/lead-args.ts';
import { agentCounts, startAgent, type RunningAgent } from '../support/agents.ts';
import { liveBench } from '../support/live-bench.ts';

const AGENTS = 16;
const CONNECTIONS_PER_AGENT = 4;
/** Agents started at once: 16 Node processes starting together on two shared cores join slowly. */
const START_BATCH = 4;

const endpoint = () => `${inject('hubHttpUrl')}/signalrbench`;
const controlUrl = () => `${inject('hubHttpUrl')}/control`;
const agents: RunningAgent[] = [];

afterEach(() => {
  for (const agent of agents.splice(0)) agent.child.kill('SIGKILL');
});

const draw = (alphabet: string, length: number) => Array.from({ length }, () => alphabet[randomInt(alphabet.length)]).join('');

describe('a led run of 16 agent processes', () => {
  it('16 agents, one broadcast: clocks measured at the start and the end, merged totals the exact sum of the agents\' own, verdict pass, exit 0', async () => {
    const session = draw(SESSION_CODE_ALPHABET, 16);
    const secret = draw('abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789', 20);
    const jsonPath = path.join(await mkdtemp(path.join(os.tmpdir(), 'live-bench-fleet-16-')), 'result.json');
    const connections = AGENTS * CONNECTIONS_PER_AGENT;
    // Broadcast from 2 senders every 500 ms for 3 s to all 64 connections: 2 x 6 x 64 = 768 receptions.
    const lead = liveBench(['--lead', '--agents', String(AGENTS), '--session', session, '--session-secret', secret, '--agents-timeout', '45', '--endpoint', endpoint(),
      '--scenario', 'broadcast', '--senders', '2', '--connections', String(connections), '--interval-ms', '500', '--duration', '3', '--warmup', '0', '--quiet', '--json', jsonPath]);
    for (let first = 0; first < AGENTS; first += START_BATCH) {
      const batch = await Promise.all(Array.from({ length: START_BATCH }, (_, i) => startAgent(controlUrl(), session, ['--session-secret', secret, '--once', '--join-timeout', '30', '--workers', '1', '--name', `agent-${first + i + 1}`])));
      agents.push(...batch);
    }
    const run = await lead;
    expect(run.stderr).toMatch(/16 agent\(s\) joined/);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/Verdict: Pass/);
    const result = parseRunResult(await readFile(jsonPath, 'utf8'));
    expect(result.verdict.status).toBe('pass');
    expect(result.fates).toMatchObject({ planned: 768, underOneSecond: 768, lost: 0 });
    expect(result.totals).toMatchObject({ sent: 12, received: 768, connectionsOpened: connections, connectionsFailed: 0 });
    // Every agent took part, each with one thread: the lead ran no connection itself.
    expect(result.agents!.map((a) => a.name).sort()).toEqual(Array.from({ length: AGENTS }, (_, i) => `agent-${i + 1}`).sort());
    expect(result.workers).toHaveLength(AGENTS);
    // The clock rounds: each agent measured before "go" and after the last report, the run judged on them.
    for (const agent of result.agents!) {
      expect(agent.clockOffsetUs, agent.name).not.toBeNull();
      expect(agent.clockUncertaintyUs, agent.name).not.toBeNull();
      expect(agent.clockEnd, agent.name).toBeTruthy();
    }
    // Both rounds taken; a reception before its planned time (16 clocks estimated to within a few
    // ms, latencies of a few ms) only within the clocks' bound, as a pass requires.
    expect(result.clocks?.rounds).toBe(2);
    expect(result.clocks!.maxNegativeUs ?? 0).toBeLessThanOrEqual(result.clocks!.boundUs);
    // Each agent's own count, summed, is the lead's merged total, to the message.
    const own = await Promise.all(agents.map(async (agent) => {
      expect(await agent.exited).toBe(0);
      return agentCounts(agent.stdout());
    }));
    expect(own.map((c) => c.opened)).toEqual(new Array(AGENTS).fill(CONNECTIONS_PER_AGENT));
    const sum = (key: 'sent' | 'planned' | 'received') => own.reduce((total, c) => total + c[key], 0);
    expect(sum('sent')).toBe(result.totals.sent);
    expect(sum('received')).toBe(result.totals.received);
    expect(sum('planned')).toBe(result.fates.planned);
  }, 90_000);
});
