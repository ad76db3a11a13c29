/**
 * Reads and checks a hub profile (profile.ts), reporting every problem at once, each naming the
 * field and saying what to write instead:
 *   send.args[2]: "{mesage}" is not a placeholder; use {message}, {connection}, … or {env:NAME} ….
 * What each delivery allows and needs in send.args is delivery-checks.ts'. What can only be
 * checked against a run (the scenario shape, a delivery that would run for nothing, {user} and
 * the deliveries to users against the credentials, {env:NAME} against the environment) is checked
 * where the run is configured (core/run-config/config.ts, fit.ts, the runner's cli/profile-args.ts).
 */
import { jsonFault } from './json-position.ts';
import {
  DELIVER_KINDS, isGroupDelivery, MAX_CALL_ARGS, MAX_METHOD_NAME_CHARS, MAX_PROFILE_CHARS, MAX_PROFILE_NAME_CHARS, METHOD_NAME, PLACEHOLDERS,
  type DeliverKind, type HubCall, type HubProfile, type PlaceholderName,
} from './profile.ts';
import { answerWithProblems, carrierAllowed, carrierProblems, streamNotAllowed, streamPlacementProblem } from './carrier-checks.ts';
import { deliveryPlaceholderProblems, listAllowed, listNotAllowed, isListPlaceholder } from './delivery-checks.ts';
import { PROFILE_WORDS as W } from './words.ts';

export type ProfileResult = { ok: true; profile: HubProfile } | { ok: false; errors: string[] };

const FIELDS = ['name', 'join', 'leave', 'send', 'receive', 'deliver', 'answer'];
const PLACEHOLDER_LIST = W.placeholderList({ names: PLACEHOLDERS });
/** Anything that looks like a placeholder: a word in braces. */
const BRACED = /\{([^{}\s"]*)\}/g;
/** The NAME of {env:NAME}, as a shell names a variable. */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** A path into an argument: its index, then property names ("1.text", "0.payload.body"). */
const ARG_PATH = /^(0|[1-9]\d*)(\.[A-Za-z_$][A-Za-z0-9_$]*)+$/;

/** Reads a profile from its JSON text. */
export function parseHubProfile(text: string): ProfileResult {
  if (text.trim() === '') return { ok: false, errors: [W.empty()] };
  if (text.length > MAX_PROFILE_CHARS) return { ok: false, errors: [W.tooLong({ chars: text.length, max: MAX_PROFILE_CHARS })] };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const fault = jsonFault(text);
    const where = fault ? W.notJsonAt(fault) : W.notJsonSaid({ message: error instanceof Error ? error.message : String(error) });
    return { ok: false, errors: [W.notJson({ where })] };
  }
  return checkHubProfile(value);
}

/** Checks a profile already read (a kept run's, a link's): the same rules as {@link parseHubProfile}. */
export function checkHubProfile(value: unknown): ProfileResult {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, errors: [W.notObject({ is: kindOf(value) })] };
  }
  const input = value as Record<string, unknown>;
  const errors: string[] = [];
  for (const key of Object.keys(input)) {
    if (!FIELDS.includes(key)) errors.push(W.unknownField({ key, fields: FIELDS }));
  }
  const name = typeof input.name === 'string' ? input.name.trim() : '';
  if (typeof input.name !== 'string' || name === '') errors.push(W.nameMissing({ is: describe(input.name) }));
  else if (name.length > MAX_PROFILE_NAME_CHARS) errors.push(W.nameTooLong({ chars: name.length, max: MAX_PROFILE_NAME_CHARS }));

  const deliver = input.deliver as DeliverKind;
  const deliverKnown = (DELIVER_KINDS as readonly unknown[]).includes(input.deliver);
  if (!deliverKnown) errors.push(W.deliverUnknown({ kinds: DELIVER_KINDS, is: describe(input.deliver) }));
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
    errors.push(W.joinMissing({ deliver }));
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
    errors.push(W.callNotObject({ field, is: describe(raw) }));
    return null;
  }
  const call = raw as Record<string, unknown>;
  for (const key of Object.keys(call)) if (key !== 'method' && key !== 'args') errors.push(W.callUnknownField({ field, key }));
  const method = checkMethod(`${field}.method`, call.method, errors);
  const args = call.args ?? [];
  if (!Array.isArray(args)) {
    errors.push(W.argsNotArray({ field, is: describe(args) }));
    return null;
  }
  if (args.length > MAX_CALL_ARGS) errors.push(W.tooManyArgs({ field, count: args.length, max: MAX_CALL_ARGS }));
  args.forEach((arg, index) => checkPlaceholders(`${field}.args[${index}]`, arg, allowed, deliver, errors));
  return method === null ? null : { method, args };
}

function checkMethod(field: string, raw: unknown, errors: string[]): string | null {
  if (typeof raw !== 'string' || raw === '') {
    errors.push(W.methodMissing({ field, is: describe(raw) }));
    return null;
  }
  if (raw.length > MAX_METHOD_NAME_CHARS) errors.push(W.methodTooLong({ field, chars: raw.length, max: MAX_METHOD_NAME_CHARS }));
  else if (!METHOD_NAME.test(raw)) errors.push(W.notMethodName({ field, name: raw }));
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
      errors.push(W.envInAnswer({ field, found: match[0] }));
    } else if (name.startsWith('env:')) {
      if (!ENV_NAME.test(name.slice(4))) errors.push(W.envBadName({ field, found: match[0] }));
    } else if (!(PLACEHOLDERS as readonly string[]).includes(name)) {
      errors.push(W.notPlaceholder({ field, found: match[0], list: PLACEHOLDER_LIST }));
    } else if (name === 'message' && arg !== '{message}') {
      errors.push(W.messageNotWhole({ field, arg }));
    } else if (!allowed.has(name as PlaceholderName)) {
      errors.push(W.placeholderNotHere({ field, why: notAllowed(name as PlaceholderName, field, deliver) }));
    } else if (name === 'stream' && streamPlacementProblem(field, arg)) {
      errors.push(streamPlacementProblem(field, arg)!);
    } else if (isListPlaceholder(name) && arg !== match[0]) {
      errors.push(W.listNotWhole({ field, arg, name }));
    }
  }
}

function notAllowed(name: PlaceholderName, field: string, deliver: DeliverKind | null): string {
  if (name === 'message') return W.messageNotHere({ call: field.split('.')[0]! });
  if (name === 'group') return W.groupNotHere({ deliver });
  if (isListPlaceholder(name)) return listNotAllowed(name, deliver);
  if (field.startsWith('answer.')) return W.notInAnswer({ name });
  if (name === 'stream') return streamNotAllowed(field, deliver);
  return W.targetNotHere({ deliver });
}

function readReceive(raw: unknown, deliver: DeliverKind | null, errors: string[]): HubProfile['receive'] | null {
  if (deliver === 'return') {
    if (raw !== undefined) errors.push(W.receiveWithReturn());
    return null;
  }
  if (deliver === 'stream') {
    if (raw !== undefined) errors.push(W.receiveWithStream());
    return null;
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    errors.push(W.receiveMissing({ is: describe(raw) }));
    return null;
  }
  const receive = raw as Record<string, unknown>;
  for (const key of Object.keys(receive)) if (key !== 'method' && key !== 'arg') errors.push(W.receiveUnknownField({ key }));
  const method = checkMethod('receive.method', receive.method, errors);
  const arg = receive.arg;
  const argOk = (typeof arg === 'number' && Number.isInteger(arg) && arg >= 0 && arg < MAX_CALL_ARGS) || (typeof arg === 'string' && ARG_PATH.test(arg) && Number(arg.split('.')[0]) < MAX_CALL_ARGS);
  if (!argOk) {
    errors.push(W.receiveArg({ last: MAX_CALL_ARGS - 1, is: describe(arg) }));
  }
  return method !== null && argOk ? { method, arg: arg as number | string } : null;
}

/** A client result's answer: the client method the hub invokes and what the tool answers with
 *  (deliver "return" only). */
function readAnswer(raw: unknown, deliver: DeliverKind | null, errors: string[]): HubProfile['answer'] | null {
  if (raw === undefined) return null;
  if (deliver !== null && deliver !== 'return') {
    errors.push(W.answerNotReturn({ deliver }));
    return null;
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    errors.push(W.answerNotObject({ is: describe(raw) }));
    return null;
  }
  const answer = raw as Record<string, unknown>;
  for (const key of Object.keys(answer)) if (key !== 'method' && key !== 'with') errors.push(W.answerUnknownField({ key }));
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
