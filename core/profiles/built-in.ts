/**
 * The five scenarios of the bundled contract (the hub-sample's BenchHub, the Azure SignalR
 * benchmark's app server) as profiles: a run without a profile of its own runs these, on the
 * same path as any other hub. The contract takes the planned time as its own `long ts`
 * argument and delivers `Measure(ts, payload)`; the receiver reads everything from the message.
 */
import type { HubProfile } from './profile.ts';
import type { ShapeName } from './shapes.ts';

const MEASURE = { method: 'Measure', arg: 1 } as const;

export const BUILT_IN_PROFILES: Readonly<Record<ShapeName, HubProfile>> = {
  echo: { name: 'Echo (bundled contract)', send: { method: 'Echo', args: ['{time}', '{message}'] }, receive: MEASURE, deliver: 'self' },
  broadcast: { name: 'Broadcast (bundled contract)', send: { method: 'Broadcast', args: ['{time}', '{message}'] }, receive: MEASURE, deliver: 'all' },
  smallGroup: {
    name: 'Send to small group (bundled contract)',
    join: { method: 'JoinGroup', args: ['{group}'] },
    send: { method: 'GroupBroadcast', args: ['{group}', '{time}', '{message}'] },
    receive: MEASURE,
    deliver: 'group',
  },
  bigGroup: {
    name: 'Send to big group (bundled contract)',
    join: { method: 'JoinGroup', args: ['{group}'] },
    send: { method: 'GroupBroadcast', args: ['{group}', '{time}', '{message}'] },
    receive: MEASURE,
    deliver: 'group',
  },
  sendToConnection: {
    name: 'Send to connection (bundled contract)',
    send: { method: 'SendToConnection', args: ['{target}', '{time}', '{message}'] },
    receive: MEASURE,
    deliver: 'target',
  },
};

/** The profile a run of `scenario` drives: its own, or the bundled contract's. */
export function profileOfRun(run: { scenario: ShapeName; hubProfile?: HubProfile | null }): HubProfile {
  return run.hubProfile ?? BUILT_IN_PROFILES[run.scenario];
}
