/**
 * A profile's argument templates made into calls: per connection, what stays the same
 * ({connection}, {group}, {target}, {user}) is filled once; per send only the message and the
 * planned time go in. And the other way: the message read out of a client method's arguments.
 */
import type { HubCall, HubProfile, PlaceholderName } from './profile.ts';

/** What a connection's placeholders stand for. */
export interface CallValues {
  connection: number;
  /** The run's group name (group deliveries); null when the connection is in no group. */
  group: string | null;
  /** The target's connection id (deliver "target"); null when the target never opened. */
  target: string | null;
  /** The user named by the connection's token; null without one. */
  user: string | null;
}

/** One send's arguments, from its planned time (µs since the epoch, whole) and the message. */
export type BoundArgs = (timeUs: number, message: string) => unknown[];

type Part = (timeUs: number, message: string) => unknown;

const PLACEHOLDER = /\{(message|connection|group|target|user|time)\}/g;

/** The call's arguments with this connection's values in place. */
export function bindArgs(call: HubCall, values: CallValues): BoundArgs {
  const parts = call.args.map((arg) => bindPart(arg, values));
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
  const fixed = arg.replace(PLACEHOLDER, (whole, name: PlaceholderName) => (name === 'time' || name === 'message' ? whole : String(fixedValue(name, values))));
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
  if (name === 'stream' || name === 'users' || name === 'groups' || name === 'excluded') throw new Error(`{${name}} is not written yet`);
  return values[name] ?? '';
}

/** Whether any argument of the profile's calls uses a placeholder (e.g. {user}: then every connection needs a token naming one). */
export function usesPlaceholder(profile: HubProfile, name: PlaceholderName): boolean {
  const calls = [profile.send, profile.join, profile.leave].filter((call): call is HubCall => call !== undefined);
  return calls.some((call) => JSON.stringify(call.args).includes(`{${name}}`));
}

/** Reads the message out of a client method's arguments: `arg` is an index or a path ("1.text"). */
export function messageReader(arg: number | string): (args: readonly unknown[]) => unknown {
  if (typeof arg === 'number') return (args) => args[arg];
  const [index, ...keys] = arg.split('.');
  const at = Number(index);
  return (args) => {
    let value: unknown = args[at];
    for (const key of keys) {
      if (typeof value !== 'object' || value === null) return undefined;
      value = (value as Record<string, unknown>)[key];
    }
    return value;
  };
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
