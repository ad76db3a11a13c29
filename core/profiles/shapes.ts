/**
 * What a profile's delivery asks of the run's plan: which scenario shape gives its senders,
 * groups and targets, and how many receptions each send plans. Computed from the configuration,
 * never from what opened or joined: a receiver that never connected still owes its receptions.
 */
import type { DeliverKind, HubProfile } from './profile.ts';

/** The scenario shapes (core/plan's SCENARIOS) each delivery can run on, the default first:
 *  - self, return: echo's plan, every connection sends;
 *  - all, others: broadcast's senders (2 by default), every connection receives;
 *  - group, groupOthers: the small- or big-group plan;
 *  - target: send to connection's derangement (nobody sends to itself);
 *  - user, users: broadcast's senders, each reaching the connections of the users it names;
 *  - groups, groupExcept: the small- or big-group plan;
 *  - stream: echo's plan; return also runs on send to connection's plan, when the hub asks a
 *    client result of the connection {target} names. */
export const SHAPES_OF_DELIVERY = {
  self: ['echo'],
  return: ['echo', 'sendToConnection'],
  all: ['broadcast'],
  others: ['broadcast'],
  group: ['smallGroup', 'bigGroup'],
  groupOthers: ['smallGroup', 'bigGroup'],
  target: ['sendToConnection'],
  // A client result asked of another connection ({target}) runs on send to connection's derangement.
  user: ['broadcast'],
  users: ['broadcast'],
  groups: ['smallGroup', 'bigGroup'],
  groupExcept: ['smallGroup', 'bigGroup'],
  stream: ['echo'],
} as const satisfies Record<DeliverKind, readonly string[]>;

export type ShapeName = (typeof SHAPES_OF_DELIVERY)[DeliverKind][number];

/** True when a run of scenario `shape` can carry a profile delivering `deliver`. */
export function shapeFits(deliver: DeliverKind, shape: string): boolean {
  return (SHAPES_OF_DELIVERY[deliver] as readonly string[]).includes(shape);
}

/** The shapes one profile runs on: its delivery's, but a client result ("return" with an answer)
 *  asked of another connection ({target} in send.args) runs only on send to connection's
 *  derangement, and every other "return" only on echo's plan. */
export function profileShapes(profile: Pick<HubProfile, 'deliver' | 'send'>): readonly ShapeName[] {
  if (profile.deliver !== 'return') return SHAPES_OF_DELIVERY[profile.deliver];
  return JSON.stringify(profile.send.args).includes('{target}') ? ['sendToConnection'] : ['echo'];
}

/** The shape a profile runs on when none is named. */
export function defaultShape(profile: Pick<HubProfile, 'deliver' | 'send'>): ShapeName {
  return profileShapes(profile)[0]!;
}

/** What fits, for a refusal: "smallGroup or bigGroup". */
export function shapesText(deliver: DeliverKind): string {
  return SHAPES_OF_DELIVERY[deliver].join(' or ');
}

/** The configured counts a send's receptions come from. */
export interface ReceptionCounts {
  /** Configured connections of the run. */
  connections: number;
  /** Configured members of the sender's group (group, groupOthers, groupExcept; 0 otherwise). */
  groupMembers: number;
  /** Configured receivers a list names (user, users: the connections whose tokens name those
   *  users; groups: the members of those groups; 0 otherwise). */
  listedReceivers: number;
}

/** Receptions one send plans: self, return, stream and target 1; all every configured connection;
 *  others all but the sender; group every configured member; groupOthers and groupExcept (which
 *  excludes the sender) all members but the sender; user, users and groups every receiver listed. */
export function receptionsPerSend(deliver: DeliverKind, counts: ReceptionCounts): number {
  switch (deliver) {
    case 'self':
    case 'return':
    case 'stream':
    case 'target':
      return 1;
    case 'user':
    case 'users':
    case 'groups':
      return counts.listedReceivers;
    case 'all':
      return counts.connections;
    case 'others':
      return Math.max(0, counts.connections - 1);
    case 'group':
      return counts.groupMembers;
    case 'groupOthers':
    case 'groupExcept':
      return Math.max(0, counts.groupMembers - 1);
  }
}

/**
 * Of a send's receptions, those owed to receivers absent at "go" (never connected, never joined):
 * counted as never sent for that reason. `absent` is how many of the receivers' pool (the run's
 * connections, or the group's members) are absent, `senderAbsent` whether the sender is one of
 * them; `targetAbsent` whether a direct message's target never opened.
 */
export function absentPerSend(deliver: DeliverKind, receptions: number, absent: { pool: number; senderAbsent: boolean; targetAbsent: boolean }): number {
  switch (deliver) {
    case 'self':
    case 'return':
    case 'stream':
      return 0;
    case 'target':
      return absent.targetAbsent ? 1 : 0;
    case 'all':
    case 'group':
    case 'user':
    case 'users':
    case 'groups':
      return Math.min(receptions, absent.pool);
    case 'others':
    case 'groupOthers':
    case 'groupExcept':
      // The sender is not among its own receivers.
      return Math.min(receptions, Math.max(0, absent.pool - (absent.senderAbsent ? 1 : 0)));
  }
}
