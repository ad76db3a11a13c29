/**
 * Engines in child processes (`--engines processes`, cli/process-port.ts), with the built runner
 * against a real hub-sample: exact counts and a pass; the split chosen by itself when one process
 * may not open the files the connections need; an engine process killed mid-run is the client's
 * loss, as a thread that died is; a SIGTERM to the process group is the runner's to handle, not
 * the engines'; the runner killed leaves no engine behind; and a hub in trouble
 * (frozen, killed and restarted, without the methods) reads the same as with threads. Short
 * runs, two lanes at once, each on its own hub.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccounting } from '../support/accounting.ts';
import { startHub, type RunningHub } from '../support/hub-process.ts';
import { liveBench, onceSending, resultOf, runWithHubFrozen } from '../support/live-bench.ts';
import { freePort } from '../support/redis-process.ts';
import { agentCounts, startAgent } from '../support/agents.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'live-bench-processes-'));
});

/** The processes whose parent is `pid`, from /proc (field 4 of stat, after the command's parentheses). */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc').filter((name) => /^\d+$/.test(name)).flatMap((name) => {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid ? [Number(name)] : [];
    } catch {
      return [];
    }
  });
}

/** Alive: present and not a zombie waiting for a parent that is gone. */
function alive(pid: number): boolean {
  if (!existsSync(`/proc/${pid}/stat`)) return false;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}



const processes = ['--engines', 'processes', '--workers', '2'];
const short = (connections: number, intervalMs: number, durationSec: number) => ['--connections', String(connections), '--interval-ms', String(intervalMs),
  '--duration', String(durationSec), '--warmup', '0', '--drain-s', '2'];

describe.concurrent('engine processes against a healthy hub', () => {
  let hub: RunningHub;
  beforeAll(async () => {
    hub = await startHub({ extraArgs: ['--EnableTestHubs', 'true'] });
  }, 60_000);
  afterAll(async () => {
    await hub?.stop();
  });

  it.sequential('--engines processes --workers 2: exact counts, a pass, exit 0, said on the start line', async () => {
    const jsonPath = path.join(dir, 'pass.json');
    const run = await liveBench(['--endpoint', `${hub.httpUrl}/signalrbench`, ...processes, ...short(40, 500, 2), '--quiet', '--json', jsonPath]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/40 connections over WebSockets \(json\) to .*, 2 engine processes \(asked with --engines processes\)/);
    const result = await resultOf(run, jsonPath);
    expect(result.config.workers).toBe(2);
    expect(result.totals.connectionsOpened).toBe(40);
    expect(result.fates.planned).toBe(40 * 4);
    expect(result.fates.underOneSecond).toBe(40 * 4);
    expect(result.totals.received).toBe(40 * 4);
    expect(result.workerFailures).toEqual([]);
    expect(result.verdict.status).toBe('pass');
  }, 30_000);

  it.sequential('one process may open 150 files: 200 connections are split over 3 engine processes by themselves, and held', async () => {
    const jsonPath = path.join(dir, 'split.json');
    const run = await liveBench(['--endpoint', `${hub.httpUrl}/signalrbench`, ...short(200, 1_000, 2), '--quiet', '--json', jsonPath], undefined, 150);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/, 3 engine processes \(one process may open 150 files: 200 connections need 3\)/);
    expect(run.stderr).not.toMatch(/warning/);
    const result = await resultOf(run, jsonPath);
    expect(result.totals.connectionsOpened).toBe(200);
    expect(result.totals.connectionsFailed).toBe(0);
    expectAccounting(result, 200 * 2);
    expect(result.fates.underOneSecond).toBe(200 * 2);
  }, 30_000);

  it.sequential('an engine process killed mid-run (SIGKILL): exit 1, the plan unchanged, its share the client\'s loss, named so; no engine left behind', async () => {
    const jsonPath = path.join(dir, 'killed.json');
    let engines: number[] = [];
    let sending = () => false;
    const run = await liveBench(['--endpoint', `${hub.httpUrl}/signalrbench`, ...processes, ...short(40, 250, 3), '--json', jsonPath], (child) => {
      sending = onceSending(child, 1_000, () => {
        engines = childrenOf(child.pid!);
        process.kill(engines[0]!, 'SIGKILL');
      });
    });
    expect(sending(), run.stderr).toBe(true);
    expect(engines).toHaveLength(2);
    expect(run.code, run.stderr).toBe(1);
    const result = await resultOf(run, jsonPath);
    // Planned from the arguments: 40 connections, 12 sends each, whatever was lost.
    expectAccounting(result, 40 * 12);
    expect(result.fates.notSent.workerLost).toBeGreaterThan(0);
    expect(result.workerFailures).toEqual([expect.stringMatching(/^Worker [01] failed and was stopped: its process was ended by SIGKILL before the run ended it/)]);
    expect(result.verdict.status).toBe('fail');
    expect(result.verdict.sentence).toMatch(/1 worker\(s\) were lost mid-run, the client's loss/);
    expect(run.stderr).toMatch(/1 of 2 engine\(s\) failed/);
    // The runner ended the other one.
    expect(engines.filter(alive)).toEqual([]);
  }, 30_000);

  it.sequential('a SIGTERM to the whole process group (timeout, systemd): the runner drains and writes, no engine counted lost', async () => {
    const jsonPath = path.join(dir, 'terminated.json');
    let engines: number[] = [];
    let sending = () => false;
    const run = await liveBench(['--endpoint', `${hub.httpUrl}/signalrbench`, ...processes, ...short(20, 250, 10), '--json', jsonPath], (child) => {
      sending = onceSending(child, 500, () => {
        engines = childrenOf(child.pid!);
        for (const pid of engines) process.kill(pid, 'SIGTERM');
        child.kill('SIGTERM');
      });
    });
    expect(sending(), run.stderr).toBe(true);
    expect(engines).toHaveLength(2);
    // Stopped early: not a pass, but nothing lost to the signal.
    expect(run.code, run.stderr).toBe(1);
    const result = await resultOf(run, jsonPath);
    expect(result.outcome.kind).toBe('stopped');
    expect(result.workerFailures).toEqual([]);
    expect(result.fates.notSent.workerLost ?? 0).toBe(0);
    expect(engines.filter(alive)).toEqual([]);
  }, 30_000);

  it.sequential('the runner killed (SIGKILL) mid-run: its engine processes exit with it', async () => {
    let engines: number[] = [];
    let sending = () => false;
    const run = await liveBench(['--endpoint', `${hub.httpUrl}/signalrbench`, ...processes, ...short(20, 500, 10)], (child) => {
      sending = onceSending(child, 500, () => {
        engines = childrenOf(child.pid!);
        child.kill('SIGKILL');
      });
    });
    expect(sending(), run.stderr).toBe(true);
    expect(run.code).toBeNull();
    expect(engines).toHaveLength(2);
    // Their IPC channel closed: each exits by itself within moments.
    for (let waitedMs = 0; waitedMs < 5_000 && engines.some(alive); waitedMs += 100) await sleep(100);
    expect(engines.filter(alive)).toEqual([]);
  }, 30_000);

  it.sequential('an agent with --engines processes: its share over 2 engine processes, counted exactly by the lead, none left once it leaves', async () => {
    const session = 'K7QW2MZP9RTXAGNT';
    const jsonPath = path.join(dir, 'agent.json');
    const lead = liveBench(['--lead', '--agents', '1', '--session', session, '--agents-timeout', '30', '--endpoint', `${hub.httpUrl}/signalrbench`, ...short(20, 500, 2), '--quiet', '--json', jsonPath]);
    const agent = await startAgent(`${hub.httpUrl}/control`, session, ['--once', '--join-timeout', '20', '--workers', '2', '--engines', 'processes']);
    try {
      expect(agent.stderr()).toMatch(/joined session .* with 2 engine processes/);
      // Its engines start with the run: seen while it runs.
      let engines: number[] = [];
      for (let waitedMs = 0; waitedMs < 15_000 && engines.length < 2; waitedMs += 100) {
        engines = childrenOf(agent.child.pid!);
        await sleep(100);
      }
      expect(engines).toHaveLength(2);
      const run = await lead;
      expect(run.code, run.stderr).toBe(0);
      const result = await resultOf(run, jsonPath);
      expect(result.workers).toHaveLength(2);
      expectAccounting(result, 20 * 4);
      expect(result.fates.underOneSecond).toBe(20 * 4);
      expect(await agent.exited).toBe(0);
      expect(agentCounts(agent.stdout())).toEqual({ opened: 20, sent: 80, planned: 80, received: 80 });
      for (let waitedMs = 0; waitedMs < 5_000 && engines.some(alive); waitedMs += 100) await sleep(100);
      expect(engines.filter(alive)).toEqual([]);
    } finally {
      agent.child.kill('SIGKILL');
    }
  }, 45_000);

  it.sequential('a hub without the methods, and a path where nothing answers: the same outcome as with threads', async () => {
    // The two paths side by side too: each pair's runs are compared with each other only.
    const pairs = await Promise.all(['emptyhub', 'nothing-here'].map((hubPath) => Promise.all(['threads', 'processes'].map(async (kind) => {
      const jsonPath = path.join(dir, `${hubPath}-${kind}.json`);
      const run = await liveBench(['--endpoint', `${hub.httpUrl}/${hubPath}`, '--engines', kind, '--workers', '2', ...short(4, 500, 2), '--quiet', '--json', jsonPath]);
      return { run, result: await resultOf(run, jsonPath) };
    }))));
    for (const runs of pairs) {
      const [threads, processed] = runs as [typeof runs[0], typeof runs[0]];
      expect(processed.run.code, processed.run.stderr).toBe(threads.run.code);
      expect(processed.run.code).not.toBe(0);
      expect(processed.result.outcome).toEqual(threads.result.outcome);
      expect(processed.result.fates).toEqual(threads.result.fates);
      expect(processed.result.verdict.status).toBe(threads.result.verdict.status);
      expect(processed.result.workerFailures).toEqual([]);
      expect(processed.result.errorSamples[0]?.message).toBe(threads.result.errorSamples[0]?.message);
    }
  }, 40_000);
});

describe.concurrent('engine processes against a hub in trouble', () => {
  it.sequential('the hub frozen (SIGSTOP) mid-run to the end: exit 1, the losses counted, the service named as the limit', async () => {
    const hub = await startHub();
    try {
      const jsonPath = path.join(dir, 'stalled.json');
      const { run, result } = await runWithHubFrozen(hub, ['--endpoint', `${hub.httpUrl}/signalrbench`, ...processes, ...short(20, 250, 4), '--server-metrics', `${hub.httpUrl}/metrics`, '--json', jsonPath], jsonPath);
      expect(run.code, run.stderr).toBe(1);
      expect(result.outcome.kind).toBe('finished');
      expect(result.verdict.status).toBe('fail');
      expectAccounting(result, 20 * 16);
      expect(result.fates.underOneSecond).toBeGreaterThan(0);
      expect(result.fates.lost! + Object.values(result.fates.notSent).reduce((a, b) => a + b, 0)).toBeGreaterThan((20 * 16) / 4);
      expect(result.workerFailures).toEqual([]);
      expect(run.stdout).toMatch(/Limit: (The server|Both sides were saturated: the server) stopped answering \(\d+ readings? of its metrics got no answer\)/);
      expect(run.stdout).not.toMatch(/the client is the limit/);
    } finally {
      hub.process.kill('SIGCONT');
      await hub.stop();
    }
  }, 40_000);

  it.sequential('the hub killed and restarted on its port mid-run, with --reconnect: every connection comes back, the gap counted, not a pass', async () => {
    const port = await freePort();
    let hub = await startHub({ port });
    let restarted: Promise<RunningHub> | null = null;
    try {
      const jsonPath = path.join(dir, 'restarted.json');
      let sending = () => false;
      const run = await liveBench(['--endpoint', `http://127.0.0.1:${port}/signalrbench`, ...processes, ...short(10, 250, 7), '--reconnect', '--json', jsonPath], (child) => {
        sending = onceSending(child, 1_000, () => {
          hub.process.kill('SIGKILL');
          restarted = sleep(500).then(() => startHub({ port }));
        });
      });
      expect(sending(), run.stderr).toBe(true);
      expect(restarted).not.toBeNull();
      hub = await restarted!;
      expect(run.code, run.stderr).toBe(1);
      const result = await resultOf(run, jsonPath);
      expectAccounting(result, 10 * 28);
      expect(result.verdict.status).toBe('fail');
      expect(result.workerFailures).toEqual([]);
      expect(result.totals.disconnects).toBe(10);
      expect(result.totals.reconnects, run.stdout + run.stderr).toBe(10);
      expect(result.fates.notSent.reconnecting).toBeGreaterThan(0);
      const lastArrival = result.points.filter((p) => p.received > 0).at(-1)!;
      expect(lastArrival.second).toBeGreaterThanOrEqual(5);
    } finally {
      if (restarted) hub = await (restarted as Promise<RunningHub>).catch(() => hub);
      await hub.stop();
    }
  }, 40_000);
});
