/**
 * What a profile needs of the run it drives, checked before anything connects: a scenario shape
 * that gives its delivery senders, groups or targets, and, when it uses {user}, an access token
 * naming a user for every connection.
 */
import type { HubProfile } from './profile.ts';
import { profileShapes } from './shapes.ts';
import { tokenUser, usesPlaceholder } from './template.ts';

/** Problems of running `profile` as scenario `shape`; empty when it fits. */
export function shapeProblems(profile: HubProfile, shape: string): string[] {
  const shapes: readonly string[] = profileShapes(profile);
  if (shapes.includes(shape)) return [];
  // A client result's shape comes from whether it names a target.
  const asked = profile.deliver === 'return' && profile.answer ? `, ${shapes[0] === 'sendToConnection' ? 'with' : 'without'} {target} in send.args,` : '';
  return [`Scenario ${shape} does not fit the profile "${profile.name}": deliver "${profile.deliver}"${asked} runs as ${shapes.join(' or ')}. Choose that scenario, or leave it out for the default.`];
}

/** Problems of the profile's {user} (or a delivery to users) with these access tokens (connection i takes token i mod n). */
export function userProblems(profile: HubProfile, accessTokens: readonly string[]): string[] {
  const toUsers = profile.deliver === 'user' || profile.deliver === 'users';
  if (!toUsers && !usesPlaceholder(profile, 'user')) return [];
  // A delivery to users needs them: a fixed name would not be the sender's.
  const uses = toUsers ? `delivers "${profile.deliver}", to the users named by the connections' access tokens` : 'uses {user}, the user named by the connection\'s access token';
  const instead = toUsers ? 'a delivery to users needs them' : 'or write a fixed name instead of {user}';
  if (accessTokens.length === 0) {
    return [`The profile "${profile.name}" ${uses}, but the run has no token. Give one per user (the runner: --access-token-file, one token a line)${toUsers ? `: ${instead}.` : `, ${instead}.`}`];
  }
  const nameless = accessTokens.filter((token) => tokenUser(token) === null).length;
  if (nameless === 0) return [];
  return [`The profile "${profile.name}" ${uses}, but ${nameless} of the ${accessTokens.length} access tokens name no user (a JWT with a name, unique_name or sub claim). Use tokens that name their user${toUsers ? `: ${instead}.` : `, ${instead}.`}`];
}

/** What of the run's plan a delivery's check reads (core/run's ScenarioPlan has it). */
export interface DeliveryRunPlan {
  groupCount: number;
  membersOf(groupIndex: number): number;
}

/**
 * A delivery that would run for nothing on this run: every send to all but its sender with one
 * connection, or to a group but the sender with groups of one. Each says why and what to change.
 */
export function deliveryProblems(profile: HubProfile, connections: number, plan: DeliveryRunPlan): string[] {
  const deliver = profile.deliver;
  if (deliver === 'others' && connections < 2) {
    return [`deliver: "others" with ${connections} connection runs for nothing: each send goes to every connection but its sender, and there is no other. Raise the connections to at least 2, or deliver "all".`];
  }
  if (deliver === 'groupOthers' || deliver === 'groupExcept') {
    const alone = Array.from({ length: plan.groupCount }, (_, group) => group).filter((group) => plan.membersOf(group) < 2);
    if (alone.length > 0) {
      return [`deliver: "${deliver}" with groups of one (${alone.length} of the ${plan.groupCount} groups) runs for nothing: each send goes to the sender's group but the sender. Make every group at least 2 members (group size), or deliver "group".`];
    }
  }
  return [];
}
