/**
 * Long control messages cross the control hub in pieces. The hub accepts messages of at most
 * 64 KiB (its MaxControlMessageBytes, kept small because anyone who reaches /control can make it
 * buffer that much), but a send-to-connection run's target ids for one agent thread, or that
 * thread's own connection ids, take about 25 bytes per connection: over 64 KiB from about
 * 2,500 connections on one thread.
 *
 * A message short enough goes as it is (every control message is a JSON object, so it starts
 * with `{`); a longer one goes as pieces that start with `+` (more follows) or `=` (the last).
 * Pieces need no numbering: SignalR keeps one connection's messages in order, the hub handles
 * one call per connection at a time, and a sender hands all of a message's pieces to its
 * connection at once, so one sender's pieces arrive in order and are not interleaved.
 */

/** Characters per piece. At most 3 UTF-8 bytes each, plus the SignalR JSON envelope (the
 *  method name, the agent id and the escaping of quotes in JSON text, which stays within the
 *  same 3 bytes a character), keeps a piece under the hub's 64 KiB. */
export const MAX_PIECE_CHARS = 16_000;

/** Longest message put back together, in characters: a bound on what a peer can make the
 *  receiver hold (the target ids of 1,000,000 connections fit). Longer ones are dropped. */
export const MAX_JOINED_CHARS = 32 * 1024 * 1024;

const MORE = '+';
const LAST = '=';

/** The texts to send for `message`, in order. */
export function toPieces(message: string, maxChars = MAX_PIECE_CHARS): string[] {
  if (message.length <= maxChars) return [message];
  const pieces: string[] = [];
  for (let at = 0; at < message.length; ) {
    let end = Math.min(at + maxChars - 1, message.length);
    // A surrogate pair split in two would not survive UTF-8: keep it in one piece.
    const last = message.charCodeAt(end - 1);
    if (end < message.length && last >= 0xd800 && last <= 0xdbff) end--;
    pieces.push((end === message.length ? LAST : MORE) + message.slice(at, end));
    at = end;
  }
  return pieces;
}

/** Puts one sender's pieces back together. */
export class PieceJoiner {
  #parts: string[] = [];
  #chars = 0;
  #tooLong = false;

  constructor(private readonly maxChars = MAX_JOINED_CHARS) {}

  /** The whole message once `text` completes it (a message that came whole is returned at
   *  once); null while pieces are still to come, or when the message was too long. */
  add(text: string): string | null {
    const mark = text[0];
    if (mark !== MORE && mark !== LAST) {
      this.#reset();
      return text;
    }
    this.#chars += text.length - 1;
    this.#tooLong ||= this.#chars > this.maxChars;
    if (!this.#tooLong) this.#parts.push(text.slice(1));
    if (mark === MORE) return null;
    const whole = this.#tooLong ? null : this.#parts.join('');
    this.#reset();
    return whole;
  }

  #reset(): void {
    this.#parts = [];
    this.#chars = 0;
    this.#tooLong = false;
  }
}
