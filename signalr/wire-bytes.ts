/**
 * The bytes a connection's transport carried, counted where the official client hands data to
 * its transport and takes it from it: `HttpConnection.send(data)` (every message the hub
 * connection writes: the handshake, invocations, pings, stream items, acks, a close) and the
 * `onreceive` the hub connection sets on it (every WebSocket message, long poll's answer body or
 * Server-Sent Event's data: the handshake's answer, the hub's invocations, completions and pings,
 * messages that are not the tool's). One count a frame or body, never a model of what a message
 * should weigh: a hub that appends to the text or writes a field more is counted as it wrote it.
 *
 * Not counted: negotiate (before the transport), the transport's own framing (WebSocket frame
 * headers, HTTP headers and chunking, SSE's `data: ` and line ends: about 10 bytes an event).
 * Both hooks read the client's fields (`@microsoft/signalr` 10.0.x `HttpConnection`); a client
 * version that moves them leaves the bytes at 0, never a crash.
 */
import type { HubConnection } from '@microsoft/signalr';
import type { WireBytes } from '../workers/engine/connection.ts';

/** What a transport carries: a text frame or body, or a binary one (MessagePack). */
type WireData = string | ArrayBuffer | ArrayBufferView;

/** The client's HttpConnection, as far as counting needs it. */
interface HttpConnectionFields {
  send?: (data: WireData) => Promise<void>;
  onreceive?: ((data: WireData) => void) | null;
  /** "Connected" when send() hands data on; it rejects it in any other state. */
  _connectionState?: string;
}

/**
 * Counts every byte `hub`'s transport carries into `wire` from now on, for the connection's whole
 * life: set once, after the hub connection is built. The hub connection sets `onreceive` once,
 * in its constructor, and the HttpConnection gives it to each transport it starts (after a
 * reconnect, a stateful resume), so the counting survives them. Adds to the counts in place: one
 * wrapper per connection, no allocation per frame.
 */
export function countWireBytes(hub: HubConnection, wire: WireBytes): boolean {
  const connection = (hub as unknown as { connection?: HttpConnectionFields }).connection;
  if (!connection || typeof connection.send !== 'function' || typeof connection.onreceive !== 'function') return false;
  const send = connection.send.bind(connection);
  const receive = connection.onreceive;
  connection.send = (data) => {
    // Data offered while not connected is rejected, never written.
    if (connection._connectionState === undefined || connection._connectionState === 'Connected') wire.sent += byteLengthOf(data);
    return send(data);
  };
  connection.onreceive = (data) => {
    wire.received += byteLengthOf(data);
    receive(data);
  };
  return true;
}

export function byteLengthOf(data: WireData): number {
  return typeof data === 'string' ? utf8Length(data) : data.byteLength;
}

/**
 * A string's length in UTF-8, as a WebSocket or an HTTP body sends it (a lone surrogate as
 * U+FFFD, 3 bytes). An echo frame of 2 KB of ASCII text: Node's Buffer.byteLength 54-63 ns,
 * encodeInto into a kept buffer 189-216 ns, a charCodeAt loop 4.2-5.5 µs, TextEncoder.encode
 * 1.6-1.9 µs (bench/RESULTS.md, "Bytes measured"; `node bench/utf8-length.mjs`).
 */
export const utf8Length: (text: string) => number = nodeUtf8Length() ?? encodeIntoLength;

/** Node's (worker threads of the runner): native, no copy. Null in browsers. */
function nodeUtf8Length(): ((text: string) => number) | null {
  const buffer = (globalThis as { Buffer?: { byteLength(text: string, encoding: 'utf8'): number } }).Buffer;
  return buffer && typeof buffer.byteLength === 'function' ? (text) => buffer.byteLength(text, 'utf8') : null;
}

const encoder = new TextEncoder();
/** Text up to this many UTF-16 units is encoded into one kept buffer (3 bytes a unit at most: 48 KB). */
const KEPT_UNITS = 16_384;
let kept: Uint8Array | null = null;

/** Browsers: encoded into a kept buffer (no allocation but the small result), longer text into a new one. */
export function encodeIntoLength(text: string): number {
  if (text.length > KEPT_UNITS) return encoder.encode(text).byteLength;
  kept ??= new Uint8Array(KEPT_UNITS * 3);
  return encoder.encodeInto(text, kept).written;
}
