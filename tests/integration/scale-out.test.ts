/**
 * One run over two hub-sample processes that share one Redis (--Redis): the built runner spreads
 * its connections round-robin over both (--endpoint twice), so every broadcast, group message and
 * send to connection crosses between the instances. The counts are planned from the arguments;
 * the figures per instance sum to the totals. Then one instance is killed mid-run: the losses of
 * its connections are counted against it, the other's receptions are kept, and the run fails.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runHubToExit, startHub, type RunningHub } from '../support/hub-process.ts';
import { freePort, startRedis, type RunningRedis } from '../support/redis-process.ts';
import { liveBench } from '../support/live-bench.ts';
import type { RunResult } from '../../core/result/index.ts';

const CONNECTIONS = 20;
const DURATION_SEC = 2;
const INTERVAL_MS = 500;
/** Seconds sent before the judged ones in the runs of every scenario (inside --duration). */
const WARMUP_SEC = 1;
/** Slots each sender plans: one per interval over the judged seconds. */
const SLOTS = (DURATION_SEC * 1_000) / INTERVAL_MS;

let redis: RunningRedis;
let hubs: RunningHub[] = [];
const endpoints = () => hubs.flatMap((hub) => ['--endpoint', `${hub.httpUrl}/signalrbench`]);

beforeAll(async () => {
  redis = await startRedis();
  hubs = await Promise.all(['hub-a', 'hub-b'].map((name) => startHub({ extraArgs: ['--Redis', redis.configuration, '--InstanceName', name] })));
}, 60_000);

afterAll(async () => {
  await Promise.all(hubs.map((hub) => hub.stop()));
  await redis?.stop();
});

/** The built runner over both instances; `during` sees its progress lines (then not --quiet). */
async function run(args: string[], during?: Parameters<typeof liveBench>[1]): Promise<{ code: number | null; result: RunResult; stderr: string }> {
  const cli = await liveBench([...endpoints(), '--connections', String(CONNECTIONS), '--workers', '2', '--interval-ms', String(INTERVAL_MS), '--drain-s', '5', '--json', '-', ...(during ? [] : ['--quiet']), ...args], during);
  return { code: cli.code, result: JSON.parse(cli.stdout) as RunResult, stderr: cli.stderr };
}

/** The instances' figures add up to the run's: every planned reception is on one instance. */
function expectInstancesSumToTotals(result: RunResult): void {
  const instances = result.instances!;
  const sum = (pick: (i: (typeof instances)[number]) => number) => instances.reduce((total, i) => total + pick(i), 0);
  expect(sum((i) => i.connectionsPlanned)).toBe(result.config.connections);
  expect(sum((i) => i.connectionsOpened)).toBe(result.totals.connectionsOpened);
  expect(sum((i) => i.connectionsFailed)).toBe(result.totals.connectionsFailed);
  expect(sum((i) => i.planned)).toBe(result.fates.planned);
  expect(sum((i) => i.underOneSecond)).toBe(result.fates.underOneSecond);
  expect(sum((i) => i.late)).toBe(result.fates.late);
  expect(sum((i) => i.notArrived ?? NaN)).toBe((result.fates.lost ?? NaN) + Object.values(result.fates.notSent).reduce((a, b) => a + b, 0));
}

describe('two hub-samples on one Redis, one run over both', () => {
  it('say their backplane and instance when they start, and name the instance in /metrics', async () => {
    // Printed just after the line startHub waits for.
    await expect.poll(() => hubs[0]!.output()).toContain(`backplane: Redis at ${redis.configuration} (--Redis), shared with every hub-sample on it; this instance: hub-a`);
    await expect.poll(() => hubs[1]!.output()).toContain('this instance: hub-b');
    // And in /metrics, so that each instance's series can be told apart.
    const metrics = await (await fetch(`${hubs[1]!.httpUrl}/metrics`)).text();
    expect(metrics).toMatch(/^target_info\{[^}]*service_instance_id="hub-b"/m);
  });

  const cases: [scenario: string, planned: number][] = [
    // 2 senders (the default), each slot to every connection.
    ['broadcast', 2 * SLOTS * CONNECTIONS],
    // Groups of 10 (the preset), every member sends to its whole group.
    ['smallGroup', CONNECTIONS * SLOTS * 10],
    // 10 groups (the preset) of 2, one member on each instance; every member sends (40 at most).
    ['bigGroup', CONNECTIONS * SLOTS * 2],
    // Each connection to one other, half of them on the other instance.
    ['sendToConnection', CONNECTIONS * SLOTS],
  ];
  // The four runs go at once, to keep the file short: their group names and payloads carry their
  // run ids, so each counts only its own (a broadcast's messages reach the others as foreign).
  // A warm-up second, as the guide's runs have, before the judged ones: the instances' first
  // messages across Redis, four runs at once on a loaded machine, once arrived 1.3-1.7 s late in
  // all four runs together (the client on schedule), failing a test of counts on a cold start.
  let runs: Map<string, ReturnType<typeof run>>;
  beforeAll(() => {
    runs = new Map(cases.map(([scenario]) => [scenario, run(['--scenario', scenario, '--duration', String(WARMUP_SEC + DURATION_SEC), '--warmup', String(WARMUP_SEC)])]));
  });
  for (const [scenario, planned] of cases) {
    it(`${scenario}: every planned reception arrives across the instances, a pass, and each instance's share adds up`, async () => {
      const { code, result, stderr } = await runs.get(scenario)!;
      expect(code, stderr).toBe(0);
      expect(result.verdict.status).toBe('pass');
      expect(result.fates.planned).toBe(planned);
      expect(result.fates.underOneSecond + result.fates.late).toBe(planned);
      expect(result.fates.lost).toBe(0);
      expect(result.config.endpointUrls).toEqual(hubs.map((hub) => `${hub.httpUrl}/signalrbench`));
      expect(result.instances!.map((i) => [i.endpointUrl, i.connectionsPlanned, i.connectionsOpened, i.notArrived])).toEqual(hubs.map((hub) => [`${hub.httpUrl}/signalrbench`, 10, 10, 0]));
      // Round-robin: every scenario here plans the same receptions on both instances.
      expect(result.instances!.map((i) => i.planned)).toEqual([planned / 2, planned / 2]);
      expectInstancesSumToTotals(result);
      // Each instance's p99, from its own connections' receptions, within the run's range.
      for (const instance of result.instances!) expect(instance.p99Us).toBeGreaterThan(0);
      expect(Math.max(...result.instances!.map((i) => i.p99Us!))).toBeLessThanOrEqual(result.latency.maxUs!);
      expect(stderr).toContain('to 2 hub instances round-robin');
    }, 30_000);
  }

  // Last: it kills the second instance.
  it('one instance killed mid-run: its connections\' receptions are lost and counted against it, the other\'s kept, the run fails', async () => {
    let killed = false;
    const { code, result, stderr } = await run(['--scenario', 'broadcast', '--duration', '3'], (child) => {
      child.stderr!.on('data', (chunk: Buffer) => {
        // "0 s running" and on: the sends have begun; a second later, the second instance goes.
        if (killed || !/\d+ s running/.test(chunk.toString())) return;
        killed = true;
        setTimeout(() => hubs[1]!.process.kill('SIGKILL'), 1_000);
      });
    });
    expect(killed).toBe(true);
    expect(code, stderr).toBe(1);
    expect(result.verdict.status).toBe('fail');
    // Both broadcast senders (connections 0 and 10) are on the first instance: nothing went unsent.
    const [kept, killedInstance] = result.instances!;
    expect(result.fates.planned).toBe(2 * ((3 * 1_000) / INTERVAL_MS) * CONNECTIONS);
    expect(kept!.planned).toBe(result.fates.planned / 2);
    expect(kept!.notArrived).toBe(0);
    expect(kept!.underOneSecond + kept!.late).toBe(kept!.planned);
    expect(killedInstance!.connectionsOpened).toBe(10);
    expect(killedInstance!.notArrived).toBeGreaterThan(0);
    expect(killedInstance!.notArrived).toBeLessThan(killedInstance!.planned);
    expect(result.fates.lost).toBe(killedInstance!.notArrived);
    expectInstancesSumToTotals(result);
    expect(result.totals.disconnects).toBe(10);
  }, 40_000);
});

describe('a hub-sample whose Redis cannot be used', () => {
  it('is refused at start within seconds, saying what to do (exit 2): none there, a configuration it cannot read, a wrong password', async () => {
    const port = await freePort();
    const started = Date.now();
    const guarded = await startRedis(['--requirepass', 'the-right-one']);
    const [unreachable, malformed, refused] = await Promise.all([
      runHubToExit(['--port', '0', '--Redis', `127.0.0.1:${port}`], 20_000),
      runHubToExit(['--port', '0', '--Redis', '127.0.0.1:6379,password=never-shown,colour=blue'], 20_000),
      runHubToExit(['--port', '0', '--Redis', `${guarded.configuration},password=never-shown-either`], 20_000),
    ]).finally(() => guarded.stop());
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr).toContain(`--Redis: no Redis answered at 127.0.0.1:${port} within 5 s`);
    expect(unreachable.stderr).toContain('redis-server --port <port>');
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain("--Redis is not a StackExchange.Redis configuration (Keyword 'colour' is not supported");
    expect(malformed.stderr).not.toContain('never-shown');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`--Redis: the Redis at ${guarded.configuration} refused this hub's credentials (authentication failure). Check password=`);
    expect(refused.stderr).not.toContain('never-shown-either');
  }, 40_000);
});
