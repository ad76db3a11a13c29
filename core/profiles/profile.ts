/**
 * A hub profile: how the run's scenario maps onto a hub's own methods, so a hub the user did not
 * write can be measured unchanged. A small JSON document:
 *
 *   { "name": "chat room",
 *     "join":    { "method": "JoinRoom", "args": ["{group}"] },
 *     "send":    { "method": "SendToRoom", "args": ["{group}", "bench-{connection}", "{message}"] },
 *     "receive": { "method": "ReceiveMessage", "arg": 1 },
 *     "deliver": "group" }
 *
 * The bundled contract's five scenarios are profiles of the same form (built-in.ts): one path
 * through the engine.
 */

/**
 * Who receives each send:
 * - `self` the sender (`Clients.Caller`); `return` the sender: the invocation's completion (its
 *   return value) is the reception, latency to completion; `stream` the sender: the items of the
 *   stream the send method returns are the receptions, latency per item;
 * - `all`, `others` every connection (but the sender); `user` every connection of the user
 *   `{user}` names (`Clients.User`), `users` of every user in `{users}` (`Clients.Users`);
 * - `group`, `groupOthers` every member of the sender's group (but the sender); `groups` every
 *   member of each group in `{groups}` (`Clients.Groups`); `groupExcept` every member of `{group}`
 *   but the connections in `{excluded}` (`Clients.GroupExcept`);
 * - `target` one other connection (`Clients.Client(id)`).
 */
export const DELIVER_KINDS = ['self', 'all', 'others', 'group', 'groupOthers', 'target', 'return', 'user', 'users', 'groups', 'groupExcept', 'stream'] as const;
export type DeliverKind = (typeof DELIVER_KINDS)[number];

/**
 * Placeholders of an argument template, replaced per call:
 * - `{message}` the tool's text (run id, sender, sequence, send lag and planned time, padded to
 *   the message size): exactly once in send.args, as a whole string;
 * - `{connection}` the connection's run-wide index;
 * - `{group}` the run's name of the connection's group (group deliveries only);
 * - `{target}` the hub's id of the connection this one sends to (deliver "target" only);
 * - `{user}` the user named by the connection's access token (checked at run start);
 * - `{time}` the planned send time in µs since the epoch; alone in a string it is passed as a
 *   number (the bundled contract's `ts`). The message carries it anyway;
 * - `{stream}` instead of `{message}`: the argument is a client-to-server stream the connection
 *   opens once, and each planned message is an item of it;
 * - `{users}`, `{groups}`, `{excluded}` alone in an argument: a list (of user names, of the run's
 *   group names, of connection ids) for the list deliveries;
 * - `{env:NAME}` (not in this list: it takes a name) a value the runner reads from its
 *   environment at start, never kept, exported, linked or printed.
 */
export const PLACEHOLDERS = ['message', 'connection', 'group', 'target', 'user', 'time', 'stream', 'users', 'groups', 'excluded'] as const;
export type PlaceholderName = (typeof PLACEHOLDERS)[number];

/** A hub call: a method and its argument template (any JSON, strings may hold placeholders). */
export interface HubCall {
  method: string;
  args: unknown[];
}

export interface HubProfile {
  /** Shown with the run, its exports and comparisons. */
  name: string;
  /** Called once per connection after connect and after every reconnect (e.g. joining its room). */
  join?: HubCall;
  /** Called once per connection at the end of the run, before it closes. */
  leave?: HubCall;
  /** What each slot calls; `{message}` once in its arguments. */
  send: HubCall;
  /** The client method the hub calls with the message, and which argument carries it: an index,
   *  or a path into an object argument ("1.text"). Absent only with deliver "return". */
  receive?: { method: string; arg: number | string };
  deliver: DeliverKind;
  /** Client results: the client method the hub invokes on a connection and awaits
   *  (`Clients.Client(id).InvokeAsync<T>`), and what the tool answers with: a template holding
   *  `{message}` once, filled with a text the answering connection makes. Deliver "return" only. */
  answer?: { method: string; with: unknown };
}

/** Longest profile name, in characters. */
export const MAX_PROFILE_NAME_CHARS = 80;
/** Longest hub method name, in characters. */
export const MAX_METHOD_NAME_CHARS = 128;
/** Most arguments of one hub call. */
export const MAX_CALL_ARGS = 16;
/** Longest profile document, in characters (a profile is a few hundred). */
export const MAX_PROFILE_CHARS = 16_384;

/** A hub method name as C# and the SignalR client accept it. */
export const METHOD_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Group deliveries: the run's group plan puts each connection in its group with `join`. */
export function isGroupDelivery(deliver: DeliverKind): deliver is 'group' | 'groupOthers' | 'groups' | 'groupExcept' {
  return deliver === 'group' || deliver === 'groupOthers' || deliver === 'groups' || deliver === 'groupExcept';
}

/** The list placeholder each list delivery needs in send.args, as a whole string (a list). */
export const LIST_PLACEHOLDER_OF = { users: 'users', groups: 'groups', groupExcept: 'excluded' } as const satisfies Partial<Record<DeliverKind, PlaceholderName>>;

/** `{env:NAME}`: a value the runner reads from its environment at start; NAME as a shell names it. */
export const ENV_PLACEHOLDER = /\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g;
