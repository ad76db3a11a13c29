/**
 * What a profile needs of the run it drives, checked before anything connects: a scenario shape
 * that gives its delivery senders, groups or targets, and, when it uses {user}, an access token
 * naming a user for every connection.
 */
import type { HubProfile } from './profile.ts';
import { shapeFits, shapesText } from './shapes.ts';
import { tokenUser, usesPlaceholder } from './template.ts';

/** Problems of running `profile` as scenario `shape`; empty when it fits. */
export function shapeProblems(profile: HubProfile, shape: string): string[] {
  if (shapeFits(profile.deliver, shape)) return [];
  return [`Scenario ${shape} does not fit the profile "${profile.name}": deliver "${profile.deliver}" runs as ${shapesText(profile.deliver)}. Choose that scenario, or leave it out for the default.`];
}

/** Problems of the profile's {user} with these access tokens (connection i takes token i mod n). */
export function userProblems(profile: HubProfile, accessTokens: readonly string[]): string[] {
  if (!usesPlaceholder(profile, 'user')) return [];
  if (accessTokens.length === 0) {
    return [`The profile "${profile.name}" uses {user}, the user named by the connection's access token, but the run has no token. Give one (the runner: --access-token-file), or write a fixed name instead of {user}.`];
  }
  const nameless = accessTokens.filter((token) => tokenUser(token) === null).length;
  if (nameless === 0) return [];
  return [`The profile "${profile.name}" uses {user}, but ${nameless} of the ${accessTokens.length} access tokens name no user (a JWT with a name, unique_name or sub claim). Use tokens that name their user, or write a fixed name instead of {user}.`];
}
