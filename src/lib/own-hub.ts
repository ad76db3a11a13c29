/**
 * The run form's "Your hub" choice (ConfigForm.svelte, profiles/HubProfileField.svelte): the
 * scenario select's extra value, the scenario shape the run then follows, what the form's fields
 * become for validation, and how a link opens the choice. Pure.
 */
import { defaultShape, pageEnvProblems, parseHubProfile, userProblems, type HubProfile } from '../../core/profiles/index.ts';
import { leftOutProfileNote, queryToProfile, SCENARIO_LABELS, scenarioLabel, type RunConfig } from '../../core/run-config/index.ts';

/** The scenario select's value for a hub profile of the user's own. */
export const YOUR_HUB = 'yourHub';

/** The form's fields this choice reads, as typed. */
export interface OwnHubFields {
  scenario: string;
  /** The profile's JSON. */
  hubProfile: string;
  /** The shape chosen for it; empty for the profile's default. */
  profileShape: string;
}

/** The profile typed, when "Your hub" is chosen and it reads; null otherwise. */
export function typedProfile(fields: OwnHubFields): HubProfile | null {
  if (fields.scenario !== YOUR_HUB || fields.hubProfile.trim() === '') return null;
  const read = parseHubProfile(fields.hubProfile);
  return read.ok ? read.profile : null;
}

/** The scenario whose plan the run follows: the one chosen, or the shape of the profile typed
 *  (empty while there is none). */
export function planShape(fields: OwnHubFields): string {
  if (fields.scenario !== YOUR_HUB) return fields.scenario;
  const profile = typedProfile(fields);
  return fields.profileShape || (profile ? defaultShape(profile) : '');
}

/** The scenario in the form's one-line setup. */
export function scenarioLine(fields: OwnHubFields): string {
  if (fields.scenario !== YOUR_HUB) return SCENARIO_LABELS[fields.scenario as RunConfig['scenario']] ?? fields.scenario;
  const profile = typedProfile(fields);
  return profile ? scenarioLabel({ scenario: planShape(fields) as RunConfig['scenario'], hubProfile: profile }) : 'Your hub';
}

/**
 * The fields as the configuration reads them: "Your hub" runs its profile on the shape chosen
 * (empty: the profile's default); any other choice runs the bundled contract. `refusals` says an
 * empty editor is refused with the configuration's wording, never run as the bundled contract.
 */
export function ownHubInput<T extends OwnHubFields>(fields: T, accessTokens: readonly string[] = []): { input: Omit<T, 'profileShape'>; refusals: string[] } {
  const { profileShape, ...rest } = fields;
  if (fields.scenario !== YOUR_HUB) return { input: { ...rest, hubProfile: '' }, refusals: [] };
  const read = parseHubProfile(fields.hubProfile);
  const refusals = fields.hubProfile.trim() === '' && !read.ok ? read.errors.map((e) => `Hub profile: ${e}`) : [];
  if (read.ok) refusals.push(...pageProfileRefusals(read.profile, accessTokens));
  return { input: { ...rest, scenario: profileShape, hubProfile: fields.hubProfile }, refusals };
}

/** What a page cannot run of a valid profile: {env:NAME} (a page has no environment), and users
 *  its access token does not name ({user}, the deliveries to users). */
export function pageProfileRefusals(profile: HubProfile, accessTokens: readonly string[]): string[] {
  return [...pageEnvProblems(profile), ...userProblems(profile, accessTokens)].map((problem) => `Hub profile: ${problem}`);
}

/** How a link opens the form: on "Your hub" with its profile and shape when it carries one (or
 *  names one it left out: `note` then says to paste it). */
export function ownHubFromLink(search: string, linkedScenario: string | undefined): (OwnHubFields & { note: string | null }) | null {
  const linked = queryToProfile(search);
  if (!linked) return null;
  return 'text' in linked
    ? { scenario: YOUR_HUB, hubProfile: linked.text, profileShape: linkedScenario ?? '', note: null }
    : { scenario: YOUR_HUB, hubProfile: '', profileShape: linkedScenario ?? '', note: leftOutProfileNote(linked.leftOut) };
}
