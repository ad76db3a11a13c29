/**
 * Which group each connection joins, and which connections send, in the "send to group" scenario.
 * Everything is computed from the connection's run-wide index and the plan's few numbers, so every
 * worker (and every Node agent) finds the same answer alone, without exchanging member lists.
 *
 * The presets follow the "Send to group" section of Microsoft's "Performance guide for Azure
 * SignalR Service" (seed copies in /work/shared/seeds/; quoted from 000_cb4405eaa29212c8.txt, the
 * German one, lines 278, 280 and 322; the Swedish, Italian, Japanese and Chinese ones agree):
 * - small group: "Each group has 10 connections. The group number equals (max connection count)
 *   / 10", e.g. 1,000 connections make 100 groups. The guide's text says "many client connections
 *   call the hub"; we let every connection send. (Its table shows 200 inbound messages/s for 1,000
 *   connections, so at its measured limit not every connection sent every second.)
 * - big group: "The group number is always 10. The group member count equals (max connection
 *   count) / 10", e.g. 1,000 connections make groups of 100. Its senders: "The number of sending
 *   connections is no more than 40." (Its table shows 20 inbound messages/s.)
 * The newer edition (004_8fe1d903a2f5fc44.txt) adds that these counts "are not hard limits", only
 * values chosen for a stable benchmark: hence the custom plan.
 *
 * Layout: members take contiguous index blocks, group 0 first, and the first members of each group
 * are its senders. Workers also get contiguous index ranges, so senders end up spread over workers
 * as evenly as over groups. When the members do not divide evenly, the first groups take one
 * member more (as `splitConnections` does for workers): every group stays within one member of the
 * others, where a short last group could be left with a single member, an echo rather than a group.
 */
import { PLAN_WORDS } from './words.ts';

export const GROUP_PRESETS = ['smallGroups', 'bigGroups', 'custom'] as const;
export type GroupPreset = (typeof GROUP_PRESETS)[number];

/** The guide's small group: members per group. */
export const SMALL_GROUP_SIZE = 10;
/** The guide's big group: number of groups. */
export const BIG_GROUP_COUNT = 10;
/** The guide's big group: "no more than 40" sending connections. */
export const BIG_GROUP_MAX_SENDERS = 40;
/** A group of one only sends its messages back to its sender: that is echo, not group routing. */
export const MIN_GROUP_SIZE = 2;

export interface GroupPlanInput {
  /** Connections in the whole run. */
  connections: number;
  /** smallGroups and bigGroups ignore the three fields below; custom needs all three. */
  preset: GroupPreset;
  /** custom: members of every group, at least 2. */
  groupSize?: number;
  /** custom: number of groups, at least 1. groupSize x groupCount may be below connections: the
   *  connections left over join no group, send nothing and receive no group messages. */
  groupCount?: number;
  /** custom: sending connections, spread over the groups, at most groupSize x groupCount. */
  senders?: number;
}

export interface GroupPlan {
  readonly connections: number;
  readonly groupCount: number;
  /** Members of the largest group; groups differ by at most one member (the first ones are larger). */
  readonly groupSize: number;
  /** Connections that belong to a group. Equals connections except in custom plans. */
  readonly memberCount: number;
  readonly senderCount: number;
  /** Group of a connection, 0..groupCount-1, or -1 when it is in no group (custom plans only). */
  groupOf(connectionIndex: number): number;
  /** Hub group name, e.g. "group-3". */
  groupName(groupIndex: number): string;
  /** Whether the connection sends, to its own group. */
  isSender(connectionIndex: number): boolean;
  membersOf(groupIndex: number): number;
  /** Senders in a group: what each member of it should receive from, per send interval. */
  sendersOf(groupIndex: number): number;
}

/** A problem with the group settings and the run settings it is about (named as RunConfig names them). */
export interface GroupProblem {
  fields: ('connections' | 'scenario' | 'groupSize' | 'groupCount' | 'senders')[];
  message: string;
}

export type GroupPlanResult = { ok: true; plan: GroupPlan } | { ok: false; errors: string[]; problems: GroupProblem[] };

/** Checks the input, listing every problem at once, and builds the plan. */
export function planGroups(input: GroupPlanInput): GroupPlanResult {
  const errors: GroupProblem[] = [];
  const { connections, preset } = input;
  const connectionsOk = isWhole(connections) && connections >= MIN_GROUP_SIZE;
  if (!connectionsOk) {
    errors.push({ fields: ['connections'], message: PLAN_WORDS.groupConnections({ min: MIN_GROUP_SIZE, connections }) });
  }
  if (!(GROUP_PRESETS as readonly unknown[]).includes(preset)) {
    errors.push({ fields: ['scenario'], message: PLAN_WORDS.groupPreset({ presets: GROUP_PRESETS, preset }) });
    return refused(errors);
  }
  if (preset === 'smallGroups') {
    if (!connectionsOk) return refused(errors);
    return ok(connections, connections, Math.ceil(connections / SMALL_GROUP_SIZE), connections);
  }
  if (preset === 'bigGroups') {
    const needed = BIG_GROUP_COUNT * MIN_GROUP_SIZE;
    if (connectionsOk && connections < needed) {
      errors.push({ fields: ['connections'], message: PLAN_WORDS.bigGroupsConnections({ needed, groups: BIG_GROUP_COUNT, min: MIN_GROUP_SIZE, connections }) });
    }
    if (errors.length > 0) return refused(errors);
    return ok(connections, connections, BIG_GROUP_COUNT, Math.min(BIG_GROUP_MAX_SENDERS, connections));
  }
  return planCustom(input, connectionsOk, errors);
}

function planCustom(input: GroupPlanInput, connectionsOk: boolean, errors: GroupProblem[]): GroupPlanResult {
  const { connections, groupSize, groupCount, senders } = input;
  const sizeOk = isWhole(groupSize) && groupSize >= MIN_GROUP_SIZE;
  if (!sizeOk) {
    errors.push({ fields: ['groupSize'], message: PLAN_WORDS.groupSize({ min: MIN_GROUP_SIZE, groupSize }) });
  }
  const countOk = isWhole(groupCount) && groupCount >= 1;
  if (!countOk) errors.push({ fields: ['groupCount'], message: PLAN_WORDS.groupCount({ groupCount }) });
  const sendersOk = isWhole(senders) && senders >= 1;
  if (!sendersOk) {
    errors.push({ fields: ['senders'], message: PLAN_WORDS.groupSenders({ senders }) });
  }
  if (!connectionsOk || !sizeOk || !countOk) return refused(errors);

  const members = groupSize * groupCount;
  if (members > connections) {
    errors.push({ fields: ['groupSize', 'groupCount', 'connections'], message: PLAN_WORDS.groupsTooLarge({ groupCount, groupSize, members, connections }) });
  } else if (sendersOk && senders > members) {
    errors.push({ fields: ['senders'], message: PLAN_WORDS.sendersOutnumberMembers({ senders, members }) });
  }
  if (errors.length > 0 || !sendersOk) return refused(errors);
  return ok(connections, members, groupCount, senders);
}

function refused(problems: GroupProblem[]): GroupPlanResult {
  return { ok: false, errors: problems.map((problem) => problem.message), problems };
}

function ok(connections: number, members: number, groups: number, senders: number): GroupPlanResult {
  return { ok: true, plan: new BalancedGroups(connections, members, groups, senders) };
}

/**
 * Members 0..memberCount-1 in contiguous blocks, the first `memberCount % groupCount` blocks one
 * longer; senders likewise, the first `senderCount % groupCount` groups one more. A group never
 * gets more senders than members: senderCount <= memberCount puts the extra senders only in
 * groups that also have the extra member.
 */
class BalancedGroups implements GroupPlan {
  readonly groupSize: number;
  readonly #small: number;
  readonly #largeGroups: number;
  readonly #largeSpan: number;

  constructor(
    readonly connections: number,
    readonly memberCount: number,
    readonly groupCount: number,
    readonly senderCount: number,
  ) {
    this.#small = Math.floor(memberCount / groupCount);
    this.#largeGroups = memberCount % groupCount;
    this.#largeSpan = this.#largeGroups * (this.#small + 1);
    this.groupSize = this.#small + (this.#largeGroups > 0 ? 1 : 0);
  }

  // Indices out of range are the caller's bug: plain Errors (internal), never a person's input.
  groupOf(connectionIndex: number): number {
    if (!isWhole(connectionIndex) || connectionIndex < 0 || connectionIndex >= this.connections) {
      throw new Error(
        `Connection index ${String(connectionIndex)} is outside this run's 0..${this.connections - 1}; ` +
          'pass the run-wide index (share.firstIndex + local index).',
      );
    }
    if (connectionIndex >= this.memberCount) return -1;
    if (connectionIndex < this.#largeSpan) return Math.floor(connectionIndex / (this.#small + 1));
    return this.#largeGroups + Math.floor((connectionIndex - this.#largeSpan) / this.#small);
  }

  groupName(groupIndex: number): string {
    this.#checkGroup(groupIndex);
    return `group-${groupIndex}`;
  }

  isSender(connectionIndex: number): boolean {
    const group = this.groupOf(connectionIndex);
    return group >= 0 && connectionIndex - this.#firstMemberOf(group) < this.sendersOf(group);
  }

  membersOf(groupIndex: number): number {
    this.#checkGroup(groupIndex);
    return this.#small + (groupIndex < this.#largeGroups ? 1 : 0);
  }

  sendersOf(groupIndex: number): number {
    this.#checkGroup(groupIndex);
    return Math.floor(this.senderCount / this.groupCount) + (groupIndex < this.senderCount % this.groupCount ? 1 : 0);
  }

  #firstMemberOf(groupIndex: number): number {
    if (groupIndex < this.#largeGroups) return groupIndex * (this.#small + 1);
    return this.#largeSpan + (groupIndex - this.#largeGroups) * this.#small;
  }

  #checkGroup(groupIndex: number): void {
    if (!isWhole(groupIndex) || groupIndex < 0 || groupIndex >= this.groupCount) {
      throw new Error(`Group index ${String(groupIndex)} is outside this plan's 0..${this.groupCount - 1}.`);
    }
  }
}

function isWhole(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value);
}
