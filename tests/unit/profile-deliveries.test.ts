/**
 * The deliveries to users and lists (user, users, groups, groupExcept) and what every delivery
 * plans: what each allows and needs in its arguments, how its lists are bound, and the receptions
 * each send plans, against a small independent model that enumerates each send's receivers by
 * brute force over many configurations (one function, core/profiles/shapes.ts receptionsPerSend,
 * through core/profiles/receivers.ts, for the engine's plan, the lost-worker share, the
 * per-instance split and the guide's expected traffic). Then the refusals of what cannot work and
 * a run on the fake hub planning and receiving exactly the model's counts.
 */
import { describe, expect, it } from 'vitest';
import {
  bindArgs, checkHubProfile, deliveryProblems, receptionsPerSend, runReceivers, userProblems, type DeliverKind, type HubProfile,
} from '../../core/profiles/index.ts';
import { validateRunConfig, type RunConfig } from '../../core/run-config/config.ts';
import { planScenario, type ScenarioPlan } from '../../core/plan/scenario-roles.ts';
import { plannedOfShare } from '../../core/accounting/planned-receptions.ts';
import { instanceOf } from '../../core/plan/instance-of.ts';
import { groupMembersPerInstance, instanceLists, recipientsPerInstance } from '../../core/run-config/hub-instances.ts';
import { RunCoordinator, type WorkerPort } from '../../core/execution/coordinator.ts';
import type { FromWorker } from '../../core/execution/worker-messages.ts';
import { guideRunConfig } from '../../core/tiers/tier-figures.ts';
import { BenchEngine } from '../../workers/engine/bench-engine.ts';
import { classifyPlainly, fakeHub } from '../support/fake-connections.ts';
import { FakeTime } from '../support/fake-time.ts';

const MEASURE = { method: 'Measure', arg: 1 };
const JOIN = { method: 'JoinGroup', args: ['{group}'] };

/** A profile of each delivery, as the hub-sample's test hubs take them (the fake hub routes these). */
const PROFILES: Record<Exclude<DeliverKind, 'stream'>, HubProfile> = {
  self: { name: 'self', send: { method: 'Echo', args: ['{time}', '{message}'] }, receive: MEASURE, deliver: 'self' },
  return: { name: 'return', send: { method: 'EchoReturn', args: ['{message}'] }, deliver: 'return' },
  all: { name: 'all', send: { method: 'Broadcast', args: ['{time}', '{message}'] }, receive: MEASURE, deliver: 'all' },
  others: { name: 'others', send: { method: 'Broadcast', args: ['{time}', '{message}'] }, receive: MEASURE, deliver: 'others' },
  group: { name: 'group', join: JOIN, send: { method: 'GroupBroadcast', args: ['{group}', '{time}', '{message}'] }, receive: MEASURE, deliver: 'group' },
  groupOthers: { name: 'groupOthers', join: JOIN, send: { method: 'GroupBroadcast', args: ['{group}', '{time}', '{message}'] }, receive: MEASURE, deliver: 'groupOthers' },
  groupExcept: { name: 'groupExcept', join: JOIN, send: { method: 'SendToGroupExcept', args: ['{group}', '{excluded}', '{time}', '{message}'] }, receive: MEASURE, deliver: 'groupExcept' },
  groups: { name: 'groups', join: JOIN, send: { method: 'SendToGroups', args: ['{groups}', '{time}', '{message}'] }, receive: MEASURE, deliver: 'groups' },
  target: { name: 'target', send: { method: 'SendToConnection', args: ['{target}', '{time}', '{message}'] }, receive: MEASURE, deliver: 'target' },
  user: { name: 'user', send: { method: 'SendToUser', args: ['{user}', '{time}', '{message}'] }, receive: MEASURE, deliver: 'user' },
  users: { name: 'users', send: { method: 'SendToUsers', args: ['{users}', '{time}', '{message}'] }, receive: MEASURE, deliver: 'users' },
};

const errorsOf = (value: unknown) => {
  const result = checkHubProfile(value);
  return result.ok ? [] : result.errors;
};

describe('what each delivery allows and needs in its arguments', () => {
  it('every delivery\'s own profile reads', () => {
    for (const profile of Object.values(PROFILES)) expect(errorsOf(profile), profile.deliver).toEqual([]);
  });

  it('a list delivery without its list, groupExcept without {group}, user without {user}, target without {target}: each refused naming send.args', () => {
    const without = (deliver: keyof typeof PROFILES, args: unknown[]) => errorsOf({ ...PROFILES[deliver], send: { method: 'Send', args } });
    expect(without('users', ['{user}', '{message}'])).toEqual([expect.stringMatching(/^send\.args: deliver "users" needs \{users\}, but send\.args has none: .*Put "\{users\}" where the hub takes it/)]);
    expect(without('groups', ['{group}', '{message}'])).toEqual([expect.stringMatching(/^send\.args: deliver "groups" needs \{groups\}/)]);
    expect(without('groupExcept', ['{group}', '{message}'])).toEqual([expect.stringMatching(/^send\.args: deliver "groupExcept" needs \{excluded\}/)]);
    expect(without('groupExcept', ['{excluded}', '{message}'])).toEqual([expect.stringMatching(/^send\.args: deliver "groupExcept" needs \{group\}/)]);
    expect(without('user', ['ann', '{message}'])).toEqual([expect.stringMatching(/^send\.args: deliver "user" needs \{user\}/)]);
    expect(without('target', ['{message}'])).toEqual([expect.stringMatching(/^send\.args: deliver "target" needs \{target\}, .*a hub that answers the caller would pass for a send to another connection/)]);
  });

  it('a list placeholder only with its delivery, only in send.args, only as a whole string', () => {
    expect(errorsOf({ ...PROFILES.all, send: { method: 'S', args: ['{users}', '{message}'] } }))
      .toEqual([expect.stringMatching(/^send\.args\[0\]: \{users\} is only known in send\.args with deliver "users" \(deliver is "all"\)/)]);
    expect(errorsOf({ ...PROFILES.groups, join: { method: 'J', args: ['{group}', '{groups}'] } }))
      .toEqual([expect.stringMatching(/^join\.args\[1\]: \{groups\} is only known in send\.args with deliver "groups"/)]);
    expect(errorsOf({ ...PROFILES.groupExcept, send: { method: 'S', args: ['{group}', 'not {excluded}', '{message}'] } }))
      .toEqual([expect.stringMatching(/^send\.args\[1\]: "not \{excluded\}": \{excluded\} must be the whole argument/)]);
    // Inside an object, a whole string still stands for the list.
    expect(errorsOf({ ...PROFILES.users, send: { method: 'S', args: [{ to: '{users}', text: '{message}' }] } })).toEqual([]);
  });

  it('groups and groupExcept are group deliveries: join required, {group} known', () => {
    const { join: _join, ...noJoin } = PROFILES.groups;
    expect(errorsOf(noJoin)).toEqual([expect.stringMatching(/^join: required with deliver "groups"/)]);
    const { join: _join2, ...noJoin2 } = PROFILES.groupExcept;
    expect(errorsOf(noJoin2)).toEqual([expect.stringMatching(/^join: required with deliver "groupExcept"/)]);
    expect(errorsOf({ ...PROFILES.groups, send: { method: 'S', args: ['{groups}', '{group}', '{message}'] } })).toEqual([]);
  });
});

describe('binding the lists', () => {
  it('{users} and {groups} are arrays passed whole; {excluded} is read at each send; {env:NAME} is filled in any string', () => {
    let id = 'c-1';
    const values = { connection: 4, group: 'r-g1', target: null, user: 'ann', users: ['ann', 'bob'], groups: ['r-g1', 'r-g2'], excluded: () => [id], env: { ROOM_KEY: 'k3y' } };
    const args = bindArgs({ method: 'S', args: ['{users}', '{groups}', '{excluded}', { key: '{env:ROOM_KEY}', who: '{user}-{env:ROOM_KEY}' }, '{message}'] }, values);
    expect(args(0, 'm')).toEqual([['ann', 'bob'], ['r-g1', 'r-g2'], ['c-1'], { key: 'k3y', who: 'ann-k3y' }, 'm']);
    // A reconnect gives a new id: the next send leaves out the new one.
    id = 'c-1b';
    expect(args(0, 'm')[2]).toEqual(['c-1b']);
  });
});

// ---- The independent model: each send's receivers, enumerated. ----

/** The user of connection i: its token's (token i mod n); null without tokens. */
const userOfModel = (i: number, tokens: readonly (string | null)[]) => (tokens.length === 0 ? null : tokens[i % tokens.length]!);

/** Every configured connection that receives one send of `sender`, by brute force. */
function modelReceivers(deliver: DeliverKind, connections: number, plan: ScenarioPlan, tokens: readonly (string | null)[], sender: number, target: number): number[] {
  const all = Array.from({ length: connections }, (_, i) => i);
  const inGroup = (g: number) => all.filter((i) => plan.groupOf(i) === g);
  const g = plan.groupOf(sender);
  switch (deliver) {
    case 'self': case 'return': case 'stream': return [sender];
    case 'target': return [target];
    case 'all': return all;
    case 'others': return all.filter((i) => i !== sender);
    case 'group': return inGroup(g);
    case 'groupOthers': case 'groupExcept': return inGroup(g).filter((i) => i !== sender);
    case 'groups': return all.filter((i) => plan.groupOf(i) === g || plan.groupOf(i) === (g + 1) % plan.groupCount);
    case 'user': return all.filter((i) => userOfModel(i, tokens) === userOfModel(sender, tokens));
    case 'users': {
      // The tokens the connections take, from the one after the sender's, around: the first other user.
      const used = tokens.slice(0, connections);
      const own = userOfModel(sender, tokens);
      const t = sender % Math.max(1, tokens.length);
      const next = [...used.slice(t + 1), ...used.slice(0, t)].find((user) => user !== own && user !== null);
      return all.filter((i) => userOfModel(i, tokens) === own || (next !== undefined && userOfModel(i, tokens) === next));
    }
  }
}

/** Configurations spanning every delivery's shapes, sizes (groups of 2, uneven groups, members
 *  left in no group, fewer senders) and token lists (none, one user, repeated users, more tokens
 *  than connections). */
function configurations(): { config: RunConfig; tokens: (string | null)[] }[] {
  const TOKENS: (string | null)[][] = [[], ['ann'], ['ann', 'bob', 'ann', 'cy'], ['ann', 'ann'], ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n']];
  const out: { config: RunConfig; tokens: (string | null)[] }[] = [];
  const add = (deliver: keyof typeof PROFILES, input: Record<string, unknown>, tokens: (string | null)[] = []) => {
    const result = validateRunConfig({ endpointUrl: 'http://fake/hub', durationSec: 2, sendIntervalMs: 500, warmupSec: 0, workers: 1, hubProfile: PROFILES[deliver], ...input });
    if (!result.ok) throw new Error(`${deliver} ${JSON.stringify(input)}: ${result.errors.join(' ')}`);
    out.push({ config: result.config, tokens });
  };
  for (const connections of [1, 2, 3, 5, 8]) {
    add('self', { connections });
    add('return', { connections });
    add('all', { connections });
    if (connections >= 2) add('others', { connections });
    if (connections >= 2) add('target', { connections });
    for (const senders of [null, 1, 3]) {
      if (senders !== null && senders > connections) continue;
      for (const tokens of TOKENS) {
        add('user', { connections, senders }, tokens);
        add('users', { connections, senders }, tokens);
      }
    }
  }
  const groupInputs = [
    { scenario: 'smallGroup', connections: 2 }, { scenario: 'smallGroup', connections: 7 }, { scenario: 'smallGroup', connections: 23 },
    { scenario: 'bigGroup', connections: 25 }, { scenario: 'smallGroup', connections: 10, groupSize: 3, groupCount: 2, senders: 4 },
    { scenario: 'smallGroup', connections: 9, groupSize: 3 }, { scenario: 'bigGroup', connections: 12, groupCount: 1 },
  ];
  for (const input of groupInputs) for (const deliver of ['group', 'groupOthers', 'groupExcept', 'groups'] as const) add(deliver, input);
  return out;
}

describe('receptions per send: one function, against the model', () => {
  const INSTANCES = 3;
  const SLOTS = (2 * 1_000) / 500;

  it('for every delivery and configuration: each sender\'s slot, its split over instances, the share\'s totals and the guide\'s average are the model\'s', () => {
    let checked = 0;
    for (const { config, tokens } of configurations()) {
      const deliver = config.hubProfile!.deliver;
      const planned = planScenario(config);
      if (!planned.ok) throw new Error(planned.errors.join());
      const { plan } = planned;
      const receivers = runReceivers({ deliver, connections: config.connections, plan, tokenUsers: tokens });
      const lists = instanceLists(config, plan, INSTANCES, tokens);
      const groupTable = plan.groupCount > 0 ? groupMembersPerInstance(config.connections, plan, INSTANCES) : null;
      let total = 0;
      let senders = 0;
      for (let sender = 0; sender < config.connections; sender++) {
        const sends = plan.isSender(sender) && (plan.groupCount === 0 || plan.groupOf(sender) >= 0);
        const target = (sender + 1) % config.connections;
        const model = sends ? modelReceivers(deliver, config.connections, plan, tokens, sender, target) : [];
        const where = `${deliver} ${config.scenario} n=${config.connections} senders=${config.senders} tokens=${tokens.join(',')} sender ${sender}`;
        expect(receivers.perSlot(sender), where).toBe(model.length);
        if (sends) expect(receptionsPerSend(deliver, receivers.countsOf(sender)), where).toBe(model.length);
        if (sends) {
          const perInstance = recipientsPerInstance(config, plan, INSTANCES, sender, target, groupTable, lists);
          const modelPerInstance = new Array<number>(INSTANCES).fill(0);
          for (const receiver of model) modelPerInstance[instanceOf(receiver, INSTANCES)]!++;
          expect(perInstance, where).toEqual(modelPerInstance);
        }
        total += model.length;
        if (plan.isSender(sender)) senders++;
        checked++;
      }
      // The lost-worker share, for one share holding every connection: every slot of every sender.
      const share = plannedOfShare(config, { firstIndex: 0, count: config.connections }, { runStartUs: 0, sendStartUs: 1_000_000, sendEndUs: 3_000_000, warmupEndUs: 1_000_000 }, tokens);
      expect([...share.values()].reduce((a, b) => a + b, 0), `${deliver} share`).toBe(SLOTS * total);
      const guide = guideRunConfig(config, tokens);
      if (!guide.ok) throw new Error(guide.error);
      expect(guide.guide.recipientsPerMessage, `${deliver} guide`).toBeCloseTo(senders > 0 ? total / senders : 0, 9);
    }
    expect(checked).toBeGreaterThan(900);
  });

  it('others and groupOthers plan one reception fewer than all and group per send, in the lost-worker share too (it went by scenario)', () => {
    const config = (deliver: keyof typeof PROFILES, input: Record<string, unknown>) => {
      const result = validateRunConfig({ endpointUrl: 'http://fake/hub', durationSec: 2, sendIntervalMs: 500, warmupSec: 0, hubProfile: PROFILES[deliver], ...input });
      if (!result.ok) throw new Error(result.errors.join());
      return result.config;
    };
    const sum = (c: RunConfig) => [...plannedOfShare(c, { firstIndex: 0, count: c.connections }, { runStartUs: 0, sendStartUs: 1e6, sendEndUs: 3e6, warmupEndUs: 1e6 }).values()].reduce((a, b) => a + b, 0);
    // Broadcast's 2 senders x 4 slots x 10 (all) or 9 (others).
    expect(sum(config('all', { connections: 10 }))).toBe(2 * 4 * 10);
    expect(sum(config('others', { connections: 10 }))).toBe(2 * 4 * 9);
    // Small groups of 5: 10 senders x 4 slots x 5 (group) or 4 (groupOthers, groupExcept), 10 (groups: two groups).
    expect(sum(config('group', { connections: 10, groupSize: 5 }))).toBe(10 * 4 * 5);
    expect(sum(config('groupOthers', { connections: 10, groupSize: 5 }))).toBe(10 * 4 * 4);
    expect(sum(config('groupExcept', { connections: 10, groupSize: 5 }))).toBe(10 * 4 * 4);
    expect(sum(config('groups', { connections: 10, groupSize: 5 }))).toBe(10 * 4 * 10);
  });
});

describe('refused before the run', () => {
  const validate = (deliver: keyof typeof PROFILES, input: Record<string, unknown>) => validateRunConfig({ endpointUrl: 'http://fake/hub', hubProfile: PROFILES[deliver], ...input });

  it('others with one connection runs for nothing: refused naming the profile\'s deliver and the connections', () => {
    const result = validate('others', { connections: 1, workers: 1 });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toEqual([{ fields: ['hubProfile', 'connections'], message: expect.stringMatching(/^Hub profile: deliver: "others" with 1 connection runs for nothing: .*Raise the connections to at least 2, or deliver "all"\.$/) }]);
    expect(validate('all', { connections: 1, workers: 1 }).ok).toBe(true);
  });

  it('groupOthers and groupExcept with groups of one run for nothing (the plan makes none, the check holds for any plan)', () => {
    const plan = { groupCount: 3, membersOf: (g: number) => [2, 1, 1][g]! };
    expect(deliveryProblems(PROFILES.groupExcept, 4, plan)).toEqual([expect.stringMatching(/^deliver: "groupExcept" with groups of one \(2 of the 3 groups\) runs for nothing/)]);
    expect(deliveryProblems(PROFILES.groupOthers, 4, plan)).toHaveLength(1);
    expect(deliveryProblems(PROFILES.group, 4, plan)).toEqual([]);
    expect(validate('groupExcept', { connections: 2, workers: 1 }).ok).toBe(true);
  });

  it('user and users without tokens naming users', () => {
    const jwt = (claims: object) => `h.${btoa(JSON.stringify(claims)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_')}.s`;
    expect(userProblems(PROFILES.users, [])).toEqual([expect.stringMatching(/^The profile "users" delivers "users", to the users named by the connections' access tokens, but the run has no token\./)]);
    expect(userProblems(PROFILES.user, [jwt({ sub: 'ann' }), 'opaque'])).toEqual([expect.stringContaining('1 of the 2 access tokens name no user')]);
    expect(userProblems(PROFILES.users, [jwt({ sub: 'ann' }), jwt({ sub: 'bob' })])).toEqual([]);
  });
});

describe('a run on the fake hub plans and receives the model\'s counts', () => {
  const jwt = (sub: string) => `h.${btoa(JSON.stringify({ sub })).replace(/=+$/, '')}.s`;

  async function run(deliver: keyof typeof PROFILES, input: Record<string, unknown>, tokens: string[] = [], faults: { failStart?: Set<number>; failJoin?: Set<number> } = {}) {
    const result = validateRunConfig({ endpointUrl: 'http://fake/hub', durationSec: 2, sendIntervalMs: 500, warmupSec: 0, workers: 2, hubProfile: PROFILES[deliver], ...input });
    if (!result.ok) throw new Error(result.errors.join());
    const config = result.config;
    const time = new FakeTime();
    const hub = fakeHub(time, { deliveryDelayMs: 2, ...faults });
    const handlers: ((message: FromWorker) => void)[] = [];
    const ports: WorkerPort[] = Array.from({ length: config.workers }, (_, index) => {
      const engine = new BenchEngine({ clock: time, timers: time, connect: hub.factory, classify: classifyPlainly, post: (m) => handlers[index]?.(m) });
      return { post: (m) => engine.handle(m), onMessage: (h) => (handlers[index] = h), terminate: () => void engine.finish() };
    });
    const credentials = { accessTokens: tokens.map(jwt), headers: [], query: [] };
    const coordinator = new RunCoordinator(config, ports, time, time, tokens.length > 0 ? { credentials } : {});
    coordinator.start();
    await time.advanceByMs(30_000);
    expect(coordinator.phase).toBe('done');
    const planned = planScenario(config);
    if (!planned.ok) throw new Error(planned.errors.join());
    let expected = 0;
    for (let sender = 0; sender < config.connections; sender++) {
      if (planned.plan.isSender(sender)) expected += 4 * modelReceivers(deliver, config.connections, planned.plan, tokens, sender, -1).length;
    }
    return { totals: coordinator.aggregator.totals(), fates: coordinator.aggregator.fates(), expected, hub };
  }

  it.each([
    ['groups', { connections: 10, groupSize: 5 }, []],
    ['groups', { connections: 9, groupSize: 3 }, []],
    ['groupExcept', { connections: 10, groupSize: 5 }, []],
    ['user', { connections: 7, senders: 3 }, ['ann', 'bob', 'ann']],
    ['users', { connections: 7, senders: 3 }, ['ann', 'bob', 'ann', 'cy']],
    ['users', { connections: 5 }, ['ann']],
  ] as const)('%s %j tokens %j: planned and received as the model counts, nothing lost, duplicated or unplanned', async (deliver, input, tokens) => {
    const { totals, fates, expected, hub } = await run(deliver, input, [...tokens]);
    expect(expected).toBeGreaterThan(0);
    expect(fates.planned).toBe(expected);
    expect(totals.received).toBe(expected);
    expect(totals.duplicated).toBe(0);
    expect(totals.unsolicited).toBe(0);
    // What the hub was given: the lists as arrays, the excluded id the sender's own.
    const sends = hub.connections.flatMap((c, index) => c.sent.filter((s) => s.method.startsWith('SendTo')).map((s) => ({ c, index, args: s.args })));
    expect(sends.length).toBeGreaterThan(0);
    for (const { c, index, args } of sends) {
      // The fake hub's ids: fake-<n> for its n-th connection (the run is over: they are closed now).
      if (deliver === 'groupExcept') expect(args[1]).toEqual([`fake-${index}`]);
      if (deliver === 'groups' || deliver === 'users') expect(Array.isArray(args[0])).toBe(true);
      if (deliver === 'user') expect(args[0]).toBe(c.user);
    }
  });

  it('receivers absent at "go" are planned and counted never sent for their absence: a user\'s connection that never opened, a member that never joined', async () => {
    // One worker: the fake hub's n-th connection is connection n. Tokens ann, bob: connection 3 (bob) never opens.
    const users = await run('user', { connections: 6, senders: 2, workers: 1 }, ['ann', 'bob'], { failStart: new Set([3]) });
    // Broadcast's 2 senders are 0 (ann: 0, 2, 4 receive) and 3 (bob: 1, 3, 5), 4 slots each. Sender
    // 3 never opened: each of its slots plans 3, of which 1 (itself) is absent and 2 never sent
    // (disconnected); ann's 12 all arrive.
    expect(users.expected).toBe(2 * 4 * 3);
    expect(users.fates.planned).toBe(users.expected);
    expect(users.fates.notSent.receiverAbsent).toBe(4);
    expect(users.totals.received).toBe(4 * 3);
    // groups: groups of 3 (0-2, 3-5, 6-8), each sending to its own and the next; connection 4 never
    // joins group 1, which the 6 senders of groups 0 and 1 reach, 4 slots each.
    const groups = await run('groups', { connections: 9, groupSize: 3, workers: 1 }, [], { failJoin: new Set([4]) });
    expect(groups.fates.planned).toBe(groups.expected);
    expect(groups.fates.notSent.receiverAbsent).toBe(6 * 4);
    expect(groups.totals.received).toBe(groups.expected - 6 * 4);
    expect(groups.totals.duplicated).toBe(0);
  });
});
