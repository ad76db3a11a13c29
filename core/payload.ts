/**
 * The payload of a benchmark message: a short header that lets any receiver account for the
 * message, padded to the configured size.
 *
 *   "<sender>:<seq>:<sendLagUs>|xxxxxxxx..."
 *
 * - sender: run-wide index of the sending connection; seq: its send counter from 0. Together
 *   they identify a message, so receivers can tell lost from duplicated messages.
 * - sendLagUs: how late the send left against its planned time. The hub's `ts` argument carries
 *   the planned time, so `now - ts` is the latency corrected for coordinated omission and
 *   `now - ts - sendLagUs` the uncorrected one.
 * ASCII only, so the payload's length in characters is its size in bytes in both protocols.
 */
export interface PayloadHeader {
  sender: number;
  seq: number;
  sendLagUs: number;
}

const FILLER_CHAR = 'x';

export class PayloadBuilder {
  readonly #filler: string;

  /** @param messageBytes payload size in bytes; a header longer than this makes a longer payload. */
  constructor(readonly messageBytes: number) {
    this.#filler = FILLER_CHAR.repeat(messageBytes);
  }

  build(header: PayloadHeader): string {
    const head = `${header.sender}:${header.seq}:${Math.max(0, Math.round(header.sendLagUs))}|`;
    return head.length >= this.messageBytes ? head : head + this.#filler.slice(head.length);
  }
}

/** Reads the header of a payload built by {@link PayloadBuilder}; null when it is not one. */
export function parsePayloadHeader(payload: unknown): PayloadHeader | null {
  if (typeof payload !== 'string') return null;
  const end = payload.indexOf('|');
  if (end < 0 || end > 48) return null;
  const parts = payload.slice(0, end).split(':');
  if (parts.length !== 3) return null;
  const [sender, seq, sendLagUs] = parts.map(Number) as [number, number, number];
  if (!Number.isInteger(sender) || !Number.isInteger(seq) || sender < 0 || seq < 0 || !Number.isFinite(sendLagUs)) return null;
  return { sender, seq, sendLagUs };
}
