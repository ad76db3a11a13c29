/**
 * What carries the tool's text in a profile's send, checked for parse.ts: `{message}` (one call
 * per message), `{stream}` (one client-to-server stream per connection, each message an item of
 * it), or, for a client result (deliver "return" with an answer), the answer the hub asks of a
 * connection. Each problem names the field and says what to write instead.
 */
import type { DeliverKind, HubCall, PlaceholderName } from './profile.ts';
import { PROFILE_WORDS as W } from './words.ts';

/** Placeholders these shapes add to a call's arguments (`where`: send, join or leave):
 *  `{stream}` in send.args with any delivery but "return", `{target}` in send.args of a client
 *  result (the connection whose answer the hub asks for). */
export function carrierAllowed(deliver: DeliverKind | null, where: string, answered: boolean): PlaceholderName[] {
  if (where !== 'send' || deliver === null) return [];
  if (deliver === 'return') return answered ? ['target'] : [];
  return ['stream'];
}

/** Why `{stream}` is not known here (a join, a leave, or deliver "return"). */
export function streamNotAllowed(field: string, deliver: DeliverKind | null): string {
  if (deliver === 'return') return W.streamWithReturn();
  return W.streamNotHere({ call: field.split('.')[0]! });
}

/** `{stream}` stands alone for a whole argument of the call (the stream itself), never inside a
 *  string, an object or a list. Null when `arg` (at `field`) holds it so. */
export function streamPlacementProblem(field: string, arg: string): string | null {
  if (arg === '{stream}' && /^send\.args\[\d+\]$/.test(field)) return null;
  return W.streamNotWhole({ field, arg });
}

/**
 * What carries the text in send.args, for a known delivery (null: only that is reported):
 * - a client result ("return" with an answer): the answer does; `{message}` at most once (a
 *   caller's text the hub may pass on), no `{stream}`;
 * - deliver "stream": `{message}` or `{stream}`, one of them once, or neither (a stream of the
 *   hub's own making: the run's probe reads its first item and refuses it by what it yields);
 * - any other: exactly one of `{message}` and `{stream}`, once.
 */
export function carrierProblems(deliver: DeliverKind | null, send: HubCall, answered: boolean): string[] {
  const messages = countWhole(send.args, '{message}');
  const streams = countWhole(send.args, '{stream}');
  if (messages > 1) return [W.messageTwice({ count: messages })];
  if (streams > 1) return [W.streamTwice({ count: streams })];
  if (messages === 1 && streams === 1) return [W.messageAndStream()];
  if (deliver === 'return' && answered) return [];
  if (deliver === 'stream' || messages + streams === 1) return [];
  return [W.messageMissing({ orStream: deliver !== null && deliver !== 'return' })];
}

/** How many strings inside an argument template are exactly `whole`. */
function countWhole(arg: unknown, whole: string): number {
  if (Array.isArray(arg)) return arg.reduce((sum: number, item) => sum + countWhole(item, whole), 0);
  if (typeof arg === 'object' && arg !== null) return Object.values(arg).reduce((sum: number, item) => sum + countWhole(item, whole), 0);
  return arg === whole ? 1 : 0;
}

/** The answer's `with`: `{message}` exactly once, as a whole string (the text the tool answers with). */
export function answerWithProblems(template: unknown): string[] {
  if (template === undefined) return [W.answerWithMissing()];
  const messages = countWhole(template, '{message}');
  if (messages === 1) return [];
  return [messages === 0 ? W.answerWithNoMessage() : W.answerWithTwice({ count: messages })];
}
