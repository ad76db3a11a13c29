/**
 * The message text of a benchmark send (a profile's `{message}`): a short header that lets any
 * receiver account for the message and measure it, padded to the configured size.
 *
 *   "<runId>:<sender>:<seq>:<sendLagUs>:<plannedUs>|xxxxxxxx..."
 *
 * - runId: the run that sent it (core/execution/run-id.ts). A message of another run on the same hub
 *   (another person, CI job or capacity step) is foreign: counted apart, never as an arrival.
 * - sender: run-wide index of the sending connection; seq: its send counter from 0. Together
 *   they identify a message, so receivers can tell lost from duplicated messages.
 * - sendLagUs: how late the send left against its planned time.
 * - plannedUs: the planned send time, µs since the epoch, so `now - plannedUs` is the latency
 *   corrected for coordinated omission and `now - plannedUs - sendLagUs` the uncorrected one.
 *   The message carries it whatever the hub's own arguments are (the bundled contract's `ts`
 *   carries it too, and is not read).
 * ASCII only, so the payload's length in characters is its size in bytes in both protocols: the
 * header is part of the configured size, never added to it (about 52 characters at most, and the
 * smallest size allowed is 64 B).
 * The text delimits itself (the run id and a colon open it, '|' ends the header, the size ends the
 * padding), so a receiver finds it inside whatever a hub wraps around it (findPayloadHeader) and
 * tells a text the hub cut or changed (textIntact).
 */
import { RUN_ID_LENGTH } from '../../core/execution/index.ts';

export interface PayloadHeader {
  runId: string;
  sender: number;
  seq: number;
  sendLagUs: number;
  plannedUs: number;
}

/** The numbers of a header, read in place into an object the caller reuses. */
export type HeaderNumbers = Omit<PayloadHeader, 'runId'>;

/** What a received text is: this run's message, another run's (foreign), or not the tool's at all. */
export type HeaderMatch = 'ours' | 'foreign' | 'none';

const FILLER_CHAR = 'x';
/** Longest header the parser looks for: a text whose first '|' comes later is not one. */
const MAX_HEADER_CHARS = 64;
const COLON = 58;
const BAR = 124;
const ZERO = 48;
const NINE = 57;
const FILLER_CODE = 120;
/** Points of the padding checked between its two ends (textIntact). */
const FILLER_PROBES = 16;

export class PayloadBuilder {
  readonly #filler: string;

  /** @param messageBytes payload size in bytes; a header longer than this makes a longer payload.
   *  @param runId the run's id (core/execution/run-id.ts), in every header. */
  constructor(readonly messageBytes: number, readonly runId: string) {
    this.#filler = FILLER_CHAR.repeat(messageBytes);
  }

  build(header: HeaderNumbers): string {
    const head = `${this.runId}:${header.sender}:${header.seq}:${Math.max(0, Math.round(header.sendLagUs))}:${Math.round(header.plannedUs)}|`;
    return head.length >= this.messageBytes ? head : head + this.#filler.slice(head.length);
  }
}

/** A header found in a received string: its numbers, where the text starts (`at`) and where its
 *  header ends (`headEnd`, past the '|'). One object, reused for every received message. */
export interface FoundHeader extends HeaderNumbers {
  at: number;
  headEnd: number;
}

/**
 * Reads a received text against this run's id, once per received message: without slicing or
 * splitting (nothing allocated), the four numbers go into `into` when the text is the tool's
 * (this run's, or `foreign`: another run's) and starts the string. Anything else (another client's
 * chat line, a hub's welcome message, a number) is `none`, and leaves `into` as it was.
 */
export function readPayloadHeader(payload: unknown, runId: string, into: HeaderNumbers): HeaderMatch {
  if (typeof payload !== 'string' || !headerAt(payload, 0, into)) return 'none';
  return payload.startsWith(runId) ? 'ours' : 'foreign';
}

/**
 * Finds the tool's text wherever a hub put it in a string: at its start (passed on unchanged: read
 * in place as readPayloadHeader does, at the same cost), else after a prefix or before a suffix
 * (`$"{name}: {message}"`, `"Echo: " + message`, `"{message} (echo from server)"`), by looking
 * for this run's id and a colon. Only when this run's text is not there is the string scanned for
 * another run's header (`foreign`): at each colon, a run id before it and the numbers after (a
 * text of another run at the start is foreign at once). The numbers, `at` and `headEnd` go into
 * `into`; nothing is allocated.
 */
export function findPayloadHeader(payload: unknown, runId: string, into: FoundHeader): HeaderMatch {
  if (typeof payload !== 'string') return 'none';
  // A text of the tool at the start, as sent: this run's, or another run's (never searched past).
  if (headerAt(payload, 0, into)) return found(into, 0, payload.startsWith(runId) ? 'ours' : 'foreign');
  const tag = tagOf(runId);
  for (let at = payload.indexOf(tag, 1); at >= 0; at = payload.indexOf(tag, at + 1)) {
    if (headerAt(payload, at, into)) return found(into, at, 'ours');
  }
  for (let colon = payload.indexOf(':', RUN_ID_LENGTH + 1); colon >= 0; colon = payload.indexOf(':', colon + 1)) {
    if (headerAt(payload, colon - RUN_ID_LENGTH, into)) return found(into, colon - RUN_ID_LENGTH, 'foreign');
  }
  return 'none';
}

/** A header just read at `at`: where it starts and ends (the reading's cursor) go into `into`. */
function found(into: FoundHeader, at: number, match: HeaderMatch): HeaderMatch {
  into.at = at;
  into.headEnd = cursor;
  return match;
}

/**
 * Whether the text found is as it was sent: its padding is the configured size's ('x' up to
 * `messageBytes` characters from the text's start), neither cut, nor longer, nor other characters.
 * What comes before or after it (a hub's prefix or suffix) is not the text. The padding is read at
 * its two ends, just past them and at {@link FILLER_PROBES} points between: constant time, nothing
 * allocated (comparing 2 KB character by character costs as much as the rest of a reception). A
 * hub that changes a single character inside the padding is not seen; one that cuts, lengthens,
 * replaces, re-cases or re-encodes it is.
 */
export function textIntact(payload: string, found: FoundHeader, messageBytes: number): boolean {
  const end = Math.max(found.headEnd, found.at + messageBytes);
  if (payload.length < end || (payload.length > end && payload.charCodeAt(end) === FILLER_CODE)) return false;
  const fillerChars = end - found.headEnd;
  if (fillerChars === 0) return true;
  if (payload.charCodeAt(found.headEnd) !== FILLER_CODE || payload.charCodeAt(end - 1) !== FILLER_CODE) return false;
  const step = Math.floor(fillerChars / (FILLER_PROBES + 1));
  for (let at = found.headEnd + step, k = 0; step > 0 && k < FILLER_PROBES; k++, at += step) if (payload.charCodeAt(at) !== FILLER_CODE) return false;
  return true;
}

/**
 * Where this run's text is in a call's arguments, whatever the profile reads: an argument's index
 * when the argument is a string holding it, a path into an object or array ("0.message") when a
 * member holds it, as messageReader takes them; null when it is in none. For naming a profile
 * that reads the wrong place, never on the way of a reception: it walks every argument.
 */
export function locateText(args: readonly unknown[], runId: string): number | string | null {
  const into: FoundHeader = { sender: 0, seq: 0, sendLagUs: 0, plannedUs: 0, at: 0, headEnd: 0 };
  const holds = (value: unknown) => typeof value === 'string' && findPayloadHeader(value, runId, into) === 'ours';
  const inside = (value: unknown, depth: number): string | null => {
    if (typeof value !== 'object' || value === null || depth > LOCATE_DEPTH) return null;
    for (const [key, member] of Object.entries(value)) {
      if (holds(member)) return key;
      const deeper = inside(member, depth + 1);
      if (deeper !== null) return `${key}.${deeper}`;
    }
    return null;
  };
  for (let index = 0; index < args.length; index++) {
    if (holds(args[index])) return index;
    const path = inside(args[index], 1);
    if (path !== null) return `${index}.${path}`;
  }
  return null;
}

/** How deep locateText looks into an argument's objects. */
const LOCATE_DEPTH = 4;

/** Whether a header starts at `start`: its numbers go into `into` when it does (the cursor then past its '|'). */
function headerAt(payload: string, start: number, into: HeaderNumbers): boolean {
  if (start < 0 || payload.charCodeAt(start + RUN_ID_LENGTH) !== COLON) return false;
  cursor = start + RUN_ID_LENGTH + 1;
  limit = start + MAX_HEADER_CHARS;
  const sender = numberAt(payload, COLON);
  const seq = sender < 0 ? -1 : numberAt(payload, COLON);
  const sendLagUs = seq < 0 ? -1 : numberAt(payload, COLON);
  const plannedUs = sendLagUs < 0 ? -1 : numberAt(payload, BAR);
  if (plannedUs < 0 || !isRunIdAt(payload, start)) return false;
  into.sender = sender;
  into.seq = seq;
  into.sendLagUs = sendLagUs;
  into.plannedUs = plannedUs;
  return true;
}

/** Where {@link numberAt} reads, and the header's last place: module state, so reading a header allocates nothing. */
let cursor = 0;
let limit = 0;

/** The whole number at `cursor` ended by `endChar` (cursor then past it); -1 when there is none. */
function numberAt(payload: string, endChar: number): number {
  const start = cursor;
  let value = 0;
  for (let c = payload.charCodeAt(cursor); c >= ZERO && c <= NINE; c = payload.charCodeAt(++cursor)) value = value * 10 + (c - ZERO);
  if (cursor === start || cursor >= limit || payload.charCodeAt(cursor) !== endChar) return -1;
  cursor++;
  return value;
}

/** The run id's characters at `start`, checked without slicing the payload. */
function isRunIdAt(payload: string, start: number): boolean {
  for (let i = start; i < start + RUN_ID_LENGTH; i++) {
    const c = payload.charCodeAt(i);
    if (!((c >= ZERO && c <= NINE) || (c >= 97 && c <= 122))) return false;
  }
  return true;
}

/** "<runId>:", made once per run id rather than once per message. */
let taggedRunId: string | null = null;
let tag = '';
function tagOf(runId: string): string {
  if (runId !== taggedRunId) {
    taggedRunId = runId;
    tag = `${runId}:`;
  }
  return tag;
}

/** Reads the header of a payload built by {@link PayloadBuilder} whatever its run; null when it
 *  is not one. For tools and tests: the engine reads in place with {@link readPayloadHeader}. */
export function parsePayloadHeader(payload: unknown): PayloadHeader | null {
  const numbers: HeaderNumbers = { sender: 0, seq: 0, sendLagUs: 0, plannedUs: 0 };
  // Every run's text starts with the empty run id: any header reads as "ours" here.
  if (typeof payload !== 'string' || readPayloadHeader(payload, '', numbers) !== 'ours') return null;
  return { runId: payload.slice(0, RUN_ID_LENGTH), ...numbers };
}
