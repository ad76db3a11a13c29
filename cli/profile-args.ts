/**
 * --hub-profile <file>: the hub profile (core/profiles) a run drives instead of the bundled
 * contract, read from its file and checked before anything connects; every problem names the
 * file and the field, and exits 2. Its {env:NAME} placeholders are read from the runner's
 * environment here, once, into the run's credentials (core/run-config/credentials.ts): the profile the
 * run keeps, exports and links holds the placeholders, never the values.
 */
import { readFileSync } from 'node:fs';
import { envNames, missingEnv, parseHubProfile, secretWarnings, userProblems, type HubProfile } from '../core/profiles/index.ts';
import { ARGS_WORDS } from './args-words.ts';

/** The profile in `file`, or null with the problems added to `errors`; null too without the option. */
export function hubProfileOf(file: string | undefined, errors: string[], readText: (file: string) => string = (f) => readFileSync(f, 'utf8')): HubProfile | null {
  if (file === undefined) return null;
  let text: string;
  try {
    text = readText(file);
  } catch (error) {
    const code = error instanceof Error && 'code' in error ? error.code : null;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : error instanceof Error ? error.message : String(error);
    errors.push(ARGS_WORDS.profileUnread({ file, why }));
    return null;
  }
  const parsed = parseHubProfile(text);
  if (!parsed.ok) {
    errors.push(...parsed.errors.map((problem) => ARGS_WORDS.profileProblem({ file, problem })));
    return null;
  }
  return parsed.profile;
}

/** What the profile needs of the run's credentials ({user}), with the file named. */
export function profileCredentialProblems(file: string, profile: HubProfile, accessTokens: readonly string[]): string[] {
  return userProblems(profile, accessTokens).map((problem) => ARGS_WORDS.profileProblem({ file, problem }));
}

/**
 * The values of the profile's {env:NAME} from the runner's environment, in the order named; a
 * variable unset or empty is a problem naming the file, the field and NAME (never a value).
 */
export function profileEnvValues(file: string, profile: HubProfile, errors: string[], env: NodeJS.ProcessEnv = process.env): [string, string][] {
  const missing = missingEnv(profile, env);
  for (const { place, empty } of missing) {
    errors.push(ARGS_WORDS.profileEnvMissing({ file, field: place.field, name: place.name, empty }));
  }
  if (missing.length > 0) return [];
  return envNames(profile).map((name) => [name, env[name]!]);
}

/** Warnings for literals in the profile that look like secrets, with the file named (never the value). */
export function profileSecretWarnings(file: string, profile: HubProfile): string[] {
  return secretWarnings(profile).map((problem) => ARGS_WORDS.profileProblem({ file, problem }));
}
