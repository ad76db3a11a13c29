/**
 * Send to group (small and big groups): every connection first joins its group (JoinGroup,
 * awaited, failures counted), then the senders call GroupBroadcast; every member that joined
 * receives, the sender included. The guide's "send to small group" and "send to big group".
 */
import type { ScenarioPlan } from '../../core/scenario-plan.ts';
import { PROBE_PAYLOAD, PROBE_TS, type Scenario } from './scenario.ts';

export const group = (plan: ScenarioPlan): Scenario => ({
  // A group nobody joins: the hub checks the call and delivers nothing.
  probe: () => ({ method: 'GroupBroadcast', args: ['live-bench-probe', PROBE_TS, PROBE_PAYLOAD] }),
  async prepare(connections, fail) {
    const joined = new Array<number>(plan.groupCount).fill(0);
    await Promise.all(
      connections.map(async (pooled) => {
        const groupIndex = plan.groupOf(pooled.index);
        if (pooled.state !== 'open' || groupIndex < 0) return;
        try {
          await pooled.connection.invoke('JoinGroup', plan.groupName(groupIndex));
          joined[groupIndex]!++;
        } catch (error) {
          fail('join', `JoinGroup("${plan.groupName(groupIndex)}") failed: ${error instanceof Error ? error.message : String(error)}. Check that the hub has the benchmark's JoinGroup(string group) method.`);
        }
      }),
    );
    return joined;
  },
  async rejoin(pooled) {
    const groupIndex = plan.groupOf(pooled.index);
    if (groupIndex >= 0) await pooled.connection.invoke('JoinGroup', plan.groupName(groupIndex));
  },
  sendSpec(pooled, _localIndex, go) {
    const groupIndex = plan.groupOf(pooled.index);
    if (!plan.isSender(pooled.index) || groupIndex < 0) return null;
    const name = plan.groupName(groupIndex);
    return { method: 'GroupBroadcast', args: (ts, payload) => [name, ts, payload], recipients: go.groupMembers[groupIndex] ?? 0 };
  },
});
