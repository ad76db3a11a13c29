/**
 * Who sends and who is in which group, computed from a connection's run-wide index alone, so
 * every worker knows its part without exchanging lists.
 */
import { BIG_GROUP_COUNT, BIG_GROUP_MAX_SENDERS, MIN_GROUP_SIZE, planGroups, SMALL_GROUP_SIZE, type GroupProblem } from './group-membership.ts';
import { PLAN_WORDS } from './words.ts';
import type { GuideScenario } from '../guide/index.ts';

/** The guide's use cases, named as in core/guide: the five of the default mode, then the two of
 *  its serverless mode, whose sends go by HTTP POST to the REST API (core/serverless). */
export const SCENARIOS = ['echo', 'broadcast', 'smallGroup', 'bigGroup', 'sendToConnection', 'restBroadcast', 'restSendToUser'] as const satisfies readonly GuideScenario[];
export type ScenarioName = (typeof SCENARIOS)[number];

/** Scenarios where each message reaches every configured connection. */
const TO_EVERYONE: readonly ScenarioName[] = ['broadcast', 'restBroadcast'];
/** Scenarios where every connection sends to one other (a derangement of the connections). */
const TO_ANOTHER: readonly ScenarioName[] = ['sendToConnection', 'restSendToUser'];

/** Whether a scenario's senders each send to one other connection, chosen by derangement (send to
 *  connection by its id, send to user through the REST API by its user). */
export function sendsToAnother(scenario: ScenarioName): boolean {
  return TO_ANOTHER.includes(scenario);
}

/** Whether each message of a scenario reaches every configured connection. */
export function sendsToEveryone(scenario: ScenarioName): boolean {
  return TO_EVERYONE.includes(scenario);
}

/** What a plan is made from: the run configuration's scenario, load and group fields. */
export interface PlanInput {
  scenario: ScenarioName;
  connections: number;
  /** null: the scenario's default. */
  senders: number | null;
  groupSize: number | null;
  groupCount: number | null;
}

export interface ScenarioPlan {
  senderCount: number;
  isSender(connectionIndex: number): boolean;
  /** 0 when the scenario has no groups. */
  groupCount: number;
  /** Group index of a connection; -1 when it is in none. */
  groupOf(connectionIndex: number): number;
  groupName(groupIndex: number): string;
  /** Configured members of a group: what each send to it plans, whoever joined. */
  membersOf(groupIndex: number): number;
  /**
   * Connections whose messages reach this one, as configured: what its duplicate window is sized
   * for (workers/engine/reception-ledger.ts). Echo: 1 (itself); broadcast: every sender; a group:
   * its group's senders (0 outside any group); send to connection: 1 (the targets are a
   * derangement, so each connection is the target of exactly one other).
   */
  sendersHeardBy(connectionIndex: number): number;
}

/** Broadcast senders when none are given: the guide's default of 2 (it uses at most 4). Its
 *  broadcast through the REST API publishes 2 inbound messages per second at 1 s: 2 senders too. */
export const DEFAULT_BROADCAST_SENDERS = 2;

export type PlanResult = { ok: true; plan: ScenarioPlan } | { ok: false; errors: string[]; problems: GroupProblem[] };

function refused(...problems: GroupProblem[]): PlanResult {
  return { ok: false, errors: problems.map((problem) => problem.message), problems };
}

export function planScenario(config: PlanInput): PlanResult {
  if (config.scenario === 'smallGroup' || config.scenario === 'bigGroup') return planGroupScenario(config);
  const senders = config.senders ?? defaultSenders(config.scenario, config.connections);
  if (senders > config.connections) {
    return refused({ fields: ['senders', 'connections'], message: PLAN_WORDS.sendersOutnumberConnections({ senders, connections: config.connections }) });
  }
  if (sendsToAnother(config.scenario) && config.connections < 2) {
    return refused({ fields: ['connections'], message: config.scenario === 'restSendToUser' ? PLAN_WORDS.sendToUserNeedsTwo() : PLAN_WORDS.sendToConnectionNeedsTwo() });
  }
  return {
    ok: true,
    plan: {
      senderCount: senders,
      isSender: (index) => isSpreadSender(index, senders, config.connections),
      groupCount: 0,
      groupOf: () => -1,
      groupName: () => '',
      membersOf: () => 0,
      sendersHeardBy: () => (sendsToEveryone(config.scenario) ? senders : 1),
    },
  };
}

function defaultSenders(scenario: ScenarioName, connections: number): number {
  return sendsToEveryone(scenario) ? Math.min(DEFAULT_BROADCAST_SENDERS, connections) : connections;
}

/** `senders` of `connections` chosen evenly across the indices (and so across the workers). */
export function isSpreadSender(index: number, senders: number, connections: number): boolean {
  if (senders >= connections) return true;
  return index === 0 || Math.floor((index * senders) / connections) !== Math.floor(((index - 1) * senders) / connections);
}

function planGroupScenario(config: PlanInput): PlanResult {
  const small = config.scenario === 'smallGroup';
  const custom = config.groupSize !== null || config.groupCount !== null || config.senders !== null;
  const conflict = custom ? typedGroupConflict(config) : null;
  if (conflict) return refused(conflict);
  const result = custom
    ? planGroups({ connections: config.connections, preset: 'custom', ...customGroups(config, small) })
    : planGroups({ connections: config.connections, preset: small ? 'smallGroups' : 'bigGroups' });
  if (!result.ok) return result;
  const groups = result.plan;
  return {
    ok: true,
    plan: {
      senderCount: groups.senderCount,
      isSender: (index) => groups.isSender(index),
      groupCount: groups.groupCount,
      groupOf: (index) => groups.groupOf(index),
      groupName: (groupIndex) => groups.groupName(groupIndex),
      membersOf: (groupIndex) => groups.membersOf(groupIndex),
      sendersHeardBy: (index) => {
        const group = groups.groupOf(index);
        return group < 0 ? 0 : groups.sendersOf(group);
      },
    },
  };
}

/**
 * A group size or count that cannot fit the connections, said with the values typed: the value
 * left empty would be derived from it as 0 or 1 ("Group count ... is 0", "Senders ... is 0"),
 * numbers nobody typed. Null when the typed values fit, or when both are typed (group-membership.ts
 * then names both).
 */
function typedGroupConflict({ connections: n, groupSize, groupCount }: PlanInput): GroupProblem | null {
  const whole = (v: number | null): v is number => v !== null && Number.isInteger(v) && v >= 1;
  if (!Number.isInteger(n) || n < MIN_GROUP_SIZE) return null;
  if (groupCount === null && whole(groupSize) && groupSize >= MIN_GROUP_SIZE && groupSize > n) {
    return { fields: ['groupSize', 'connections'], message: PLAN_WORDS.groupSizeExceedsConnections({ groupSize, connections: n }) };
  }
  if (groupSize === null && whole(groupCount) && groupCount * MIN_GROUP_SIZE > n) {
    return { fields: ['groupCount', 'connections'], message: PLAN_WORDS.groupCountExceedsConnections({ groupCount, connections: n, min: MIN_GROUP_SIZE }) };
  }
  return null;
}

/** What the user left empty comes from the preset's rule: small groups of 10 where every
 *  member sends; 10 big groups with at most 40 senders. Connections left over join no group. */
function customGroups(config: Omit<PlanInput, 'scenario'>, small: boolean) {
  const n = config.connections;
  const groupSize = config.groupSize ?? (config.groupCount ? Math.floor(n / config.groupCount) : small ? SMALL_GROUP_SIZE : Math.floor(n / BIG_GROUP_COUNT));
  const groupCount = config.groupCount ?? Math.floor(n / Math.max(1, groupSize));
  const members = groupSize * groupCount;
  const senders = config.senders ?? (small ? members : Math.min(BIG_GROUP_MAX_SENDERS, members));
  return { groupSize, groupCount, senders };
}
