/**
 * Secrets in a profile's arguments. A profile is kept with every run (the result document, the
 * HTML report, shared links, kept runs), so a key or a room's password written into it travels
 * with all of them. `{env:NAME}` keeps the value out: the runner reads it from its environment at
 * start and hands it to the engines with the run's credentials (core/run-config/credentials.ts), and the
 * profile keeps the placeholder. Here: where a profile names a variable, why a page cannot run it,
 * and a warning for a literal that looks like a key (the field named, never the value).
 */
import { ENV_PLACEHOLDER, type HubCall, type HubProfile } from './profile.ts';
import { PROFILE_WORDS as W } from './words.ts';

/** Where a profile names an environment variable: the field ("send.args[1].key") and the NAME. */
export interface EnvPlace {
  field: string;
  name: string;
}

/** Every string of the profile's calls' arguments, with its field. */
function argumentStrings(profile: Pick<HubProfile, 'send' | 'join' | 'leave'>): { field: string; key: string | null; text: string }[] {
  const found: { field: string; key: string | null; text: string }[] = [];
  const walk = (field: string, key: string | null, value: unknown) => {
    if (typeof value === 'string') found.push({ field, key, text: value });
    else if (Array.isArray(value)) value.forEach((item, index) => walk(`${field}[${index}]`, key, item));
    else if (typeof value === 'object' && value !== null) for (const [name, item] of Object.entries(value)) walk(`${field}.${name}`, name, item);
  };
  const calls: [string, HubCall | undefined][] = [['join', profile.join], ['send', profile.send], ['leave', profile.leave]];
  for (const [name, call] of calls) call?.args.forEach((arg, index) => walk(`${name}.args[${index}]`, null, arg));
  return found;
}

/** Each {env:NAME} of the profile's calls, in order. */
export function envPlaces(profile: Pick<HubProfile, 'send' | 'join' | 'leave'>): EnvPlace[] {
  return argumentStrings(profile).flatMap(({ field, text }) => [...text.matchAll(ENV_PLACEHOLDER)].map((match) => ({ field, name: match[1]! })));
}

/** Why the page refuses a profile naming environment variables: a page has none to read. */
export function pageEnvProblems(profile: Pick<HubProfile, 'send' | 'join' | 'leave'>): string[] {
  return envPlaces(profile).map(({ field, name }) => W.envOnPage({ field, name }));
}

/** The environment variables a profile needs that `env` does not hold (unset or empty), each once with where it is first named. */
export function missingEnv(profile: Pick<HubProfile, 'send' | 'join' | 'leave'>, env: Readonly<Record<string, string | undefined>>): { place: EnvPlace; empty: boolean }[] {
  const seen = new Set<string>();
  const missing: { place: EnvPlace; empty: boolean }[] = [];
  for (const place of envPlaces(profile)) {
    if (seen.has(place.name)) continue;
    seen.add(place.name);
    const value = env[place.name];
    if (value === undefined || value === '') missing.push({ place, empty: value === '' });
  }
  return missing;
}

/** The last word of an object key that names a secret's place: key, apiKey, api_key, roomPassword, accessToken... */
const SECRET_WORDS = new Set(['key', 'apikey', 'secret', 'password', 'passwd', 'pwd', 'pass', 'passphrase', 'token', 'credential', 'credentials', 'authorization']);
/** Shortest literal taken for a random key by its look alone. */
const MIN_RANDOM_CHARS = 20;

/** Whether an object key names a secret: its last word ("roomPassword" → "password", "api_key" → "key", "APIKEY" → "apikey"). */
export function isSecretKey(key: string): boolean {
  const words = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(/[\s_\-.]+/).filter((word) => word !== '');
  return SECRET_WORDS.has(words.at(-1) ?? '');
}

/** Bits per character of `text`'s character frequencies. */
function entropyPerChar(text: string): number {
  const counts = new Map<string, number>();
  for (const char of text) counts.set(char, (counts.get(char) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/**
 * Whether a literal looks like a random key: hex of 20 characters or more, or base64/base64url
 * (a JWT's dotted parts too) of 20 or more mixing letters and digits, with the spread of
 * characters random text has (a word or a padded run of one letter has far less).
 */
export function looksLikeKey(text: string): boolean {
  const value = text.trim();
  if (value.length < MIN_RANDOM_CHARS) return false;
  if (/^[0-9a-f]+$/i.test(value)) return /[0-9]/.test(value) && /[a-f]/i.test(value) && entropyPerChar(value) >= 3;
  if (!/^[A-Za-z0-9+/_.\-]+={0,2}$/.test(value)) return false;
  if (!/[0-9]/.test(value) || !/[A-Z]/.test(value) || !/[a-z]/.test(value)) return false;
  return entropyPerChar(value) >= 4;
}

/**
 * Warnings for literals that look like secrets: a long random text, or any literal under an
 * object key named like one (key, secret, password, token, apiKey...). Each names the field and
 * says to use {env:NAME}; none quotes the value. Placeholders are no literal.
 */
export function secretWarnings(profile: Pick<HubProfile, 'send' | 'join' | 'leave'>): string[] {
  const warnings: string[] = [];
  for (const { field, key, text } of argumentStrings(profile)) {
    // What is left once the placeholders are out: {env:API_KEY} alone is the right way.
    const literal = text.replace(/\{[^{}\s"]*\}/g, '').trim();
    if (literal === '') continue;
    // A value from the environment ("Bearer {env:TOKEN}") is the way asked for, whatever its key.
    const byKey = key !== null && isSecretKey(key) && !text.includes('{env:');
    const byLook = looksLikeKey(literal);
    if (!byKey && !byLook) continue;
    warnings.push(W.secretWritten({ field, key: byKey ? key : null }));
  }
  return warnings;
}
