/**
 * A run's scenario from its hub profile (core/profiles) and plan: the send method and its
 * arguments from the profile's template, its join on every connection (awaited, failures
 * counted) and again after a reconnect, and who receives from its delivery. What each slot plans
 * comes from the configuration (core/profiles/shapes.ts): every configured receiver, open or
 * joined or not; those absent at "go" are counted apart (receiverAbsent).
 *
 * The plan gives the shape: echo's every-connection-sends for self and return, broadcast's
 * senders for all and others, the group plan for group and groupOthers (group names carry the
 * run id, so two runs on one hub never share a group), and send to connection's derangement
 * for target (a target that never opened has no id: its sender's slots count it absent).
 * Streams back (deliver "stream") run on echo's plan; a {stream} argument on its delivery's plan; a client result ("return" with an
 * answer) on send to connection's derangement when it asks {target}, else on echo's.
 */
import { runGroupName, type GoMessage } from '../../core/execution/index.ts';
import { type ScenarioPlan } from '../../core/plan/index.ts';
import {
  absentPerSend, bindArgs, takesConnectionValues, isGroupDelivery, messageReader, receptionsPerSend, type CallValues, type HubCall, type HubProfile, type Receivers,
} from '../../core/profiles/index.ts';
import type { PooledConnection } from '../engine/connection-pool.ts';
import type { ProbeCall, Scenario } from './scenario.ts';
import { ENGINE_WORDS } from '../engine/words.ts';

export interface ProfileRun {
  profile: HubProfile;
  builtIn: boolean;
  plan: ScenarioPlan;
  /** Configured connections of the run. */
  connections: number;
  runId: string;
  /** Who receives each send (core/profiles/receivers.ts): the users a connection's token names
   *  ({user}, {users}), the groups a send reaches ({groups}), the receptions each slot plans. */
  receivers: Receivers;
  /** The values of the profile's {env:NAME}, read by the runner at start; empty without any. */
  env: Readonly<Record<string, string>>;
}

export function profileScenario(run: ProfileRun): Scenario {
  const { profile, plan } = run;
  const grouped = isGroupDelivery(profile.deliver);
  const groupOf = (pooled: PooledConnection) => (grouped ? plan.groupOf(pooled.index) : -1);
  const groupNameOf = (groupIndex: number) => (groupIndex < 0 ? null : runGroupName(run.runId, plan.groupName(groupIndex)));
  const { receivers, env } = run;
  const valuesOf = (pooled: PooledConnection, target: string | null = null): CallValues => ({
    connection: pooled.index,
    group: groupNameOf(groupOf(pooled)),
    target,
    user: receivers.userOf(pooled.index),
    users: receivers.usersOf(pooled.index).filter((user): user is string => user !== null),
    groups: receivers.groupsOf(pooled.index).map((group) => groupNameOf(group)!),
    // Read at each send: a reconnected connection has a new id.
    excluded: () => (pooled.connection.connectionId ? [pooled.connection.connectionId] : []),
    env,
  });
  const invoke = (pooled: PooledConnection, call: HubCall) => pooled.connection.invoke(call.method, ...bindArgs(call, valuesOf(pooled))(0, ''));
  /** Connections of this worker that joined (group deliveries): a sender that did not is absent from its own group. */
  const joined = new Set<number>();
  const join = profile.join;
  const leave = profile.leave;
  const receive = profile.receive;
  const answer = profile.answer;
  const sendArgsText = JSON.stringify(profile.send.args);
  /** {stream} in send.args: each connection's messages go as the items of one stream. */
  const uploads = profile.send.args.includes('{stream}');
  /** A client result asked of another connection: the derangement's target, as deliver "target" has. */
  const asksTarget = profile.deliver === 'return' && sendArgsText.includes('{target}');
  /** The send's arguments bound once for every connection, when they take none of its values. */
  const sharedSendArgs = takesConnectionValues(profile.send) ? null : bindArgs(profile.send, { connection: 0, group: null, target: null, user: null, env });

  /** Of the receivers a send of `sender` plans, those absent at "go": its groups' members that did
   *  not join, the listed users' connections not open, or the run's connections not open. */
  const absentPool = (sender: number, go: GoMessage): number => {
    if (grouped) return receivers.groupsOf(sender).reduce((sum, group) => sum + (go.absentMembers[group] ?? 0), 0);
    if (profile.deliver === 'user' || profile.deliver === 'users') {
      const tokens = receivers.usersOf(sender).flatMap((user) => receivers.tokensOfUser(user));
      return tokens.reduce((sum, token) => sum + (go.absentByToken?.[token] ?? 0), 0);
    }
    return go.absentReceivers;
  };

  return {
    profile,
    builtIn: run.builtIn,
    receive: receive ? { method: receive.method, read: messageReader(receive.arg) } : null,
    answer: answer ? { method: answer.method, with: answerOf(answer.with) } : null,
    probe(pooled) {
      const calls: ProbeCall[] = [];
      // Its own join, which prepare repeats (joining a group twice is joining it once).
      if (join) calls.push({ method: join.method, args: bindArgs(join, valuesOf(pooled)), role: 'join' });
      // To a group nobody joins, or to itself: the hub checks the call and delivers nothing that counts.
      // To users, a list of none: the hub checks the call and delivers to nobody.
      const probeGroup = runGroupName(run.runId, 'probe');
      const probeValues = { ...valuesOf(pooled, pooled.connection.connectionId), users: [], ...(grouped ? { group: probeGroup, groups: [probeGroup] } : {}) };
      calls.push({
        method: profile.send.method, args: bindArgs(profile.send, probeValues), role: 'send',
        streamsBack: profile.deliver === 'stream', uploads, carries: uploads || sendArgsText.includes('"{message}"'), bindOnly: answer !== undefined,
      });
      return calls;
    },
    async prepare(connections, fail) {
      const members = new Array<number>(grouped ? plan.groupCount : 0).fill(0);
      if (!join) return members;
      await Promise.all(
        connections.map(async (pooled) => {
          const groupIndex = groupOf(pooled);
          if (pooled.state !== 'open' || (grouped && groupIndex < 0)) return;
          try {
            await invoke(pooled, join);
            joined.add(pooled.index);
            if (groupIndex >= 0) members[groupIndex]!++;
          } catch (error) {
            const what = `${join.method}(${grouped ? `"${groupNameOf(groupIndex)}"` : '…'})`;
            fail('join', ENGINE_WORDS.joinFailed({ what, error, method: join.method, profile: profile.name }));
          }
        }),
      );
      return members;
    },
    ...(join ? {
      async rejoin(pooled: PooledConnection) {
        if (grouped && groupOf(pooled) < 0) return;
        await invoke(pooled, join);
      },
    } : {}),
    ...(leave ? {
      async leave(connections: readonly PooledConnection[]) {
        const open = connections.filter((pooled) => pooled.state === 'open' && (!grouped || groupOf(pooled) >= 0));
        // Best effort: the run is measured, and closing the connection leaves every group anyway.
        await Promise.all(open.map((pooled) => invoke(pooled, leave).catch(() => undefined)));
      },
    } : {}),
    sendSpec(pooled, localIndex, go) {
      if (!plan.isSender(pooled.index)) return null;
      const groupIndex = groupOf(pooled);
      if (grouped && groupIndex < 0) return null;
      const target = profile.deliver === 'target' || asksTarget ? (go.targets[localIndex] ?? null) : null;
      const recipients = receptionsPerSend(profile.deliver, receivers.countsOf(pooled.index));
      const absent = absentPerSend(asksTarget ? 'target' : profile.deliver, recipients, {
        pool: absentPool(pooled.index, go),
        senderAbsent: grouped ? !joined.has(pooled.index) : pooled.state !== 'open',
        targetAbsent: target === null,
      });
      return { method: profile.send.method, args: sharedSendArgs ?? bindArgs(profile.send, valuesOf(pooled, target)), recipients, absent, awaitsReturn: profile.deliver === 'return',
        streamsBack: profile.deliver === 'stream', uploads, answered: answer !== undefined };
    },
  };
}

/** An answer's template with a text in place of its {message} (a string, or a copy of the object
 *  or list holding it). */
function answerOf(template: unknown): (message: string) => unknown {
  const bound = bindArgs({ method: '', args: [template] }, { connection: 0, group: null, target: null, user: null });
  return (message) => bound(0, message)[0];
}
