/**
 * --hub-profile <file>: the hub profile (core/profiles) a run drives instead of the bundled
 * contract, read from its file and checked before anything connects; every problem names the
 * file and the field, and exits 2.
 */
import { readFileSync } from 'node:fs';
import { parseHubProfile, userProblems, type HubProfile } from '../core/profiles/index.ts';

/** The profile in `file`, or null with the problems added to `errors`; null too without the option. */
export function hubProfileOf(file: string | undefined, errors: string[], readText: (file: string) => string = (f) => readFileSync(f, 'utf8')): HubProfile | null {
  if (file === undefined) return null;
  let text: string;
  try {
    text = readText(file);
  } catch (error) {
    const code = error instanceof Error && 'code' in error ? error.code : null;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : error instanceof Error ? error.message : String(error);
    errors.push(`--hub-profile ${file} cannot be read (${why}). Give the path of a profile's JSON file, e.g. profiles/chat-all.json.`);
    return null;
  }
  const parsed = parseHubProfile(text);
  if (!parsed.ok) {
    errors.push(...parsed.errors.map((error) => `--hub-profile ${file}: ${error}`));
    return null;
  }
  return parsed.profile;
}

/** What the profile needs of the run's credentials ({user}), with the file named. */
export function profileCredentialProblems(file: string, profile: HubProfile, accessTokens: readonly string[]): string[] {
  return userProblems(profile, accessTokens).map((problem) => `--hub-profile ${file}: ${problem}`);
}
