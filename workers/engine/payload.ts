/**
 * The message text of a benchmark send (a profile's `{message}`): a short header that lets any
 * receiver account for the message and measure it, padded to the configured size.
 *
 *   "<runId>:<sender>:<seq>:<sendLagUs>:<plannedUs>|xxxxxxxx..."
 *
 * - runId: the run that sent it (core/run/id.ts). A message of another run on the same hub
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
 */
import { RUN_ID_LENGTH } from '../../core/run/index.ts';

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
/** Longest header the parser looks for: a payload whose first '|' comes later is not ours. */
const MAX_HEADER_CHARS = 64;
const COLON = 58;
const BAR = 124;
const ZERO = 48;
const NINE = 57;

export class PayloadBuilder {
  readonly #filler: string;

  /** @param messageBytes payload size in bytes; a header longer than this makes a longer payload.
   *  @param runId the run's id (core/run/id.ts), in every header. */
  constructor(readonly messageBytes: number, readonly runId: string) {
    this.#filler = FILLER_CHAR.repeat(messageBytes);
  }

  build(header: HeaderNumbers): string {
    const head = `${this.runId}:${header.sender}:${header.seq}:${Math.max(0, Math.round(header.sendLagUs))}:${Math.round(header.plannedUs)}|`;
    return head.length >= this.messageBytes ? head : head + this.#filler.slice(head.length);
  }
}

/**
 * Reads a received text against this run's id, once per received message: without slicing or
 * splitting (nothing allocated), the four numbers go into `into` when the text is the tool's
 * (this run's, or `foreign`: another run's). Anything else (another client's chat line, a hub's
 * welcome message, a number) is `none`, and leaves `into` as it was.
 */
export function readPayloadHeader(payload: unknown, runId: string, into: HeaderNumbers): HeaderMatch {
  if (typeof payload !== 'string' || payload.length <= RUN_ID_LENGTH || payload.charCodeAt(RUN_ID_LENGTH) !== COLON) return 'none';
  cursor = RUN_ID_LENGTH + 1;
  const sender = numberAt(payload, COLON);
  const seq = sender < 0 ? -1 : numberAt(payload, COLON);
  const sendLagUs = seq < 0 ? -1 : numberAt(payload, COLON);
  const plannedUs = sendLagUs < 0 ? -1 : numberAt(payload, BAR);
  if (plannedUs < 0 || !isRunIdAt(payload)) return 'none';
  into.sender = sender;
  into.seq = seq;
  into.sendLagUs = sendLagUs;
  into.plannedUs = plannedUs;
  return payload.startsWith(runId) ? 'ours' : 'foreign';
}

/** Where {@link numberAt} reads: module state, so reading a header allocates nothing. */
let cursor = 0;

/** The whole number at `cursor` ended by `endChar` (cursor then past it); -1 when there is none. */
function numberAt(payload: string, endChar: number): number {
  const start = cursor;
  let value = 0;
  for (let c = payload.charCodeAt(cursor); c >= ZERO && c <= NINE; c = payload.charCodeAt(++cursor)) value = value * 10 + (c - ZERO);
  if (cursor === start || cursor >= MAX_HEADER_CHARS || payload.charCodeAt(cursor) !== endChar) return -1;
  cursor++;
  return value;
}

/** The run id's characters at the start of a payload, checked without slicing it. */
function isRunIdAt(payload: string): boolean {
  for (let i = 0; i < RUN_ID_LENGTH; i++) {
    const c = payload.charCodeAt(i);
    if (!((c >= ZERO && c <= NINE) || (c >= 97 && c <= 122))) return false;
  }
  return true;
}

/** Reads the header of a payload built by {@link PayloadBuilder} whatever its run; null when it
 *  is not one. For tools and tests: the engine reads in place with {@link readPayloadHeader}. */
export function parsePayloadHeader(payload: unknown): PayloadHeader | null {
  const numbers: HeaderNumbers = { sender: 0, seq: 0, sendLagUs: 0, plannedUs: 0 };
  // Every run's text starts with the empty run id: any header reads as "ours" here.
  if (typeof payload !== 'string' || readPayloadHeader(payload, '', numbers) !== 'ours') return null;
  return { runId: payload.slice(0, RUN_ID_LENGTH), ...numbers };
}
