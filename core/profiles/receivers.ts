/**
 * Who receives each send of a run, from its configuration alone: the plan's senders and groups,
 * and the users its access tokens name (connection i takes token i mod n). Every count of what a
 * send plans goes through here and {@link receptionsPerSend}: the engine's plan
 * (workers/scenarios/profile-scenario.ts), the lost-worker share (core/accounting/planned-receptions.ts), the
 * per-instance split (core/run-config/hub-instances.ts) and the guide's expected traffic
 * (core/tiers/tier-figures.ts). A receiver that never connected still counts.
 *
 * The list deliveries' lists:
 * - user: `{user}`, the sender's own user; every configured connection of that user receives;
 * - users: `{users}` = [the sender's user, the next distinct user in token order among the
 *   tokens the run's connections take] (one user when there is only one);
 * - groups: `{groups}` = [the sender's group, the next group (index + 1 mod the group count)],
 *   distinct; every configured member of either receives;
 * - groupExcept: `{excluded}` = [the sender's connection id]: the group's members but the sender.
 */
import { isGroupDelivery, type DeliverKind } from './profile.ts';
import { receptionsPerSend, type ReceptionCounts } from './shapes.ts';

/** What of the run's plan the receivers come from (core/plan's ScenarioPlan has these). */
export interface ReceiverPlan {
  isSender(connectionIndex: number): boolean;
  groupCount: number;
  /** Group index of a connection; -1 when it is in none. */
  groupOf(connectionIndex: number): number;
  /** Configured members of a group. */
  membersOf(groupIndex: number): number;
}

export interface ReceiverInput {
  deliver: DeliverKind;
  /** Configured connections of the run. */
  connections: number;
  plan: ReceiverPlan;
  /** The user each access token names, in token order; null for a token that names none. Empty
   *  without tokens: then every connection is of one unnamed user (an estimate before tokens are
   *  given; a run that needs users is refused without them, core/profiles/fit.ts). */
  tokenUsers: readonly (string | null)[];
}

export interface Receivers {
  readonly deliver: DeliverKind;
  /** The user of a connection (its token's), null without one. */
  userOf(connectionIndex: number): string | null;
  /** The users a send of `sender` names: [its own] for user, [its own, the next] for users; empty otherwise. */
  usersOf(sender: number): (string | null)[];
  /** The groups a send of `sender` reaches: [its own] for the group deliveries, [its own, the next] for groups; empty otherwise. */
  groupsOf(sender: number): number[];
  /** Configured connections whose token names `user`. */
  connectionsOfUser(user: string | null): number;
  /** Token indices naming `user` that some configured connection takes. */
  tokensOfUser(user: string | null): number[];
  /** The configured counts one send of `sender` is planned from. */
  countsOf(sender: number): ReceptionCounts;
  /** Receptions each slot of `sender` plans; 0 when it does not send (not a sender, or in no group
   *  with a group delivery). */
  perSlot(sender: number): number;
}

/** Connections taking token `k` of `tokens` (connection i takes token i mod tokens). */
export function connectionsOfToken(k: number, tokens: number, connections: number): number {
  return k < connections ? Math.floor((connections - 1 - k) / tokens) + 1 : 0;
}

export function runReceivers({ deliver, connections, plan, tokenUsers }: ReceiverInput): Receivers {
  const tokens = tokenUsers.length;
  /** Tokens some configured connection takes. */
  const usedTokens = Math.min(tokens, connections);
  const userOf = (index: number): string | null => (tokens === 0 ? null : tokenUsers[index % tokens] ?? null);
  const perUser = new Map<string | null, { connections: number; tokens: number[] }>();
  if (tokens === 0) perUser.set(null, { connections, tokens: [] });
  for (let k = 0; k < usedTokens; k++) {
    const user = tokenUsers[k] ?? null;
    const entry = perUser.get(user) ?? { connections: 0, tokens: [] };
    entry.connections += connectionsOfToken(k, tokens, connections);
    entry.tokens.push(k);
    perUser.set(user, entry);
  }
  const grouped = isGroupDelivery(deliver);

  const usersOf = (sender: number): (string | null)[] => {
    if (deliver !== 'user' && deliver !== 'users') return [];
    const own = userOf(sender);
    if (deliver === 'user' || usedTokens === 0) return [own];
    const start = sender % tokens;
    for (let step = 1; step < usedTokens; step++) {
      const user = tokenUsers[(start + step) % usedTokens] ?? null;
      if (user !== own && user !== null) return [own, user];
    }
    return [own];
  };
  const groupsOf = (sender: number): number[] => {
    if (!grouped) return [];
    const group = plan.groupOf(sender);
    if (group < 0) return [];
    if (deliver !== 'groups') return [group];
    const next = (group + 1) % plan.groupCount;
    return next === group ? [group] : [group, next];
  };
  const connectionsOfUser = (user: string | null) => perUser.get(user)?.connections ?? 0;
  const countsOf = (sender: number): ReceptionCounts => {
    const groups = groupsOf(sender);
    const listed = deliver === 'groups'
      ? groups.reduce((sum, group) => sum + plan.membersOf(group), 0)
      : usersOf(sender).reduce((sum, user) => sum + connectionsOfUser(user), 0);
    return { connections, groupMembers: grouped && groups.length > 0 ? plan.membersOf(groups[0]!) : 0, listedReceivers: listed };
  };
  return {
    deliver,
    userOf,
    usersOf,
    groupsOf,
    connectionsOfUser,
    tokensOfUser: (user) => perUser.get(user)?.tokens ?? [],
    countsOf,
    perSlot: (sender) => {
      if (!plan.isSender(sender) || (grouped && plan.groupOf(sender) < 0)) return 0;
      return receptionsPerSend(deliver, countsOf(sender));
    },
  };
}
