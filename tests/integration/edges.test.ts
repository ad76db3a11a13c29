/**
 * The newest ways of running against a hub in trouble: a hub profile against a hub frozen
 * (SIGSTOP) mid-run and against one killed and restarted mid-run with --reconnect, one of two
 * Redis-backed instances frozen mid-run (and then Redis itself), a led run whose hub, also its
 * control hub, freezes mid-run for 5 s and for 12 s (past the lead's watchdog: the agents' threads
 * are given up, but not as the client's loss), and a hub frozen mid-ramp (the connecting bounded).
 * Each run is short and small; none may read as a pass, each counts what it planned from its
 * arguments, and blames the side that broke.
 */
import type { ChildProcess } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_CODE_ALPHABET } from '../../cli/lead-args.ts';
import type { RunResult } from '../../core/result/result.ts';
import { limitOfResult } from '../../core/result/limit.ts';
import { failuresOfSide } from '../../core/client/connect-causes.ts';
import { expectAccounting } from '../support/accounting.ts';
import { agentCounts, startAgent, type RunningAgent } from '../support/agents.ts';
import { startHub, type RunningHub } from '../support/hub-process.ts';
import { liveBench, onceSending, resultOf, runWithHubFrozen, type CliRun } from '../support/live-bench.ts';
import { freePort, startRedis, type RunningRedis } from '../support/redis-process.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'live-bench-edges-'));
});



/** What never arrived for any reason: lost, or never sent. */
const missing = (result: RunResult) => result.fates.lost! + Object.values(result.fates.notSent).reduce((a, b) => a + b, 0);

// Chat rooms: 10 connections in 2 rooms of 5, each sends every 250 ms to its room.
const rooms = (durationSec: number) => ['--hub-profile', 'profiles/chat-rooms.json', '--connections', '10', '--group-size', '5', '--interval-ms', '250',
  '--duration', String(durationSec), '--warmup', '0', '--workers', '1', '--drain-s', '2'];
const roomsPlanned = (durationSec: number) => 10 * ((durationSec * 1_000) / 250) * 5;

// Lanes run at once to keep the file short (their runs mostly wait on frozen hubs); within each, one run at a time (the machine is
// small, and each lane's hubs are shared by its runs).
describe.concurrent('one hub frozen mid-run, thawed for the next run', () => {
  let hub: RunningHub;
  const agents: RunningAgent[] = [];
  beforeAll(async () => {
    hub = await startHub({ extraArgs: ['--EnableTestHubs', 'true'] });
  }, 60_000);
  afterAll(async () => {
    for (const agent of agents) agent.child.kill('SIGKILL');
    hub?.process.kill('SIGCONT');
    await hub?.stop();
  });

  it.sequential('a hub profile, the hub frozen (SIGSTOP) to the end: exit 1, the losses counted, the service named as the limit, every planned reception counted', async () => {
    try {
      const jsonPath = path.join(dir, 'profile-stalled.json');
      // Frozen until the runner has ended: its drain gives up by itself.
      const { run, result } = await runWithHubFrozen(hub, ['--endpoint', `${hub.httpUrl}/chathub`, ...rooms(4), '--server-metrics', `${hub.httpUrl}/metrics`, '--json', jsonPath], jsonPath);
      expect(run.code, run.stderr).toBe(1);
      expect(result.outcome.kind).toBe('finished');
      expect(result.verdict.status).toBe('fail');
      expectAccounting(result, roomsPlanned(4));
      // What went before the freeze arrived; what came after did not, and is counted as lost or never sent.
      expect(result.fates.underOneSecond).toBeGreaterThan(0);
      expect(missing(result)).toBeGreaterThan(roomsPlanned(4) / 4);
      expect(run.stderr).toMatch(/live-bench: \d+ lost: [\d.]+% of 800 planned receptions did not arrive exactly once/);
      // Who broke: the service, which stopped answering (on a machine this loaded, the client
      // may have fallen behind too: then both are named, never the client alone).
      expect(run.stdout).toMatch(/Limit: (The server|Both sides were saturated: the server) stopped answering \(\d+ readings? of its metrics got no answer\)/);
      expect(run.stdout).not.toMatch(/the client is the limit/);
    } finally {
      hub.process.kill('SIGCONT');
    }
  }, 40_000);

  it.sequential('a led run, its hub (the control hub too) frozen for 5 s: the lead ends by itself, exit 1 (late is not a pass), the agents report their figures and leave, the lead keeps them', async () => {
    try {
      const session = Array.from({ length: 16 }, () => SESSION_CODE_ALPHABET[randomInt(SESSION_CODE_ALPHABET.length)]).join('');
      const jsonPath = path.join(dir, 'lead-stalled.json');
      let sending = () => false;
      const lead = liveBench(['--lead', '--agents', '2', '--session', session, '--agents-timeout', '30', '--endpoint', `${hub.httpUrl}/signalrbench`,
        '--connections', '20', '--interval-ms', '250', '--duration', '4', '--warmup', '0', '--drain-s', '5', '--json', jsonPath], (child) => {
        sending = onceSending(child, 500, () => {
          hub.process.kill('SIGSTOP');
          setTimeout(() => hub.process.kill('SIGCONT'), 5_000);
        });
      });
      agents.push(...await Promise.all([1, 2].map((i) => startAgent(`${hub.httpUrl}/control`, session, ['--once', '--join-timeout', '20', '--workers', '1', '--name', `agent-${i}`]))));
      const run = await lead;
      expect(sending(), run.stderr).toBe(true);
      expect(run.code, run.stderr).toBe(1);
      // Bounded: the 4-s run, the 5-s freeze and the drain, within the watchdog's (10 s) and SignalR's (30 s) time-outs.
      expect(run.elapsedMs).toBeLessThan(30_000);
      const result = await resultOf(run, jsonPath);
      expect(result.verdict.status).toBe('fail');
      expectAccounting(result, 20 * 16);
      // What was sent during the freeze came late, and the lead has every agent's figures.
      expect(result.fates.late).toBeGreaterThan(0);
      expect(result.workers.filter((w) => w.lost)).toHaveLength(0);
      const own = await Promise.all(agents.map(async (agent) => {
        expect(await agent.exited).toBe(0);
        return agentCounts(agent.stdout());
      }));
      expect(own.reduce((sum, c) => sum + c.planned, 0)).toBe(result.fates.planned);
      expect(own.reduce((sum, c) => sum + c.received, 0)).toBe(result.totals.received);
      expect(own.reduce((sum, c) => sum + c.sent, 0)).toBe(result.totals.sent);
    } finally {
      hub.process.kill('SIGCONT');
    }
  }, 40_000);
});

// Its own hub, so the 12-s freeze runs beside the first lane's runs rather than after them.
describe.concurrent('a led run whose hub stays frozen past the lead\'s watchdog', () => {
  let hub: RunningHub;
  const agents: RunningAgent[] = [];
  beforeAll(async () => {
    hub = await startHub();
  }, 60_000);
  afterAll(async () => {
    for (const agent of agents) agent.child.kill('SIGKILL');
    hub?.process.kill('SIGCONT');
    await hub?.stop();
  });

  it('a led run, its hub (the control hub too) frozen for 12 s, past the lead\'s watchdog: the agents\' threads are given up, but not as the client\'s loss; exit 1, every planned reception counted, each agent prints its own figures', async () => {
    try {
      const session = Array.from({ length: 16 }, () => SESSION_CODE_ALPHABET[randomInt(SESSION_CODE_ALPHABET.length)]).join('');
      const jsonPath = path.join(dir, 'lead-stalled-long.json');
      let sending = () => false;
      const lead = liveBench(['--lead', '--agents', '2', '--session', session, '--agents-timeout', '30', '--endpoint', `${hub.httpUrl}/signalrbench`,
        '--connections', '20', '--interval-ms', '250', '--duration', '3', '--warmup', '0', '--drain-s', '3', '--json', jsonPath], (child) => {
        sending = onceSending(child, 500, () => {
          hub.process.kill('SIGSTOP');
          setTimeout(() => hub.process.kill('SIGCONT'), 12_000);
        });
      });
      const own = await Promise.all([1, 2].map((i) => startAgent(`${hub.httpUrl}/control`, session, ['--once', '--join-timeout', '20', '--workers', '1', '--name', `long-${i}`])));
      agents.push(...own);
      const run = await lead;
      expect(sending(), run.stderr).toBe(true);
      expect(run.code, run.stderr).toBe(1);
      // Bounded: the watchdog's 10 s, the thaw at 12 s, the closing clock round (at most 16 s).
      expect(run.elapsedMs).toBeLessThan(45_000);
      const result = await resultOf(run, jsonPath);
      expect(result.verdict.status).toBe('fail');
      expectAccounting(result, 20 * 12);
      // Both agents' threads given up for silence, the control hub silent with them: not the client's.
      const lost = result.workers.filter((w) => w.lost);
      expect(lost).toHaveLength(2);
      for (const worker of lost) expect(['service', 'unknown']).toContain(worker.lostSide);
      expect(result.verdict.sentence).toMatch(/^Fail: the agents' reports stopped together with the control hub: 2 agent thread\(s\) were given up for silence/);
      expect(result.verdict.sentence).not.toMatch(/the client's loss/);
      expect(result.workerFailures.join('\n')).toMatch(/stopped together with the control hub at http:\/\/127\.0\.0\.1:\d+\/control, the run's own hub/);
      expect(limitOfResult(result).side).not.toBe('client');
      expect(run.stdout).not.toMatch(/the client is the limit/);
      expect(run.stderr).toMatch(/2 of 2 engine\(s\) were lost \(2 of them with the control hub, not known to be the client's\)/);
      // Each agent, cut off by the lead, still prints what its threads measured.
      for (const agent of own) {
        expect(await agent.exited).toBe(0);
        expect(agentCounts(agent.stdout()).planned).toBeGreaterThan(0);
      }
    } finally {
      hub.process.kill('SIGCONT');
    }
  }, 60_000);
});

describe.concurrent('a hub frozen mid-ramp', () => {
  let hub: RunningHub;
  beforeAll(async () => {
    hub = await startHub();
  }, 60_000);
  afterAll(async () => {
    hub?.process.kill('SIGCONT');
    await hub?.stop();
  });

  it('600 connects at 2 in flight, the hub frozen once some opened: the connecting ends a connect time-out after the last answer, the rest counted not opened (the hub\'s), the run goes on to its window and ends within 27 s of the freeze, exit 1, every planned reception owed', async () => {
    try {
      const jsonPath = path.join(dir, 'frozen-mid-ramp.json');
      let froze = false;
      let frozeAtMs = 0;
      const startedAtMs = Date.now();
      const run = await liveBench(['--endpoint', `${hub.httpUrl}/signalrbench`, '--connections', '600', '--connect-concurrency', '2', '--workers', '1',
        '--interval-ms', '1000', '--duration', '2', '--warmup', '0', '--drain-s', '2', '--json', jsonPath], (child) => {
        let said = '';
        child.stderr!.on('data', (chunk: Buffer) => {
          said += chunk.toString();
          // Mid-ramp: the first progress line with some open (about 1 s in, a few hundred here;
          // a loaded machine opens fewer, never all 600 in that time at 2 in flight).
          if (froze || !/connecting\s+open [1-9]\d* of 600/.test(said)) return;
          froze = true;
          frozeAtMs = Date.now();
          hub.process.kill('SIGSTOP');
        });
      });
      hub.process.kill('SIGCONT');
      expect(froze, run.stderr).toBe(true);
      expect(run.code, run.stderr).toBe(1);
      // Bounded from the freeze: a connect time-out (15 s) and a look (1 s), "go" (0.25 s), the 2-s
      // window and its 2-s drain, about 21 s (20 s here, idle); before, each connect not opened
      // waited out its own 15 s, 2 at a time.
      expect(startedAtMs + run.elapsedMs - frozeAtMs).toBeLessThan(27_000);
      const result = await resultOf(run, jsonPath);
      // The connections that opened may time out on the frozen hub (SignalR's server time-out) once
      // sends begin, which ends the run as failed early: either way it fails, owing its plan.
      expect(['finished', 'failed']).toContain(result.outcome.kind);
      expect(result.verdict.status).toBe('fail');
      // Every planned reception counts: 600 connections x 2 slots, opened or not.
      expectAccounting(result, 1_200);
      const { connectionsOpened, connectionsFailed } = result.totals;
      expect(connectionsOpened).toBeGreaterThan(0);
      expect(connectionsOpened + connectionsFailed).toBe(600);
      expect(result.connectCauses!.stoppedAnswering).toBeGreaterThan(0);
      expect(failuresOfSide(result.connectCauses, 'service')).toBe(connectionsFailed);
      expect(missing(result)).toBeGreaterThanOrEqual(2 * connectionsFailed);
      // Said as it happens, and the method check skipped rather than waited on.
      expect(result.errorSamples.map((e) => e.message)).toContain('The method check and group joins were skipped: the hub had stopped answering connects.');
      expect(run.stderr).toMatch(/live-bench: \d+ of this worker's 600 connections were not tried: the hub stopped answering connects: none answered for \d+ s \(a whole connect time limit\)/);
      // Who broke: the service, which stopped answering connects (a client that fell behind on this
      // loaded machine makes it both, never the client alone).
      const limit = limitOfResult(result);
      expect(['server', 'both'], limit.sentence).toContain(limit.side);
      expect(limit.sentence).toMatch(/the server stopped answering connects mid-ramp \(\d+ connections? not opened for it\)/i);
      // Why: a frozen hub, not a capacity. Nothing came back on the connections that opened, and its
      // /healthz did not answer at the end (or the client's server timeout closed them first).
      expect(result.diagnosis).toMatchObject({ cause: 'hubStalled', side: 'service' });
      expect(result.health).toEqual([expect.objectContaining({ status: null })]);
    } finally {
      hub.process.kill('SIGCONT');
    }
  }, 60_000);
});

describe.concurrent('two hub-samples on one Redis frozen in part mid-run, then a hub killed and restarted mid-run', () => {
  let redis: RunningRedis;
  let hubs: RunningHub[] = [];
  beforeAll(async () => {
    redis = await startRedis();
    hubs = await Promise.all(['hub-a', 'hub-b'].map((name) => startHub({ extraArgs: ['--Redis', redis.configuration, '--InstanceName', name] })));
  }, 60_000);
  afterAll(async () => {
    for (const hub of hubs) hub.process.kill('SIGCONT');
    redis?.process.kill('SIGCONT');
    await Promise.all(hubs.map((hub) => hub.stop()));
    await redis?.stop();
  });

  /** Broadcast from connections 0 and 10 (both on the first instance) to all 20, every 500 ms for 3 s. */
  async function broadcast(freeze: () => ChildProcess): Promise<{ run: CliRun; result: RunResult }> {
    const jsonPath = path.join(dir, `scale-out-${randomInt(1e9)}.json`);
    let sending = () => false;
    const run = await liveBench([...hubs.flatMap((hub) => ['--endpoint', `${hub.httpUrl}/signalrbench`]), '--scenario', 'broadcast', '--connections', '20', '--workers', '2',
      '--interval-ms', '500', '--duration', '3', '--drain-s', '2', '--json', jsonPath], (child) => {
      sending = onceSending(child, 1_000, () => freeze().kill('SIGSTOP'));
    });
    expect(sending(), run.stderr).toBe(true);
    return { run, result: await resultOf(run, jsonPath) };
  }

  it.sequential('one instance frozen mid-run: its connections\' receptions counted against it, the other\'s kept, exit 1', async () => {
    const { run, result } = await broadcast(() => hubs[1]!.process);
    hubs[1]!.process.kill('SIGCONT');
    expect(run.code, run.stderr).toBe(1);
    expect(result.verdict.status).toBe('fail');
    expectAccounting(result, 2 * 6 * 20);
    const [kept, frozen] = result.instances!;
    expect(kept!.planned).toBe(2 * 6 * 10);
    expect(kept!.notArrived).toBe(0);
    expect(kept!.underOneSecond + kept!.late).toBe(kept!.planned);
    expect(frozen!.planned).toBe(2 * 6 * 10);
    expect(frozen!.notArrived).toBeGreaterThan(0);
    // Only the frozen instance's connections lost anything.
    expect(result.fates.lost).toBe(frozen!.notArrived);
  }, 30_000);

  it.sequential('Redis frozen mid-run: the deliveries through it stop, exit 1, not a pass', async () => {
    const { run, result } = await broadcast(() => redis.process);
    redis.process.kill('SIGCONT');
    expect(run.code, run.stderr).toBe(1);
    expect(result.verdict.status).toBe('fail');
    expectAccounting(result, 2 * 6 * 20);
    expect(result.fates.lost).toBeGreaterThan(0);
    // Both instances' connections depend on it: each lost receptions.
    for (const instance of result.instances!) expect(instance.notArrived).toBeGreaterThan(0);
  }, 30_000);

  it.sequential('a hub profile with --reconnect, the hub killed and restarted on its port mid-run: every connection comes back and rejoins its room, messages flow again, the gap counted, not a pass', async () => {
    const port = await freePort();
    let hub = await startHub({ extraArgs: ['--EnableTestHubs', 'true', '--port', String(port)] });
    let restarted: Promise<RunningHub> | null = null;
    try {
      const jsonPath = path.join(dir, 'profile-restarted.json');
      let sending = () => false;
      // 8 s of sends: the kill 1 s in, the new hub up a few seconds later, then sends resume.
      const run = await liveBench(['--endpoint', `http://127.0.0.1:${port}/chathub`, ...rooms(8), '--reconnect', '--json', jsonPath], (child) => {
        sending = onceSending(child, 1_000, () => {
          hub.process.kill('SIGKILL');
          restarted = sleep(500).then(() => startHub({ extraArgs: ['--EnableTestHubs', 'true', '--port', String(port)] }));
        });
      });
      expect(sending(), run.stderr).toBe(true);
      expect(restarted).not.toBeNull();
      hub = await restarted!;
      expect(run.code, run.stderr).toBe(1);
      const result = await resultOf(run, jsonPath);
      expectAccounting(result, roomsPlanned(8));
      expect(result.verdict.status).toBe('fail');
      expect(result.totals.disconnects).toBe(10);
      expect(result.totals.reconnects, run.stdout + run.stderr).toBe(10);
      // The new hub knows no rooms: each connection called JoinRoom again once it was back.
      expect(result.drops!.totals.rejoined).toBe(10);
      expect(result.drops!.totals.rejoinFailed).toBe(0);
      expect(result.drops!.neverBack).toBe(0);
      // The gap's cost: what fell due while reconnecting was never sent, what was in flight lost.
      expect(result.fates.notSent.reconnecting).toBeGreaterThan(0);
      // After the restart messages arrived again, in the run's last seconds.
      const lastArrival = result.points.filter((p) => p.received > 0).at(-1)!;
      expect(lastArrival.second).toBeGreaterThanOrEqual(5);
      expect(result.fates.underOneSecond).toBeGreaterThan(10 * 4 * 5);
    } finally {
      if (restarted) hub = await (restarted as Promise<RunningHub>).catch(() => hub);
      await hub.stop();
    }
  }, 40_000);
});
