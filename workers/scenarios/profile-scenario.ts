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
 */
import { runGroupName, type ScenarioPlan } from '../../core/run/index.ts';
import {
  absentPerSend, bindArgs, takesConnectionValues, isGroupDelivery, messageReader, receptionsPerSend, type CallValues, type HubCall, type HubProfile,
} from '../../core/profiles/index.ts';
import type { PooledConnection } from '../engine/connection-pool.ts';
import type { ProbeCall, Scenario } from './scenario.ts';

export interface ProfileRun {
  profile: HubProfile;
  builtIn: boolean;
  plan: ScenarioPlan;
  /** Configured connections of the run. */
  connections: number;
  runId: string;
  /** The user a connection's token names ({user}); null without one. */
  userOf: (connectionIndex: number) => string | null;
}

export function profileScenario(run: ProfileRun): Scenario {
  const { profile, plan } = run;
  const grouped = isGroupDelivery(profile.deliver);
  const groupOf = (pooled: PooledConnection) => (grouped ? plan.groupOf(pooled.index) : -1);
  const groupNameOf = (groupIndex: number) => (groupIndex < 0 ? null : runGroupName(run.runId, plan.groupName(groupIndex)));
  const valuesOf = (pooled: PooledConnection, target: string | null = null): CallValues =>
    ({ connection: pooled.index, group: groupNameOf(groupOf(pooled)), target, user: run.userOf(pooled.index) });
  const invoke = (pooled: PooledConnection, call: HubCall) => pooled.connection.invoke(call.method, ...bindArgs(call, valuesOf(pooled))(0, ''));
  /** Connections of this worker that joined (group deliveries): a sender that did not is absent from its own group. */
  const joined = new Set<number>();
  const join = profile.join;
  const leave = profile.leave;
  const receive = profile.receive;
  /** The send's arguments bound once for every connection, when they take none of its values. */
  const sharedSendArgs = takesConnectionValues(profile.send) ? null : bindArgs(profile.send, { connection: 0, group: null, target: null, user: null });

  return {
    profile,
    builtIn: run.builtIn,
    receive: receive ? { method: receive.method, read: messageReader(receive.arg) } : null,
    probe(pooled) {
      const calls: ProbeCall[] = [];
      // Its own join, which prepare repeats (joining a group twice is joining it once).
      if (join) calls.push({ method: join.method, args: bindArgs(join, valuesOf(pooled)), role: 'join' });
      // To a group nobody joins, or to itself: the hub checks the call and delivers nothing that counts.
      const probeValues = { ...valuesOf(pooled, pooled.connection.connectionId), ...(grouped ? { group: runGroupName(run.runId, 'probe') } : {}) };
      calls.push({ method: profile.send.method, args: bindArgs(profile.send, probeValues), role: 'send' });
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
            fail('join', `${what} failed: ${error instanceof Error ? error.message : String(error)}. Check that the hub has the method ${join.method} the profile "${profile.name}" joins with.`);
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
      const target = profile.deliver === 'target' ? (go.targets[localIndex] ?? null) : null;
      const recipients = receptionsPerSend(profile.deliver, { connections: run.connections, groupMembers: grouped ? plan.membersOf(groupIndex) : 0, listedReceivers: 0 });
      const absent = absentPerSend(profile.deliver, recipients, {
        pool: grouped ? (go.absentMembers[groupIndex] ?? 0) : go.absentReceivers,
        senderAbsent: grouped ? !joined.has(pooled.index) : pooled.state !== 'open',
        targetAbsent: target === null,
      });
      return { method: profile.send.method, args: sharedSendArgs ?? bindArgs(profile.send, valuesOf(pooled, target)), recipients, absent, awaitsReturn: profile.deliver === 'return' };
    },
  };
}
