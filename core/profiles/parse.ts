/**
 * Reads and checks a hub profile (profile.ts), reporting every problem at once, each naming the
 * field and saying what to write instead:
 *   send.args[2]: "{mesage}" is not a placeholder; use {message}, {connection}, … or {env:NAME} ….
 * What each delivery allows and needs in send.args is delivery-checks.ts'. What can only be
 * checked against a run (the scenario shape, a delivery that would run for nothing, {user} and
 * the deliveries to users against the credentials, {env:NAME} against the environment) is checked
 * where the run is configured (core/run/config.ts, fit.ts, the runner's cli/profile-args.ts).
 */
import { jsonFault } from './json-position.ts';
import {
  DELIVER_KINDS, isGroupDelivery, MAX_CALL_ARGS, MAX_METHOD_NAME_CHARS, MAX_PROFILE_CHARS, MAX_PROFILE_NAME_CHARS, METHOD_NAME, PLACEHOLDERS,
  type DeliverKind, type HubCall, type HubProfile, type PlaceholderName,
} from './profile.ts';
import { answerWithProblems, carrierAllowed, carrierProblems, streamNotAllowed, streamPlacementProblem } from './carrier-checks.ts';
import { deliveryPlaceholderProblems, listAllowed, listNotAllowed, isListPlaceholder } from './delivery-checks.ts';

export type ProfileResult = { ok: true; profile: HubProfile } | { ok: false; errors: string[] };

const FIELDS = ['name', 'join', 'leave', 'send', 'receive', 'deliver', 'answer'];
const PLACEHOLDER_LIST = `${PLACEHOLDERS.map((p) => `{${p}}`).join(', ')}, or {env:NAME} for a value from the runner's environment`;
/** Anything that looks like a placeholder: a word in braces. */
const BRACED = /\{([^{}\s"]*)\}/g;
/** The NAME of {env:NAME}, as a shell names a variable. */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
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
    for (const list of listAllowed(deliverKnown ? deliver : null, where)) set.add(list);
    for (const carrier of carrierAllowed(deliverKnown ? deliver : null, where, input.answer !== undefined)) set.add(carrier);
    return set;
  };

  const send = readCall('send', input.send, true, errors, allowed('send'), deliverKnown ? deliver : null);
  const join = readCall('join', input.join, false, errors, allowed('join'), deliverKnown ? deliver : null);
  const leave = readCall('leave', input.leave, false, errors, allowed('leave'), deliverKnown ? deliver : null);
  if (send) errors.push(...carrierProblems(deliverKnown ? deliver : null, send, input.answer !== undefined));
  if (send && deliverKnown) errors.push(...deliveryPlaceholderProblems(deliver, send));
  if (deliverKnown && isGroupDelivery(deliver) && input.join === undefined) {
    errors.push(`join: required with deliver "${deliver}": the run puts each connection in its group with it, e.g. { "method": "JoinRoom", "args": ["{group}"] }.`);
  }
  const receive = readReceive(input.receive, deliverKnown ? deliver : null, errors);
  const answer = readAnswer(input.answer, deliverKnown ? deliver : null, errors);
  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    profile: { name, ...(join ? { join } : {}), ...(leave ? { leave } : {}), send: send!, ...(receive ? { receive } : {}), deliver, ...(answer ? { answer } : {}) },
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
    if (name.startsWith('env:') && field.startsWith('answer.')) {
      // The runner fills {env:NAME} in the calls it makes, not in what it answers the hub with.
      errors.push(`${field}: "${match[0]}": {env:NAME} is read for join, send and leave arguments only; an answer holds "{message}", the text the tool answers with, and literals.`);
    } else if (name.startsWith('env:')) {
      if (!ENV_NAME.test(name.slice(4))) errors.push(`${field}: "${match[0]}" does not name an environment variable; write {env:NAME} with NAME of letters, digits and _ (e.g. {env:API_KEY}).`);
    } else if (!(PLACEHOLDERS as readonly string[]).includes(name)) {
      errors.push(`${field}: "${match[0]}" is not a placeholder; use ${PLACEHOLDER_LIST}.`);
    } else if (name === 'message' && arg !== '{message}') {
      errors.push(`${field}: "${arg}": {message} must be the whole argument, "{message}", so the hub passes the tool's text on as it is.`);
    } else if (!allowed.has(name as PlaceholderName)) {
      errors.push(`${field}: ${notAllowed(name as PlaceholderName, field, deliver)}`);
    } else if (name === 'stream' && streamPlacementProblem(field, arg)) {
      errors.push(streamPlacementProblem(field, arg)!);
    } else if (isListPlaceholder(name) && arg !== match[0]) {
      errors.push(`${field}: "${arg}": {${name}} must be the whole argument, "{${name}}": it stands for a list, passed as an array.`);
    }
  }
}

function notAllowed(name: PlaceholderName, field: string, deliver: DeliverKind | null): string {
  const with_ = deliver ? ` (deliver is "${deliver}")` : '';
  if (name === 'message') return `{message} goes in send.args only; ${field.split('.')[0]} carries no message.`;
  if (name === 'group') return `{group} is only known with deliver "group", "groupOthers", "groups" or "groupExcept"${with_}: a connection is in a group only then.`;
  if (isListPlaceholder(name)) return listNotAllowed(name, deliver);
  if (field.startsWith('answer.')) return `{${name}} is not known in an answer: it holds "{message}", the text the tool answers with.`;
  if (name === 'stream') return streamNotAllowed(field, deliver);
  return `{target} is only known in send.args with deliver "target", or "return" with an answer${with_}: only a direct message, or a client result asked of another connection, has a target.`;
}

function readReceive(raw: unknown, deliver: DeliverKind | null, errors: string[]): HubProfile['receive'] | null {
  if (deliver === 'return') {
    if (raw !== undefined) errors.push('receive: not used with deliver "return": the send method\'s return value is the reception. Remove receive.');
    return null;
  }
  if (deliver === 'stream') {
    if (raw !== undefined) errors.push('receive: not used with deliver "stream": the items of the stream the send method returns are the receptions. Remove receive.');
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

/** A client result's answer: the client method the hub invokes and what the tool answers with
 *  (deliver "return" only). */
function readAnswer(raw: unknown, deliver: DeliverKind | null, errors: string[]): HubProfile['answer'] | null {
  if (raw === undefined) return null;
  if (deliver !== null && deliver !== 'return') {
    errors.push(`answer: only with deliver "return" (deliver is "${deliver}"): the hub's call that awaits a client's answer returns to the caller, and that return value is the reception.`);
    return null;
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    errors.push(`answer: must be an object { "method": "GetMessage", "with": "{message}" }, the client method the hub invokes and what the tool answers with, but is ${describe(raw)}.`);
    return null;
  }
  const answer = raw as Record<string, unknown>;
  for (const key of Object.keys(answer)) if (key !== 'method' && key !== 'with') errors.push(`answer.${key}: not a field of answer; use method and with.`);
  const method = checkMethod('answer.method', answer.method, errors);
  const problems = answerWithProblems(answer.with);
  errors.push(...problems);
  if (answer.with !== undefined) checkPlaceholders('answer.with', answer.with, new Set<PlaceholderName>(['message']), deliver, errors);
  return method !== null && problems.length === 0 ? { method, with: answer.with } : null;
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
