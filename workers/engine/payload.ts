/**
 * The payload of a benchmark message: a short header that lets any receiver account for the
 * message, padded to the configured size.
 *
 *   "<runId>:<sender>:<seq>:<sendLagUs>|xxxxxxxx..."
 *
 * - runId: the run that sent it (core/run/id.ts). A message of another run on the same hub
 *   (another person, CI job or capacity step) is foreign: counted apart, never as an arrival.
 * - sender: run-wide index of the sending connection; seq: its send counter from 0. Together
 *   they identify a message, so receivers can tell lost from duplicated messages.
 * - sendLagUs: how late the send left against its planned time. The hub's `ts` argument carries
 *   the planned time, so `now - ts` is the latency corrected for coordinated omission and
 *   `now - ts - sendLagUs` the uncorrected one.
 * ASCII only, so the payload's length in characters is its size in bytes in both protocols: the
 * header is part of the configured size, never added to it (about 35 characters at most, and the
 * smallest size allowed is 64 B).
 */
import { isRunId } from '../../core/run/index.ts';

export interface PayloadHeader {
  runId: string;
  sender: number;
  seq: number;
  sendLagUs: number;
}

const FILLER_CHAR = 'x';
/** Longest header the parser looks for: a payload whose first '|' comes later is not ours. */
const MAX_HEADER_CHARS = 64;

export class PayloadBuilder {
  readonly #filler: string;

  /** @param messageBytes payload size in bytes; a header longer than this makes a longer payload.
   *  @param runId the run's id (core/run/id.ts), in every header. */
  constructor(readonly messageBytes: number, readonly runId: string) {
    this.#filler = FILLER_CHAR.repeat(messageBytes);
  }

  build(header: Omit<PayloadHeader, 'runId'>): string {
    const head = `${this.runId}:${header.sender}:${header.seq}:${Math.max(0, Math.round(header.sendLagUs))}|`;
    return head.length >= this.messageBytes ? head : head + this.#filler.slice(head.length);
  }
}

/** Reads the header of a payload built by {@link PayloadBuilder}; null when it is not one. */
export function parsePayloadHeader(payload: unknown): PayloadHeader | null {
  if (typeof payload !== 'string') return null;
  const end = payload.indexOf('|');
  if (end < 0 || end > MAX_HEADER_CHARS) return null;
  const parts = payload.slice(0, end).split(':');
  if (parts.length !== 4 || !isRunId(parts[0]!)) return null;
  // Once per received message: read the three numbers in place, no intermediate array.
  const sender = Number(parts[1]);
  const seq = Number(parts[2]);
  const sendLagUs = Number(parts[3]);
  if (!Number.isInteger(sender) || !Number.isInteger(seq) || sender < 0 || seq < 0 || !Number.isFinite(sendLagUs)) return null;
  return { runId: parts[0]!, sender, seq, sendLagUs };
}
