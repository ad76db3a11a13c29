/**
 * The headless lead (`live-bench --lead --agents <n>`) as a user runs it: the built runner leads,
 * headless runners join as agents, all on the real hub-sample's control hub. The lead's JSON
 * result is read back and its merged totals are checked against what each agent counted itself.
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

const endpoint = () => `${inject('hubHttpUrl')}/signalrbench`;
const controlUrl = () => `${inject('hubHttpUrl')}/control`;
const agents: RunningAgent[] = [];

afterEach(() => {
  for (const agent of agents.splice(0)) agent.child.kill('SIGKILL');
});

/** A fresh code chosen in advance, as an operator would (16 random characters of the hub's alphabet). */
function newSessionCode(): string {
  return Array.from({ length: 16 }, () => SESSION_CODE_ALPHABET[randomInt(SESSION_CODE_ALPHABET.length)]).join('');
}

/** Starts `count` agents for `session` (each resolves once it has joined, so the lead must be up). */
async function startAgents(session: string, count: number, threads = 1): Promise<RunningAgent[]> {
  const started = await Promise.all(Array.from({ length: count }, (_, i) => startAgent(controlUrl(), session, ['--once', '--join-timeout', '20', '--workers', String(threads), '--name', `agent-${i + 1}`])));
  agents.push(...started);
  return started;
}

describe('live-bench --lead', () => {
  it('leads three agents through one run: merged totals are the sum of what each agent counted, verdict pass, exit 0', async () => {
    const session = newSessionCode();
    const dir = await mkdtemp(path.join(os.tmpdir(), 'live-bench-lead-'));
    const jsonPath = path.join(dir, 'result.json');
    // 30 connections, 8 sends each (250 ms for 2 s): 240 echo receptions, 10 per agent thread.
    const lead = liveBench(['--lead', '--agents', '3', '--session', session, '--agents-timeout', '30', '--endpoint', endpoint(), '--connections', '30', '--interval-ms', '250', '--duration', '2', '--warmup', '0', '--quiet', '--json', jsonPath]);
    const three = await startAgents(session, 3);
    const run = await lead;
    expect(run.stderr).toContain(`live-bench --agent ${controlUrl()} --session ${session} --once`);
    expect(run.stderr).toMatch(/3 agent\(s\) joined/);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Verdict: Pass/);
    // The summary lists the agents with their clocks at the start and the end, as the page does.
    expect(run.stdout).toMatch(/Agents: 3\n  agent-\d: node, 1 thread\(s\); clock at the start [+-−]?[\d.]+ (ms|µs) ± [\d.]+ (ms|µs), at the end [+-−]?[\d.]+ (ms|µs) ± /);
    const result = parseRunResult(await readFile(jsonPath, 'utf8'));
    expect(result.verdict.status).toBe('pass');
    expect(result.fates).toMatchObject({ planned: 240, lost: 0 });
    expect(result.agents!.map((a) => a.name).sort()).toEqual(['agent-1', 'agent-2', 'agent-3']);
    // Both clock rounds, the run's start and its end, are in the record.
    for (const agent of result.agents!) expect(agent.clockEnd).toBeTruthy();
    // The lead ran no connection itself: every port is an agent's thread.
    expect(result.workers).toHaveLength(3);
    const own = await Promise.all(three.map(async (agent) => {
      expect(await agent.exited).toBe(0);
      return agentCounts(agent.stdout());
    }));
    expect(own.map((c) => c.opened)).toEqual([10, 10, 10]);
    expect(own.reduce((sum, c) => sum + c.sent, 0)).toBe(result.totals.sent);
    expect(own.reduce((sum, c) => sum + c.received, 0)).toBe(result.totals.received);
    expect(own.reduce((sum, c) => sum + c.planned, 0)).toBe(result.fates.planned);
  });

  it('an agent that never comes: says how many came within --agents-timeout, runs nothing, exit 3', async () => {
    const session = newSessionCode();
    const lead = liveBench(['--lead', '--agents', '2', '--session', session, '--agents-timeout', '3', '--endpoint', endpoint(), '--connections', '10', '--duration', '2', '--quiet']);
    const [one] = await startAgents(session, 1);
    const run = await lead;
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/only 1 of 2 agent\(s\) joined session [A-Z2-9]{16} \("agent-1"\): none more came within 3 s \(--agents-timeout\)\. Nothing was run\./);
    expect(run.stdout).not.toContain('Verdict');
    // The session ended with the lead: the agent that came is told and leaves.
    expect(await one!.exited).toBe(0);
    expect(one!.stderr()).toMatch(/closed the session/);
  });

  it('an agent killed mid-run: its threads are counted lost, the client\'s fault, and the run is not a pass (exit 1)', async () => {
    const session = newSessionCode();
    const dir = await mkdtemp(path.join(os.tmpdir(), 'live-bench-lead-'));
    const jsonPath = path.join(dir, 'result.json');
    let killed = false;
    const lead = liveBench(['--lead', '--agents', '2', '--session', session, '--agents-timeout', '30', '--endpoint', endpoint(), '--connections', '20', '--interval-ms', '250', '--duration', '3', '--warmup', '0', '--json', jsonPath], (child) => {
      // Progress lines come once a second while the run sends: kill an agent after the first.
      child.stderr!.on('data', (chunk: Buffer) => {
        if (!killed && /\brunning\s+open/.test(String(chunk)) && agents[0]) {
          killed = true;
          agents[0].child.kill('SIGKILL');
        }
      });
    });
    await startAgents(session, 2, 2);
    const run = await lead;
    expect(killed).toBe(true);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/Worker \d failed and was stopped: agent "agent-1" \(thread 1\) left the run: it disconnected from the control hub, so its connections count as lost/);
    expect(run.stderr).toMatch(/2 of 4 engine\(s\) failed/);
    expect(run.stdout).toMatch(/  agent-1 \(lost\): node, 2 thread\(s\)/);
    const result = parseRunResult(await readFile(jsonPath, 'utf8'));
    expect(result.verdict.status).toBe('fail');
    expect(result.verdict.sentence).toMatch(/2 worker\(s\) were lost mid-run, the client's loss/);
    // Every planned message counts: 20 connections x 12 slots (250 ms for 3 s), whoever was lost.
    // What the lost agent was to send is never sent, the client's; nothing of it reads as delivered.
    expect(result.fates.planned).toBe(240);
    expect(result.fates.notSent.workerLost).toBeGreaterThan(0);
    expect(result.fates.underOneSecond + result.fates.late).toBeLessThan(240 - result.fates.notSent.workerLost + 1);
    expect(run.stdout).toMatch(/never sent \(the worker or agent that was to send them was lost mid-run \d+\)/);
    expect(result.workers.filter((w) => w.lost)).toHaveLength(2);
    // The survivor kept its 10 connections to the end; the lost agent's are counted as lost connections.
    expect(result.totals.disconnects).toBeGreaterThanOrEqual(10);
    // Whose limit: the client's (it lost two engines with their load), never the service's.
    // (On a loaded machine the client may also have lagged: then that is named too, still the client.)
    expect(run.stdout).toMatch(/Limit: The client (lagged .* and )?lost 2 of its 4 engines mid-run \(agent "agent-1".*the client is the limit/);
  });

  it('bad input: no --agents, a code that is not random enough, a lead option without --lead: exit 2 at once; --lead --help lists its options', async () => {
    const missing = await liveBench(['--lead', '--endpoint', endpoint(), '--session', 'AAAAAAAAAAAA']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--lead needs --agents <n>');
    expect(missing.stderr).toContain('repeats too few characters to be unguessable');
    const stray = await liveBench(['--endpoint', endpoint(), '--agents', '3']);
    expect(stray.code).toBe(2);
    expect(stray.stderr).toContain('--agents belongs to a headless lead');
    const help = await liveBench(['--lead', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: live-bench --lead --agents <n>/);
    expect(help.stdout).toContain('--agents-timeout <s>');
  });
});
