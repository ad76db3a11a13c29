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

/** The serverless mode's two scenarios (core/serverless): each slot is a REST API call whose body
 *  is `{ "target": send.method, "arguments": send.args bound }`, so the service calls the clients'
 *  `Measure(ts, payload)` as the bundled contract's hub does. The tool names the target itself:
 *  these are not hub methods, and no hub profile takes their place. */
export const REST_PROFILES: Readonly<Record<RestShapeName, HubProfile>> = {
  restBroadcast: { name: 'Broadcast through the REST API', send: { method: 'Measure', args: ['{time}', '{message}'] }, receive: MEASURE, deliver: 'all' },
  // One reception, at the connection whose user the derangement names: send to connection's plan.
  restSendToUser: { name: 'Send to user through the REST API', send: { method: 'Measure', args: ['{time}', '{message}'] }, receive: MEASURE, deliver: 'target' },
};

/** The scenarios of the REST API: a run of one has no hub methods of its own. */
export type RestShapeName = 'restBroadcast' | 'restSendToUser';

/** The profile a run of `scenario` drives: its own, or the bundled contract's (the REST API's for
 *  the serverless scenarios). */
export function profileOfRun(run: { scenario: ShapeName | RestShapeName; hubProfile?: HubProfile | null }): HubProfile {
  if (run.hubProfile) return run.hubProfile;
  return run.scenario === 'restBroadcast' || run.scenario === 'restSendToUser' ? REST_PROFILES[run.scenario] : BUILT_IN_PROFILES[run.scenario];
}

/** Whether a run drives the tool's own profile of its scenario (no hub profile of its own). */
export function isBuiltInProfile(run: { scenario: ShapeName | RestShapeName }, profile: HubProfile): boolean {
  return profile === profileOfRun({ scenario: run.scenario });
}
