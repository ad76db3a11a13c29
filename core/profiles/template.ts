/**
 * A profile's argument templates made into calls: per connection, what stays the same
 * ({connection}, {group}, {target}, {user}) is filled once; per send only the message and the
 * planned time go in. And the other way: the message read out of a client method's arguments.
 */
import { ENV_PLACEHOLDER, type HubCall, type HubProfile, type PlaceholderName } from './profile.ts';
import { looksLikeKey } from './secrets.ts';

/** What a connection's placeholders stand for. */
export interface CallValues {
  connection: number;
  /** The run's group name (group deliveries); null when the connection is in no group. */
  group: string | null;
  /** The target's connection id (deliver "target"); null when the target never opened. */
  target: string | null;
  /** The user named by the connection's token; null without one. */
  user: string | null;
  /** {users}: the user names a send names (deliver "users", core/profiles/receivers.ts). */
  users?: readonly string[];
  /** {groups}: the run's names of the groups a send reaches (deliver "groups"). */
  groups?: readonly string[];
  /** {excluded}: the connection ids a send leaves out (deliver "groupExcept": the sender's own),
   *  read at each send, since a reconnect gives the connection a new id. */
  excluded?: () => readonly string[];
  /** {env:NAME}: the values the runner read from its environment at start (never kept). */
  env?: Readonly<Record<string, string>>;
}

/** One send's arguments, from its planned time (µs since the epoch, whole) and the message; with
 *  `{stream}` (a whole argument), the client-to-server stream the call takes there. */
export type BoundArgs = (timeUs: number, message: string, stream?: unknown) => unknown[];

type Part = (timeUs: number, message: string) => unknown;

const PLACEHOLDER = /\{(message|connection|group|target|user|time|users|groups|excluded)\}/g;

/** The call's arguments with this connection's values in place. */
export function bindArgs(call: HubCall, values: CallValues): BoundArgs {
  const parts = call.args.map((arg) => bindPart(arg, values));
  const streamAt = call.args.indexOf('{stream}');
  if (streamAt >= 0) return (timeUs, message, stream) => parts.map((part, index) => (index === streamAt ? stream : part(timeUs, message)));
  return (timeUs, message) => parts.map((part) => part(timeUs, message));
}

function bindPart(arg: unknown, values: CallValues): Part {
  if (Array.isArray(arg)) {
    const items = arg.map((item) => bindPart(item, values));
    return (timeUs, message) => items.map((item) => item(timeUs, message));
  }
  if (typeof arg === 'object' && arg !== null) {
    const entries = Object.entries(arg).map(([key, item]) => [key, bindPart(item, values)] as const);
    return (timeUs, message) => Object.fromEntries(entries.map(([key, item]) => [key, item(timeUs, message)]));
  }
  if (typeof arg !== 'string' || !arg.includes('{')) return () => arg;
  if (arg === '{message}') return messagePart;
  // Alone, the time is a number: the bundled contract's `long ts`.
  if (arg === '{time}') return timePart;
  // The lists stand alone for the whole argument (parse.ts): an array, as Clients.Users(list) takes it.
  if (arg === '{users}' || arg === '{groups}') {
    const list = [...(values[arg === '{users}' ? 'users' : 'groups'] ?? [])];
    return () => list;
  }
  if (arg === '{excluded}') {
    const excluded = values.excluded ?? (() => []);
    return () => [...excluded()];
  }
  const fixed = arg
    .replace(PLACEHOLDER, (whole, name: PlaceholderName) => (name === 'time' || name === 'message' ? whole : String(fixedValue(name, values))))
    // A variable the runner did not read (never the case past its checks) stays as written: no value is invented.
    .replace(ENV_PLACEHOLDER, (whole, name: string) => values.env?.[name] ?? whole);
  if (!fixed.includes('{time}')) return () => fixed;
  const pieces = fixed.split('{time}');
  return (timeUs) => pieces.join(String(timeUs));
}

const messagePart: Part = (_timeUs, message) => message;
const timePart: Part = (timeUs) => timeUs;

/**
 * Whether the call's arguments take any of a connection's values ({connection}, {group},
 * {target}, {user}): when none, one binding serves every connection (the bundled contract's
 * Echo(ts, payload)), instead of a few closures per connection, thousands per engine.
 */
export function takesConnectionValues(call: HubCall): boolean {
  const takes = (arg: unknown): boolean => {
    if (Array.isArray(arg)) return arg.some(takes);
    if (typeof arg === 'object' && arg !== null) return Object.values(arg).some(takes);
    return typeof arg === 'string' && [...arg.matchAll(PLACEHOLDER)].some(([, name]) => name !== 'time' && name !== 'message');
  };
  return call.args.some(takes);
}

function fixedValue(name: Exclude<PlaceholderName, 'time' | 'message'>, values: CallValues): string | number {
  if (name === 'connection') return values.connection;
  if (name === 'stream') throw new Error(`{${name}} is not written yet`);
  // The lists are whole arguments (bindPart); parse.ts refuses them inside a longer string.
  if (name === 'users' || name === 'groups' || name === 'excluded') return '';
  return values[name] ?? '';
}

/** The environment variables the profile's calls name with {env:NAME}, each once, in order. */
export function envNames(profile: Pick<HubProfile, 'send' | 'join' | 'leave'>): string[] {
  const calls = [profile.join, profile.send, profile.leave].filter((call): call is HubCall => call !== undefined);
  const names = calls.flatMap((call) => [...JSON.stringify(call.args).matchAll(ENV_PLACEHOLDER)].map((match) => match[1]!));
  return [...new Set(names)];
}

/** Whether any argument of the profile's calls uses a placeholder (e.g. {user}: then every connection needs a token naming one). */
export function usesPlaceholder(profile: HubProfile, name: PlaceholderName): boolean {
  const calls = [profile.send, profile.join, profile.leave].filter((call): call is HubCall => call !== undefined);
  return calls.some((call) => JSON.stringify(call.args).includes(`{${name}}`));
}

/**
 * Reads the message out of a client method's arguments: `arg` is an index or a path ("1.text").
 * A path's member names match as either protocol delivers them: the name as written first, then
 * any casing of it (JSON camel-cases C#'s `Message` to `message`, MessagePack keeps `Message`), so
 * one profile reads both. The other spelling is remembered once found: a run looks it up again
 * with one more property read, never a scan or a new string per message.
 */
export function messageReader(arg: number | string): (args: readonly unknown[]) => unknown {
  if (typeof arg === 'number') return (args) => args[arg];
  const [index, ...keys] = arg.split('.');
  const at = Number(index);
  const members = keys.map((key) => ({ key, lower: key.toLowerCase(), seen: null as string | null }));
  return (args) => {
    let value: unknown = args[at];
    for (const member of members) {
      if (typeof value !== 'object' || value === null) return undefined;
      value = memberOf(value as Record<string, unknown>, member);
    }
    return value;
  };
}

/** Most characters of what a hub's call carried, quoted to people (callSample). */
export const SAMPLE_CHARS = 40;

/**
 * What a hub's call carried, quoted to people when a profile reads the wrong place: a string as
 * it is, anything else as JSON; the run's secrets taken out (`scrub`: its tokens, headers, query
 * and {env:NAME} values) and any word that looks like a key hidden, then cut to
 * {@link SAMPLE_CHARS} characters with "…".
 */
export function callSample(value: unknown, scrub: (text: string) => string): string {
  const text = typeof value === 'string' ? value : jsonOf(value);
  const scrubbed = scrub(text).replace(/[A-Za-z0-9+/_.-]{20,}={0,2}/g, (word) => (looksLikeKey(word) ? '[hidden]' : word));
  return scrubbed.length > SAMPLE_CHARS ? `${scrubbed.slice(0, SAMPLE_CHARS - 1)}…` : scrubbed;
}

function jsonOf(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** A member by its name as written, else as last seen under another casing, else by any casing. */
function memberOf(object: Record<string, unknown>, member: { key: string; lower: string; seen: string | null }): unknown {
  const exact = object[member.key];
  if (exact !== undefined) return exact;
  if (member.seen !== null && object[member.seen] !== undefined) return object[member.seen];
  for (const name in object) {
    if (name.length === member.key.length && name.toLowerCase() === member.lower) {
      member.seen = name;
      return object[name];
    }
  }
  return undefined;
}

/**
 * The user an access token names, for {user}: the JWT's `name`, `unique_name` or `sub` claim
 * (what ASP.NET Core reads as the user's name or identifier). Null when the token is not a JWT
 * or names nobody. The token itself never leaves this function.
 */
export function tokenUser(token: string | null): string | null {
  const payload = token?.split('.')[1];
  if (!payload) return null;
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(payload.length / 4) * 4, '='));
    const claims = JSON.parse(json) as Record<string, unknown>;
    const user = claims.name ?? claims.unique_name ?? claims.sub;
    return typeof user === 'string' && user !== '' ? user : null;
  } catch {
    return null;
  }
}
