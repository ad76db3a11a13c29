/**
 * One run over several hub instances (hub-sample processes sharing a Redis backplane, or any
 * scaled-out SignalR app): the connections are spread round-robin over the instances' URLs by
 * their run-wide index, so connection i opens on instance i mod n and stays there (WebSockets
 * hold one socket; Server-Sent Events and long polling post to the URL they negotiated with).
 * The spread depends on the configuration alone, so every worker and agent computes the same.
 *
 * Per instance, the run counts its connections (planned, opened, failed) and the receptions
 * planned for the connections on it, by what became of them: arrived in under 1 s, later, after
 * the drain, or not arrived. "Not arrived" is lost or never sent together: a slot that was never
 * sent (its sender was reconnecting, closed, backed up...) is known to the sender, which does not
 * know which of its receivers were absent on which instance, so the two are not told apart per
 * instance. The run's totals tell them apart; the instances' figures sum to the totals. Each
 * instance's p99 comes from one more latency histogram per instance in every worker and in the
 * aggregator (about 80 KB each). Pure.
 */
import type { RunConfig } from './config.ts';
import { type ScenarioPlan, instanceOf } from '../plan/index.ts';
import type { LatencySummary } from '../latency/index.ts';
import { profileOfRun, runReceivers, type Receivers } from '../profiles/index.ts';

/** Every hub instance of a run, in order; one (endpointUrl) for most runs. */
export function hubInstances(config: Pick<RunConfig, 'endpointUrl' | 'endpointUrls'>): string[] {
  return config.endpointUrls && config.endpointUrls.length > 1 ? config.endpointUrls : [config.endpointUrl];
}


export { instanceOf };

/** Connections planned on each instance: the round-robin's count for each. */
export function connectionsPerInstance(connections: number, instances: number): number[] {
  return Array.from({ length: instances }, (_, k) => (k < connections ? Math.floor((connections - 1 - k) / instances) + 1 : 0));
}

/** One worker's counts for one instance, from the run's start (cumulative, not per interval). */
export interface InstanceCounts {
  connectionsOpened: number;
  connectionsFailed: number;
  /** Receptions planned for this instance's connections (as the run's fates plan them). */
  planned: number;
  underOneSecond: number;
  late: number;
  afterDrain: number;
}

export function emptyInstanceCounts(): InstanceCounts {
  return { connectionsOpened: 0, connectionsFailed: 0, planned: 0, underOneSecond: 0, late: 0, afterDrain: 0 };
}

export function addInstanceCounts(into: InstanceCounts, delta: InstanceCounts): InstanceCounts {
  for (const key of Object.keys(into) as (keyof InstanceCounts)[]) into[key] += delta[key];
  return into;
}

/** One instance's figures in a run's result. */
export interface InstanceFigures extends InstanceCounts {
  /** The instance's hub URL, as given. */
  endpointUrl: string;
  /** Connections the round-robin put on it. */
  connectionsPlanned: number;
  /** Planned receptions that never arrived, lost or never sent (see the module comment); null
   *  until the drain is over (they may still be in flight), never 0 for unknown. */
  notArrived: number | null;
  /** The 99th percentile of the latency at its connections, from the planned send time, µs;
   *  null when nothing arrived there. Absent in runs kept before it was measured. */
  p99Us?: number | null;
}

/** The run's figures per instance from the summed counts; null for a run on one instance. */
export function instanceFigures(config: Pick<RunConfig, 'endpointUrl' | 'endpointUrls' | 'connections'>, counts: readonly InstanceCounts[] | null, drained: boolean, latency?: readonly LatencySummary[] | null): InstanceFigures[] | null {
  const urls = hubInstances(config);
  if (urls.length < 2) return null;
  const planned = connectionsPerInstance(config.connections, urls.length);
  return urls.map((endpointUrl, k) => {
    const c = counts?.[k] ?? emptyInstanceCounts();
    const arrived = c.underOneSecond + c.late + c.afterDrain;
    return { endpointUrl, connectionsPlanned: planned[k]!, ...c, notArrived: drained ? Math.max(0, c.planned - arrived) : null, p99Us: latency?.[k]?.p99Us ?? null };
  });
}

/**
 * Receptions each slot of `sender` plans on each instance, from the configuration and the run's
 * delivery (core/profiles: the built-in profile of the scenario, or the user's): its own instance
 * for self and return, every connection for all (all but the sender for others), the group's
 * configured members for group (all but the sender for groupOthers and groupExcept), the listed
 * receivers for user, users and groups (core/profiles/receivers.ts), the target's instance for
 * target (`targetIndex`; null when it has none). Sums to the slot's planned receptions
 * (receptionsPerSend). `groupTable` is {@link groupMembersPerInstance}'s, made once; `lists`
 * {@link instanceLists}', made once for the deliveries to lists (made here when absent).
 */
export function recipientsPerInstance(
  config: Pick<RunConfig, 'scenario' | 'connections' | 'hubProfile'>,
  plan: ScenarioPlan,
  instances: number,
  sender: number,
  targetIndex: number | null,
  groupTable: number[][] | null,
  lists?: InstanceLists,
): number[] {
  const own = instanceOf(sender, instances);
  const counts = new Array<number>(instances).fill(0);
  const withoutSender = (perInstance: number[]) => {
    perInstance[own] = Math.max(0, perInstance[own]! - 1);
    return perInstance;
  };
  const groupOf = () => {
    const group = plan.groupOf(sender);
    return group >= 0 && groupTable ? [...groupTable[group]!] : counts;
  };
  const deliver = profileOfRun(config).deliver;
  switch (deliver) {
    case 'self':
    case 'return':
    case 'stream':
      counts[own] = 1;
      return counts;
    case 'all':
      return connectionsPerInstance(config.connections, instances);
    case 'others':
      return withoutSender(connectionsPerInstance(config.connections, instances));
    case 'target':
      counts[instanceOf(targetIndex ?? sender, instances)] = 1;
      return counts;
    case 'group':
      return groupOf();
    case 'groupOthers':
    case 'groupExcept':
      return plan.groupOf(sender) >= 0 ? withoutSender(groupOf()) : counts;
    case 'user':
    case 'users': {
      const { receivers, userTable } = lists ?? instanceLists(config, plan, instances, []);
      for (const user of new Set(receivers.usersOf(sender))) addInto(counts, userTable.get(user));
      return counts;
    }
    case 'groups': {
      const { receivers } = lists ?? instanceLists(config, plan, instances, []);
      const table = groupTable ?? groupMembersPerInstance(config.connections, plan, instances);
      for (const group of receivers.groupsOf(sender)) addInto(counts, table[group]);
      return counts;
    }
  }
}

function addInto(into: number[], add: readonly number[] | undefined): void {
  add?.forEach((n, k) => (into[k]! += n));
}

/** What the deliveries to lists need per instance, made once a run: who receives
 *  (core/profiles/receivers.ts) and each user's configured connections on each instance. */
export interface InstanceLists {
  receivers: Receivers;
  /** user → connections of that user on each instance. */
  userTable: Map<string | null, number[]>;
}

/** @param tokenUsers the user each access token names, in token order (connection i takes token i mod n). */
export function instanceLists(
  config: Pick<RunConfig, 'scenario' | 'connections' | 'hubProfile'>,
  plan: ScenarioPlan,
  instances: number,
  tokenUsers: readonly (string | null)[],
): InstanceLists {
  const receivers = runReceivers({ deliver: profileOfRun(config).deliver, connections: config.connections, plan, tokenUsers });
  const userTable = new Map<string | null, number[]>();
  if (receivers.deliver === 'user' || receivers.deliver === 'users') {
    for (let i = 0; i < config.connections; i++) {
      const user = receivers.userOf(i);
      const row = userTable.get(user) ?? new Array<number>(instances).fill(0);
      row[instanceOf(i, instances)]!++;
      userTable.set(user, row);
    }
  }
  return { receivers, userTable };
}

/** Configured members of each group on each instance: [group][instance]. */
export function groupMembersPerInstance(connections: number, plan: ScenarioPlan, instances: number): number[][] {
  const table = Array.from({ length: plan.groupCount }, () => new Array<number>(instances).fill(0));
  for (let i = 0; i < connections; i++) {
    const group = plan.groupOf(i);
    if (group >= 0) table[group]![instanceOf(i, instances)]!++;
  }
  return table;
}

/** Where a run's connections go, for people: the URL, or the instances and how they are spread. */
export function instancesText(config: Pick<RunConfig, 'endpointUrl' | 'endpointUrls'>): string {
  const urls = hubInstances(config);
  return urls.length === 1 ? urls[0]! : `${urls.length} hub instances round-robin (${urls.join(', ')})`;
}
