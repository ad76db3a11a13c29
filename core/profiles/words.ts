/**
 * The words of hub profiles: every problem a profile's check finds (each naming the field and
 * saying what to write instead), what a profile needs of the run it drives, and the warnings for
 * secrets written into it. The checks (parse.ts, carrier-checks.ts, delivery-checks.ts, fit.ts,
 * secrets.ts, json-position.ts) decide which problem it is and with what values; only this file
 * writes prose, so the page, the runner and the reports say it alike. Pure.
 */

/** `with_` of a refused placeholder: ` (deliver is "group")`, or nothing while the delivery is unknown. */
const deliverIs = (deliver: string | null) => (deliver ? ` (deliver is "${deliver}")` : '');

export const PROFILE_WORDS = {
  // Reading the text (parse.ts).
  empty: () => 'The profile is empty. Paste or load a JSON document such as profiles/chat-all.json.',
  tooLong: (p: { chars: number; max: number }) => `The profile is ${p.chars.toLocaleString('en-US')} characters long; a profile is a few hundred (at most ${p.max.toLocaleString('en-US')}). Check that this is the right file.`,
  notJson: (p: { where: string }) => `The profile is not valid JSON${p.where}.`,
  /** Where JSON.parse refused the text: the scanner's place, or JSON.parse's own words. */
  notJsonAt: (p: { line: number; column: number; expected: string }) => ` at line ${p.line}, column ${p.column}: expected ${p.expected}`,
  notJsonSaid: (p: { message: string }) => `: ${p.message}`,
  notObject: (p: { is: string }) => `The profile must be a JSON object with name, send, receive and deliver, but is ${p.is}.`,
  unknownField: (p: { key: string; fields: readonly string[] }) => `${p.key}: not a profile field; the fields are ${p.fields.join(', ')}.`,
  nameMissing: (p: { is: string }) => `name: required, the text the run is shown with (e.g. "chat room"), but is ${p.is}.`,
  nameTooLong: (p: { chars: number; max: number }) => `name: ${p.chars} characters; at most ${p.max}.`,
  deliverUnknown: (p: { kinds: readonly string[]; is: string }) => `deliver: must be one of ${p.kinds.join(', ')}, but is ${p.is}.`,
  joinMissing: (p: { deliver: string }) => `join: required with deliver "${p.deliver}": the run puts each connection in its group with it, e.g. { "method": "JoinRoom", "args": ["{group}"] }.`,
  callNotObject: (p: { field: string; is: string }) => `${p.field}: must be an object { "method": "...", "args": [...] }, but is ${p.is}.`,
  callUnknownField: (p: { field: string; key: string }) => `${p.field}.${p.key}: not a field of a hub call; use method and args.`,
  argsNotArray: (p: { field: string; is: string }) => `${p.field}.args: must be an array of the method's arguments, but is ${p.is}.`,
  tooManyArgs: (p: { field: string; count: number; max: number }) => `${p.field}.args: ${p.count} arguments; at most ${p.max}.`,
  methodMissing: (p: { field: string; is: string }) => `${p.field}: required, the hub method's name (e.g. "SendMessage"), but is ${p.is}.`,
  methodTooLong: (p: { field: string; chars: number; max: number }) => `${p.field}: ${p.chars} characters; a method name has at most ${p.max}.`,
  notMethodName: (p: { field: string; name: string }) => `${p.field}: "${p.name}" is not a method name; use letters, digits and _ as in C# (e.g. "SendMessage").`,

  // Placeholders (parse.ts).
  /** The placeholders, said: "{message}, {connection}, …, or {env:NAME} for a value from the runner's environment". */
  placeholderList: (p: { names: readonly string[] }) => `${p.names.map((name) => `{${name}}`).join(', ')}, or {env:NAME} for a value from the runner's environment`,
  envInAnswer: (p: { field: string; found: string }) => `${p.field}: "${p.found}": {env:NAME} is read for join, send and leave arguments only; an answer holds "{message}", the text the tool answers with, and literals.`,
  envBadName: (p: { field: string; found: string }) => `${p.field}: "${p.found}" does not name an environment variable; write {env:NAME} with NAME of letters, digits and _ (e.g. {env:API_KEY}).`,
  notPlaceholder: (p: { field: string; found: string; list: string }) => `${p.field}: "${p.found}" is not a placeholder; use ${p.list}.`,
  messageNotWhole: (p: { field: string; arg: string }) => `${p.field}: "${p.arg}": {message} must be the whole argument, "{message}", so the hub passes the tool's text on as it is.`,
  /** A placeholder refused where it is: the field, then why (one of the `…NotHere` entries). */
  placeholderNotHere: (p: { field: string; why: string }) => `${p.field}: ${p.why}`,
  listNotWhole: (p: { field: string; arg: string; name: string }) => `${p.field}: "${p.arg}": {${p.name}} must be the whole argument, "{${p.name}}": it stands for a list, passed as an array.`,
  messageNotHere: (p: { call: string }) => `{message} goes in send.args only; ${p.call} carries no message.`,
  groupNotHere: (p: { deliver: string | null }) => `{group} is only known with deliver "group", "groupOthers", "groups" or "groupExcept"${deliverIs(p.deliver)}: a connection is in a group only then.`,
  notInAnswer: (p: { name: string }) => `{${p.name}} is not known in an answer: it holds "{message}", the text the tool answers with.`,
  targetNotHere: (p: { deliver: string | null }) => `{target} is only known in send.args with deliver "target", or "return" with an answer${deliverIs(p.deliver)}: only a direct message, or a client result asked of another connection, has a target.`,

  // receive and answer (parse.ts).
  receiveWithReturn: () => 'receive: not used with deliver "return": the send method\'s return value is the reception. Remove receive.',
  receiveWithStream: () => 'receive: not used with deliver "stream": the items of the stream the send method returns are the receptions. Remove receive.',
  receiveMissing: (p: { is: string }) => `receive: required, the client method the hub calls and which argument carries the message, e.g. { "method": "ReceiveMessage", "arg": 1 }, but is ${p.is}.`,
  receiveUnknownField: (p: { key: string }) => `receive.${p.key}: not a field of receive; use method and arg.`,
  receiveArg: (p: { last: number; is: string }) => `receive.arg: which argument carries the message: its index from 0 to ${p.last}, or a path into an object argument such as "1.text", but is ${p.is}.`,
  answerNotReturn: (p: { deliver: string }) => `answer: only with deliver "return" (deliver is "${p.deliver}"): the hub's call that awaits a client's answer returns to the caller, and that return value is the reception.`,
  answerNotObject: (p: { is: string }) => `answer: must be an object { "method": "GetMessage", "with": "{message}" }, the client method the hub invokes and what the tool answers with, but is ${p.is}.`,
  answerUnknownField: (p: { key: string }) => `answer.${p.key}: not a field of answer; use method and with.`,

  // What carries the text (carrier-checks.ts).
  streamWithReturn: () => '{stream} cannot go with deliver "return": a client-to-server stream ends only with the run, so its call has no return value per message. Use "{message}", or deliver "stream", "self" or another delivery.',
  streamNotHere: (p: { call: string }) => `{stream} goes in send.args only; ${p.call} opens no stream.`,
  streamNotWhole: (p: { field: string; arg: string }) => `${p.field}: "${p.arg}": {stream} must be a whole argument of its own, "{stream}": it stands for the stream the client writes its messages to.`,
  messageTwice: (p: { count: number }) => `send.args: {message} appears ${p.count} times; it must appear exactly once (the receiver reads one message per call).`,
  streamTwice: (p: { count: number }) => `send.args: {stream} appears ${p.count} times; a call takes one stream of the tool's messages.`,
  messageAndStream: () => 'send.args: {message} and {stream} both appear; use one: "{message}" for a call per message, "{stream}" for one stream whose items are the messages.',
  messageMissing: (p: { orStream: boolean }) => `send.args: {message} is missing; put "{message}" as the argument that carries the text, exactly once${p.orStream ? ' (or "{stream}" for a client-to-server stream of the messages)' : ''}.`,
  answerWithMissing: () => 'answer.with: required, what the tool answers with: "{message}", or an object or list holding "{message}" once.',
  answerWithNoMessage: () => 'answer.with: {message} is missing; put "{message}" where the answer carries the tool\'s text, exactly once.',
  answerWithTwice: (p: { count: number }) => `answer.with: {message} appears ${p.count} times; it must appear exactly once.`,

  // What each delivery needs in send.args (delivery-checks.ts).
  listNotHere: (p: { name: 'users' | 'groups' | 'excluded'; delivery: string; deliver: string | null }) => `{${p.name}} is only known in send.args with deliver "${p.delivery}"${deliverIs(p.deliver)}: ${LISTS[p.name]}.`,
  deliveryNeeds: (p: { deliver: string; name: string; why: string; example: string }) => `send.args: deliver "${p.deliver}" needs {${p.name}}, but send.args has none: ${p.why}. Put "{${p.name}}" where the hub takes it, e.g. ${p.example}.`,
  /** Why a delivery needs its placeholder, said inside deliveryNeeds. */
  needTarget: () => 'without the target\'s connection id the hub cannot send to it, and a hub that answers the caller would pass for a send to another connection',
  needUser: () => 'the hub sends to the user it is given, the sender\'s own (named by its access token)',
  needUsers: () => 'the hub sends to the users it is given, a list the run fills (the sender\'s user and the next one)',
  needGroups: () => 'the hub sends to the groups it is given, a list the run fills (the sender\'s group and the next one)',
  needGroup: () => 'the hub sends to the group it is given, the sender\'s',
  needExcluded: () => 'the hub leaves out the connections it is given, a list the run fills (the sender\'s id)',

  // What a profile needs of its run (fit.ts).
  shapeMisfit: (p: { shape: string; profile: string; deliver: string; target: 'with' | 'without' | null; shapes: readonly string[] }) => `Scenario ${p.shape} does not fit the profile "${p.profile}": deliver "${p.deliver}"${p.target ? `, ${p.target} {target} in send.args,` : ''} runs as ${p.shapes.join(' or ')}. Choose that scenario, or leave it out for the default.`,
  noToken: (p: { profile: string; toUsers: boolean; deliver: string }) => `The profile "${p.profile}" ${usesUsers(p)}, but the run has no token. Give one per user (the runner: --access-token-file, one token a line)${usersInstead(p.toUsers)}`,
  namelessTokens: (p: { profile: string; toUsers: boolean; deliver: string; nameless: number; tokens: number }) => `The profile "${p.profile}" ${usesUsers(p)}, but ${p.nameless} of the ${p.tokens} access tokens name no user (a JWT with a name, unique_name or sub claim). Use tokens that name their user${usersInstead(p.toUsers)}`,
  othersAlone: (p: { connections: number }) => `deliver: "others" with ${p.connections} connection runs for nothing: each send goes to every connection but its sender, and there is no other. Raise the connections to at least 2, or deliver "all".`,
  groupsOfOne: (p: { deliver: string; alone: number; groups: number }) => `deliver: "${p.deliver}" with groups of one (${p.alone} of the ${p.groups} groups) runs for nothing: each send goes to the sender's group but the sender. Make every group at least 2 members (group size), or deliver "group".`,

  // Secrets (secrets.ts).
  envOnPage: (p: { field: string; name: string }) =>
    `${p.field}: {env:${p.name}} is read from the runner's environment, and a page has none. Run this profile with the runner ` +
      `(${p.name}=… npx live-bench --hub-profile <file> …), which keeps only the placeholder; or, for a value that is no secret, write it in place of {env:${p.name}}.`,
  secretWritten: (p: { field: string; key: string | null }) =>
    `${p.field} ${p.key !== null ? `is under "${p.key}", a secret's name` : 'looks like a key (a long random text)'}, written into the profile, which every result, report and link keeps. ` +
      `Put the value in an environment variable and write {env:NAME} there instead: the runner reads it at start and keeps only the placeholder.`,
};

/** What a list placeholder stands for, said inside listNotHere. */
const LISTS = {
  users: 'it lists the users a send reaches (the sender\'s and the next one\'s)',
  groups: 'it lists the groups a send reaches (the sender\'s and the next one)',
  excluded: 'it lists the connections a send to the group leaves out (the sender)',
};

/** How a profile names its users, said inside noToken and namelessTokens. */
const usesUsers = (p: { toUsers: boolean; deliver: string }) => (p.toUsers ? `delivers "${p.deliver}", to the users named by the connections' access tokens` : 'uses {user}, the user named by the connection\'s access token');
const usersInstead = (toUsers: boolean) => (toUsers ? ': a delivery to users needs them.' : ', or write a fixed name instead of {user}.');

/** What the JSON scanner expected where a profile's text goes wrong (json-position.ts), said after "expected". */
export const JSON_EXPECTED = {
  value: 'a value (a string, number, object, array, true, false or null)',
  closingQuote: 'a closing " of the string',
  noControl: 'no line break or control character inside a string (write \\n)',
  escape: 'a valid escape (\\", \\\\, \\n, \\uXXXX, …)',
  propertyName: 'a property name in double quotes',
  colon: "':' after the property name",
  objectNext: "',' or '}' after the property value",
  arrayNext: "',' or ']' after the array item",
  end: 'the end of the document',
};
