/**
 * Send to group (small and big groups): every connection first joins its group (JoinGroup,
 * awaited, failures counted), then the senders call GroupBroadcast; every member that joined
 * receives, the sender included. The guide's "send to small group" and "send to big group".
 * Each send plans every configured member of the group: members that did not join (never
 * connected, refused) are counted apart (receiverAbsent). Group names carry the run id, so two
 * runs on one hub never share a group.
 */
import { runGroupName, type ScenarioPlan } from '../../core/run/index.ts';
import { PROBE_PAYLOAD, PROBE_TS, type Scenario } from './scenario.ts';

export function group(plan: ScenarioPlan, runId: string): Scenario {
  const nameOf = (groupIndex: number) => runGroupName(runId, plan.groupName(groupIndex));
  return {
    // A group nobody joins: the hub checks the call and delivers nothing.
    probe: () => ({ method: 'GroupBroadcast', args: ['live-bench-probe', PROBE_TS, PROBE_PAYLOAD] }),
    async prepare(connections, fail) {
      const joined = new Array<number>(plan.groupCount).fill(0);
      await Promise.all(
        connections.map(async (pooled) => {
          const groupIndex = plan.groupOf(pooled.index);
          if (pooled.state !== 'open' || groupIndex < 0) return;
          try {
            await pooled.connection.invoke('JoinGroup', nameOf(groupIndex));
            joined[groupIndex]!++;
          } catch (error) {
            fail('join', `JoinGroup("${nameOf(groupIndex)}") failed: ${error instanceof Error ? error.message : String(error)}. Check that the hub has the benchmark's JoinGroup(string group) method.`);
          }
        }),
      );
      return joined;
    },
    async rejoin(pooled) {
      const groupIndex = plan.groupOf(pooled.index);
      if (groupIndex >= 0) await pooled.connection.invoke('JoinGroup', nameOf(groupIndex));
    },
    sendSpec(pooled, _localIndex, go) {
      const groupIndex = plan.groupOf(pooled.index);
      if (!plan.isSender(pooled.index) || groupIndex < 0) return null;
      const name = nameOf(groupIndex);
      const members = plan.membersOf(groupIndex);
      return { method: 'GroupBroadcast', args: (ts, payload) => [name, ts, payload], recipients: members, absent: Math.min(members, go.absentMembers[groupIndex] ?? 0) };
    },
  };
}
