/**
 * One run over several hub instances (core/run-config/hub-instances.ts): the round-robin spread, the
 * receptions each slot plans per instance, the endpoint list's validation, and the engine on a
 * fake hub counting per instance what the run counts in total, including an instance that dies.
 */
import { describe, expect, it } from 'vitest';
import { validateRunConfig, type RunConfig } from '../../core/run-config/config.ts';
import { configToQuery, queryToFields } from '../../core/run-config/config-url.ts';
import { instanceOf } from '../../core/plan/instance-of.ts';
import { connectionsPerInstance, groupMembersPerInstance, hubInstances, instanceFigures, recipientsPerInstance } from '../../core/run-config/hub-instances.ts';
import { planScenario } from '../../core/plan/scenario-roles.ts';
import { parseRunResult, type RunResult } from '../../core/result/result.ts';
import { runResult } from '../../core/result/document.ts';
import { notSentOf } from '../../core/accounting/fates.ts';
import { RunCoordinator, type WorkerPort } from '../../core/execution/coordinator.ts';
import type { FromWorker } from '../../core/execution/worker-messages.ts';
import { BenchEngine } from '../../workers/engine/bench-engine.ts';
import { runSummary } from '../../core/report/run-summary.ts';
import { clientSchedule } from '../../core/client/schedule.ts';
import { summaryText } from '../../cli/report.ts';
import { classifyPlainly, fakeHub, type FakeConnection } from '../support/fake-connections.ts';
import { FakeTime } from '../support/fake-time.ts';

const A = 'http://a.test:5181/signalrbench';
const B = 'http://b.test:5182/signalrbench';
const C = 'http://c.test:5183/signalrbench';

function config(overrides: Partial<Record<keyof RunConfig, unknown>>): RunConfig {
  const result = validateRunConfig({ endpointUrl: `${A},${B}`, sendIntervalMs: 100, durationSec: 1, ...overrides });
  if (!result.ok) throw new Error(result.errors.join('\n'));
  return result.config;
}

describe('the round-robin spread', () => {
  it.each([
    ['even', 20, 2, [10, 10]],
    ['uneven: the first instances take the remainder', 5, 3, [2, 2, 1]],
    ['fewer connections than instances', 2, 3, [1, 1, 0]],
  ])('%s: %i connections over %i instances', (_, connections, instances, expected) => {
    expect(connectionsPerInstance(connections, instances)).toEqual(expected);
    const counted = new Array<number>(instances).fill(0);
    for (let i = 0; i < connections; i++) counted[instanceOf(i, instances)]!++;
    expect(counted).toEqual(expected);
  });

  it('each scenario plans, per instance, receptions that sum to what a slot plans', () => {
    for (const scenario of ['echo', 'broadcast', 'smallGroup', 'bigGroup', 'sendToConnection'] as const) {
      const c = config({ scenario, connections: 30, endpointUrl: [A, B, C] });
      const planned = planScenario(c);
      if (!planned.ok) throw new Error(planned.errors.join());
      const { plan } = planned;
      const table = groupMembersPerInstance(c.connections, plan, 3);
      for (let sender = 0; sender < c.connections; sender++) {
        const target = (sender + 7) % c.connections;
        const perInstance = recipientsPerInstance(c, plan, 3, sender, target, table);
        const slot = scenario === 'broadcast' ? c.connections : scenario === 'echo' || scenario === 'sendToConnection' ? 1 : plan.membersOf(plan.groupOf(sender));
        expect(perInstance.reduce((a, b) => a + b, 0), `${scenario} sender ${sender}`).toBe(slot);
        if (scenario === 'echo') expect(perInstance[instanceOf(sender, 3)]).toBe(1);
        if (scenario === 'sendToConnection') expect(perInstance[instanceOf(target, 3)]).toBe(1);
      }
    }
  });
});

describe('a hub profile over several instances', () => {
  const profile = (deliver: string) => ({ name: deliver, send: { method: 'Send', args: deliver === 'target' ? ['{target}', '{message}'] : deliver.startsWith('group') ? ['{group}', '{message}'] : ['{message}'] }, ...(deliver === 'return' ? {} : { receive: { method: 'Got', arg: 0 } }), ...(deliver.startsWith('group') ? { join: { method: 'Join', args: ['{group}'] } } : {}), deliver });

  it.each([
    ['self', 'echo'], ['return', 'echo'], ['all', 'broadcast'], ['others', 'broadcast'], ['group', 'smallGroup'], ['groupOthers', 'bigGroup'], ['target', 'sendToConnection'],
  ] as const)('%s: per instance, the receptions of one send sum to what the delivery plans, none at the sender for the "others" kinds', (deliver, shape) => {
    const c = config({ scenario: shape, connections: 30, endpointUrl: [A, B, C], hubProfile: profile(deliver) });
    expect(c.hubProfile?.deliver).toBe(deliver);
    const planned = planScenario(c);
    if (!planned.ok) throw new Error(planned.errors.join());
    const { plan } = planned;
    const table = groupMembersPerInstance(c.connections, plan, 3);
    for (let sender = 0; sender < c.connections; sender++) {
      if (!plan.isSender(sender)) continue;
      const target = (sender + 7) % c.connections;
      const perInstance = recipientsPerInstance(c, plan, 3, sender, target, table);
      const members = plan.groupCount > 0 ? plan.membersOf(plan.groupOf(sender)) : 0;
      const slot = { self: 1, return: 1, target: 1, all: 30, others: 29, group: members, groupOthers: members - 1 }[deliver];
      expect(perInstance.reduce((a, b) => a + b, 0), `${deliver} sender ${sender}`).toBe(slot);
      if (deliver === 'self' || deliver === 'return') expect(perInstance[instanceOf(sender, 3)]).toBe(1);
      if (deliver === 'target') expect(perInstance[instanceOf(target, 3)]).toBe(1);
      if (deliver === 'others') expect(perInstance[instanceOf(sender, 3)]).toBe(connectionsPerInstance(30, 3)[instanceOf(sender, 3)]! - 1);
    }
  });
});

describe('the endpoint list', () => {
  it('takes one URL as before, or several comma or line separated, or an array (--endpoint repeated)', () => {
    expect(config({ endpointUrl: A }).endpointUrls).toBeUndefined();
    expect(hubInstances(config({ endpointUrl: A }))).toEqual([A]);
    for (const given of [`${A},${B}`, `${A}\n${B}\n`, ` ${A} , ${B} `, [A, B], [`${A},${B}`]]) {
      const c = config({ endpointUrl: undefined, endpointUrls: given });
      expect(c.endpointUrl).toBe(A);
      expect(c.endpointUrls).toEqual([A, B]);
    }
  });

  it('says what is wrong with each, an instance listed twice, and too many', () => {
    const errors = (endpointUrl: unknown) => {
      const result = validateRunConfig({ endpointUrl });
      return result.ok ? [] : result.errors;
    };
    expect(errors(`${A},ftp://x/hub`)).toEqual([expect.stringMatching(/^Endpoint "ftp:\/\/x\/hub" uses ftp/)]);
    expect(errors(`${A},${B},${A}`)).toEqual([`Endpoint lists ${A} more than once: list each hub instance once (the connections are spread evenly over the list).`]);
    expect(errors(Array.from({ length: 65 }, (_, i) => `http://h${i}/signalrbench`).join(','))[0]).toMatch(/^Endpoint lists 65 hub instances, but a run spreads over at most 64/);
    expect(errors('')).toEqual(['Endpoint is empty. Enter the hub URL, for example http://127.0.0.1:5180/signalrbench.']);
  });

  it('travels in a link as the form takes it', () => {
    const c = config({ connections: 4 });
    const fields = queryToFields(`?${configToQuery(c)}`);
    expect(fields.endpointUrl).toBe(`${A},${B}`);
    expect(config({ ...fields }).endpointUrls).toEqual([A, B]);
  });
});

/** A whole run on a fake hub that remembers which URL each connection was made for. */
async function fakeRunOverInstances(runConfig: RunConfig, during?: (connections: FakeConnection[], urls: string[], time: FakeTime) => void) {
  const time = new FakeTime();
  const hub = fakeHub(time, { deliveryDelayMs: 3 });
  const urls: string[] = [];
  const ports: WorkerPort[] = Array.from({ length: runConfig.workers }, () => {
    let handler: (message: FromWorker) => void = () => {};
    const connect = (options: Parameters<typeof hub.factory>[0]) => {
      const connection = hub.factory(options);
      // By run-wide index, as the fake hub numbers them: each is built at its connect, across workers in no fixed order.
      urls[options.index!] = options.endpointUrl;
      return connection;
    };
    const engine = new BenchEngine({ clock: time, timers: time, connect, classify: classifyPlainly, post: (m) => handler(m) });
    return { post: (m) => engine.handle(m), onMessage: (h) => (handler = h), terminate: () => void engine.finish() };
  });
  const coordinator = new RunCoordinator(runConfig, ports, time, time);
  coordinator.start();
  during?.(hub.connections, urls, time);
  await time.advanceByMs(30_000);
  expect(coordinator.phase).toBe('done');
  return { hub, urls, result: runResult(coordinator, new Date(0), 'test') };
}

function expectInstancesSumToTotals(result: RunResult): void {
  const instances = result.instances!;
  const sum = (pick: (i: (typeof instances)[number]) => number) => instances.reduce((total, i) => total + pick(i), 0);
  expect(sum((i) => i.planned)).toBe(result.fates.planned);
  expect(sum((i) => i.underOneSecond + i.late + i.afterDrain)).toBe(result.fates.underOneSecond + result.fates.late + result.fates.afterDrain);
  expect(sum((i) => i.notArrived!)).toBe(result.fates.lost! + notSentOf(result.fates));
  expect(sum((i) => i.connectionsOpened)).toBe(result.totals.connectionsOpened);
  expect(sum((i) => i.connectionsPlanned)).toBe(result.config.connections);
}

describe('the engine over two instances', () => {
  it('opens each connection on its instance, by run-wide index across workers, and counts per instance what it counts in total', async () => {
    for (const scenario of ['echo', 'broadcast', 'smallGroup', 'bigGroup', 'sendToConnection'] as const) {
      const { hub, urls, result } = await fakeRunOverInstances(config({ scenario, connections: 20, workers: 3 }));
      // The fake hub numbers connections by run-wide index (ConnectionOptions.index).
      expect(urls, scenario).toEqual(hub.connections.map((_, i) => (i % 2 === 0 ? A : B)));
      expect(result.fates.lost, scenario).toBe(0);
      expect(result.instances!.map((i) => i.notArrived), scenario).toEqual([0, 0]);
      expect(result.instances!.map((i) => i.connectionsOpened), scenario).toEqual([10, 10]);
      // Each instance's p99 is measured from its own receptions: the fake hub delivers in 3 ms.
      for (const instance of result.instances!) expect(instance.p99Us, scenario).toBeGreaterThanOrEqual(2_900);
      expect(Math.max(...result.instances!.map((i) => i.p99Us!)), scenario).toBeLessThanOrEqual(result.latency.maxUs!);
      expectInstancesSumToTotals(result);
    }
  });

  it('an instance that dies mid-run: its connections\' receptions are not arrived, the other\'s all arrive', async () => {
    const { result } = await fakeRunOverInstances(config({ scenario: 'broadcast', connections: 10, workers: 2, durationSec: 2 }), (connections, urls, time) => {
      // Half-way through the sends, every connection of B is closed by its server.
      time.setTimeout(() => connections.forEach((c, i) => urls[i] === B && c.serverClose(new Error('The server went away.'))), 2_000);
    });
    const [a, b] = result.instances!;
    // The 2 broadcast senders are connections 0 and 5: one on each instance.
    expect(a!.planned).toBe(b!.planned);
    expect(a!.notArrived).toBeGreaterThan(0); // B's sender stopped sending: never sent to A's connections
    expect(b!.notArrived).toBeGreaterThan(a!.notArrived!);
    expect(b!.underOneSecond).toBeGreaterThan(0);
    expect(result.verdict.status).toBe('fail');
    expectInstancesSumToTotals(result);
  });

  it('a document keeps its instances through a file, and one without them reads as a run on one instance', async () => {
    const { result } = await fakeRunOverInstances(config({ scenario: 'echo', connections: 4, workers: 2 }));
    const read = parseRunResult(JSON.stringify(result));
    expect(read.instances).toEqual(result.instances);
    expect(hubInstances(read.config)).toEqual([A, B]);
    const { instances: _, ...single } = result;
    const older = parseRunResult(JSON.stringify({ ...single, config: { ...result.config, endpointUrls: undefined } }));
    expect(older.instances).toBeUndefined();
    expect(hubInstances(older.config)).toEqual([A]);
    expect(summaryText(older)).not.toContain('instance 1');
  });

  it('a run on one instance has no per-instance figures', async () => {
    const { result } = await fakeRunOverInstances(config({ scenario: 'echo', connections: 4, workers: 2, endpointUrl: A }));
    expect(result.instances).toBeUndefined();
    expect(instanceFigures(result.config, null, true)).toBeNull();
  });
});

describe('the summary per instance', () => {
  it('words each instance once, for the runner and the report, with unknown as unknown until drained', async () => {
    const { result } = await fakeRunOverInstances(config({ scenario: 'broadcast', connections: 10, workers: 2 }));
    const summary = runSummary({ ...result, schedule: clientSchedule({ points: result.points, missedSlots: 0, sent: result.totals.sent }) });
    expect(summary.instances).toEqual([
      { endpointUrl: A, connections: '5 planned, 5 opened, 0 failed', receptions: expect.stringMatching(/^\d+ receptions planned: \d+ in under 1 s \(100\.00%\), 0 later, 0 not arrived \(lost or never sent\); p99 \d+\.\d+ ms$/) },
      { endpointUrl: B, connections: '5 planned, 5 opened, 0 failed', receptions: expect.any(String) },
    ]);
    const text = summaryText(result);
    expect(text).toContain(`to 2 hub instances round-robin (${A}, ${B})`);
    expect(text).toContain(`  instance 2, ${B}: connections ${summary.instances![1]!.connections}; ${summary.instances![1]!.receptions}`);
    const live = instanceFigures(result.config, result.instances!, false)!;
    expect(live.map((i) => i.notArrived)).toEqual([null, null]);
    expect(runSummary({ ...result, instances: live, schedule: clientSchedule({ points: [], missedSlots: 0, sent: 0 }) }).instances![0]!.receptions).toMatch(/0 not arrived yet; p99 –$/);
  });
});
