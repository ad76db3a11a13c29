/**
 * Reads and checks a hub profile (profile.ts), reporting every problem at once, each naming the
 * field and saying what to write instead:
 *   send.args[2]: "{mesage}" is not a placeholder; use {message}, {connection}, {group}, {target}, {user} or {time}.
 * What can only be checked against a run (the scenario shape, {user} against the credentials)
 * is checked where the run is configured (core/run/config.ts, fit.ts).
 */
import { jsonFault } from './json-position.ts';
import {
  DELIVER_KINDS, isGroupDelivery, MAX_CALL_ARGS, MAX_METHOD_NAME_CHARS, MAX_PROFILE_CHARS, MAX_PROFILE_NAME_CHARS, METHOD_NAME, PLACEHOLDERS,
  type DeliverKind, type HubCall, type HubProfile, type PlaceholderName,
} from './profile.ts';

export type ProfileResult = { ok: true; profile: HubProfile } | { ok: false; errors: string[] };

const FIELDS = ['name', 'join', 'leave', 'send', 'receive', 'deliver'];
const PLACEHOLDER_LIST = `${PLACEHOLDERS.slice(0, -1).map((p) => `{${p}}`).join(', ')} or {${PLACEHOLDERS.at(-1)}}`;
/** Anything that looks like a placeholder: a word in braces. */
const BRACED = /\{([^{}\s"]*)\}/g;
/** A path into an argument: its index, then property names ("1.text", "0.payload.body"). */
const ARG_PATH = /^(0|[1-9]\d*)(\.[A-Za-z_$][A-Za-z0-9_$]*)+$/;

/** Reads a profile from its JSON text. */
export function parseHubProfile(text: string): ProfileResult {
  if (text.trim() === '') return { ok: false, errors: ['The profile is empty. Paste or load a JSON document such as profiles/chat-all.json.'] };
  if (text.length > MAX_PROFILE_CHARS) return { ok: false, errors: [`The profile is ${text.length.toLocaleString('en-US')} characters long; a profile is a few hundred (at most ${MAX_PROFILE_CHARS.toLocaleString('en-US')}). Check that this is the right file.`] };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const fault = jsonFault(text);
    const where = fault ? ` at line ${fault.line}, column ${fault.column}: expected ${fault.expected}` : `: ${error instanceof Error ? error.message : String(error)}`;
    return { ok: false, errors: [`The profile is not valid JSON${where}.`] };
  }
  return checkHubProfile(value);
}

/** Checks a profile already read (a kept run's, a link's): the same rules as {@link parseHubProfile}. */
export function checkHubProfile(value: unknown): ProfileResult {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, errors: [`The profile must be a JSON object with name, send, receive and deliver, but is ${kindOf(value)}.`] };
  }
  const input = value as Record<string, unknown>;
  const errors: string[] = [];
  for (const key of Object.keys(input)) {
    if (!FIELDS.includes(key)) errors.push(`${key}: not a profile field; the fields are ${FIELDS.join(', ')}.`);
  }
  const name = typeof input.name === 'string' ? input.name.trim() : '';
  if (typeof input.name !== 'string' || name === '') errors.push(`name: required, the text the run is shown with (e.g. "chat room"), but is ${describe(input.name)}.`);
  else if (name.length > MAX_PROFILE_NAME_CHARS) errors.push(`name: ${name.length} characters; at most ${MAX_PROFILE_NAME_CHARS}.`);

  const deliver = input.deliver as DeliverKind;
  const deliverKnown = (DELIVER_KINDS as readonly unknown[]).includes(input.deliver);
  if (!deliverKnown) errors.push(`deliver: must be one of ${DELIVER_KINDS.join(', ')}, but is ${describe(input.deliver)}.`);
  const allowed = (where: string): Set<PlaceholderName> => {
    const set = new Set<PlaceholderName>(['connection', 'user', 'time']);
    if (where === 'send') set.add('message');
    // With an unknown delivery only that is reported: {group} and {target} cannot be judged.
    if (!deliverKnown || isGroupDelivery(deliver)) set.add('group');
    if (!deliverKnown || (deliver === 'target' && where === 'send')) set.add('target');
    return set;
  };

  const send = readCall('send', input.send, true, errors, allowed('send'), deliverKnown ? deliver : null);
  const join = readCall('join', input.join, false, errors, allowed('join'), deliverKnown ? deliver : null);
  const leave = readCall('leave', input.leave, false, errors, allowed('leave'), deliverKnown ? deliver : null);
  if (send) {
    const messages = countMessages(send.args);
    if (messages === 0) errors.push('send.args: {message} is missing; put "{message}" as the argument that carries the text, exactly once.');
    else if (messages > 1) errors.push(`send.args: {message} appears ${messages} times; it must appear exactly once (the receiver reads one message per call).`);
  }
  if (deliverKnown && isGroupDelivery(deliver) && input.join === undefined) {
    errors.push(`join: required with deliver "${deliver}": the run puts each connection in its group with it, e.g. { "method": "JoinRoom", "args": ["{group}"] }.`);
  }
  const receive = readReceive(input.receive, deliverKnown ? deliver : null, errors);
  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    profile: { name, ...(join ? { join } : {}), ...(leave ? { leave } : {}), send: send!, ...(receive ? { receive } : {}), deliver },
  };
}

function readCall(field: string, raw: unknown, required: boolean, errors: string[], allowed: Set<PlaceholderName>, deliver: DeliverKind | null): HubCall | null {
  if (raw === undefined && !required) return null;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    errors.push(`${field}: must be an object { "method": "...", "args": [...] }, but is ${describe(raw)}.`);
    return null;
  }
  const call = raw as Record<string, unknown>;
  for (const key of Object.keys(call)) if (key !== 'method' && key !== 'args') errors.push(`${field}.${key}: not a field of a hub call; use method and args.`);
  const method = checkMethod(`${field}.method`, call.method, errors);
  const args = call.args ?? [];
  if (!Array.isArray(args)) {
    errors.push(`${field}.args: must be an array of the method's arguments, but is ${describe(args)}.`);
    return null;
  }
  if (args.length > MAX_CALL_ARGS) errors.push(`${field}.args: ${args.length} arguments; at most ${MAX_CALL_ARGS}.`);
  args.forEach((arg, index) => checkPlaceholders(`${field}.args[${index}]`, arg, allowed, deliver, errors));
  return method === null ? null : { method, args };
}

function checkMethod(field: string, raw: unknown, errors: string[]): string | null {
  if (typeof raw !== 'string' || raw === '') {
    errors.push(`${field}: required, the hub method's name (e.g. "SendMessage"), but is ${describe(raw)}.`);
    return null;
  }
  if (raw.length > MAX_METHOD_NAME_CHARS) errors.push(`${field}: ${raw.length} characters; a method name has at most ${MAX_METHOD_NAME_CHARS}.`);
  else if (!METHOD_NAME.test(raw)) errors.push(`${field}: "${raw}" is not a method name; use letters, digits and _ as in C# (e.g. "SendMessage").`);
  else return raw;
  return null;
}

/** Checks every string inside an argument (objects and arrays too) for placeholders. */
function checkPlaceholders(field: string, arg: unknown, allowed: Set<PlaceholderName>, deliver: DeliverKind | null, errors: string[]): void {
  if (Array.isArray(arg)) return arg.forEach((item, index) => checkPlaceholders(`${field}[${index}]`, item, allowed, deliver, errors));
  if (typeof arg === 'object' && arg !== null) {
    for (const [key, item] of Object.entries(arg)) checkPlaceholders(`${field}.${key}`, item, allowed, deliver, errors);
    return;
  }
  if (typeof arg !== 'string') return;
  for (const match of arg.matchAll(BRACED)) {
    const name = match[1]!;
    if (!(PLACEHOLDERS as readonly string[]).includes(name)) {
      errors.push(`${field}: "${match[0]}" is not a placeholder; use ${PLACEHOLDER_LIST}.`);
    } else if (name === 'message' && arg !== '{message}') {
      errors.push(`${field}: "${arg}": {message} must be the whole argument, "{message}", so the hub passes the tool's text on as it is.`);
    } else if (!allowed.has(name as PlaceholderName)) {
      errors.push(`${field}: ${notAllowed(name as PlaceholderName, field, deliver)}`);
    }
  }
}

function notAllowed(name: PlaceholderName, field: string, deliver: DeliverKind | null): string {
  const with_ = deliver ? ` (deliver is "${deliver}")` : '';
  if (name === 'message') return `{message} goes in send.args only; ${field.split('.')[0]} carries no message.`;
  if (name === 'group') return `{group} is only known with deliver "group" or "groupOthers"${with_}: a connection is in a group only then.`;
  return `{target} is only known in send.args with deliver "target"${with_}: only a direct message has a target.`;
}

function countMessages(arg: unknown): number {
  if (Array.isArray(arg)) return arg.reduce((sum: number, item) => sum + countMessages(item), 0);
  if (typeof arg === 'object' && arg !== null) return Object.values(arg).reduce((sum: number, item) => sum + countMessages(item), 0);
  return arg === '{message}' ? 1 : 0;
}

function readReceive(raw: unknown, deliver: DeliverKind | null, errors: string[]): HubProfile['receive'] | null {
  if (deliver === 'return') {
    if (raw !== undefined) errors.push('receive: not used with deliver "return": the send method\'s return value is the reception. Remove receive.');
    return null;
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    errors.push(`receive: required, the client method the hub calls and which argument carries the message, e.g. { "method": "ReceiveMessage", "arg": 1 }, but is ${describe(raw)}.`);
    return null;
  }
  const receive = raw as Record<string, unknown>;
  for (const key of Object.keys(receive)) if (key !== 'method' && key !== 'arg') errors.push(`receive.${key}: not a field of receive; use method and arg.`);
  const method = checkMethod('receive.method', receive.method, errors);
  const arg = receive.arg;
  const argOk = (typeof arg === 'number' && Number.isInteger(arg) && arg >= 0 && arg < MAX_CALL_ARGS) || (typeof arg === 'string' && ARG_PATH.test(arg) && Number(arg.split('.')[0]) < MAX_CALL_ARGS);
  if (!argOk) {
    errors.push(`receive.arg: which argument carries the message: its index from 0 to ${MAX_CALL_ARGS - 1}, or a path into an object argument such as "1.text", but is ${describe(arg)}.`);
  }
  return method !== null && argOk ? { method, arg: arg as number | string } : null;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

function describe(raw: unknown): string {
  if (raw === undefined) return 'missing';
  if (typeof raw === 'string') return `"${raw}"`;
  if (typeof raw === 'object') return kindOf(raw);
  return String(raw);
}
