/**
 * What a profile needs of the run it drives, checked before anything connects: a scenario shape
 * that gives its delivery senders, groups or targets, and, when it uses {user}, an access token
 * naming a user for every connection.
 */
import type { HubProfile } from './profile.ts';
import { profileShapes } from './shapes.ts';
import { tokenUser, usesPlaceholder } from './template.ts';
import { PROFILE_WORDS as W } from './words.ts';

/** Problems of running `profile` as scenario `shape`; empty when it fits. */
export function shapeProblems(profile: HubProfile, shape: string): string[] {
  const shapes: readonly string[] = profileShapes(profile);
  if (shapes.includes(shape)) return [];
  // A client result's shape comes from whether it names a target.
  const target = profile.deliver === 'return' && profile.answer ? (shapes[0] === 'sendToConnection' ? 'with' : 'without') : null;
  return [W.shapeMisfit({ shape, profile: profile.name, deliver: profile.deliver, target, shapes })];
}

/** Problems of the profile's {user} (or a delivery to users) with these access tokens (connection i takes token i mod n). */
export function userProblems(profile: HubProfile, accessTokens: readonly string[]): string[] {
  const toUsers = profile.deliver === 'user' || profile.deliver === 'users';
  if (!toUsers && !usesPlaceholder(profile, 'user')) return [];
  // A delivery to users needs them: a fixed name would not be the sender's.
  const said = { profile: profile.name, toUsers, deliver: profile.deliver };
  if (accessTokens.length === 0) return [W.noToken(said)];
  const nameless = accessTokens.filter((token) => tokenUser(token) === null).length;
  if (nameless === 0) return [];
  return [W.namelessTokens({ ...said, nameless, tokens: accessTokens.length })];
}

/** What of the run's plan a delivery's check reads (core/plan's ScenarioPlan has it). */
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
    return [W.othersAlone({ connections })];
  }
  if (deliver === 'groupOthers' || deliver === 'groupExcept') {
    const alone = Array.from({ length: plan.groupCount }, (_, group) => group).filter((group) => plan.membersOf(group) < 2);
    if (alone.length > 0) {
      return [W.groupsOfOne({ deliver, alone: alone.length, groups: plan.groupCount })];
    }
  }
  return [];
}
