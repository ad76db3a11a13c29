/**
 * What the engine needs from a connection. The real one wraps `@microsoft/signalr`
 * (signalr/bench-connection.ts); unit tests inject fakes.
 */
import type { ErrorKind } from '../../core/execution/index.ts';
import type { ProtocolName, TransportName, ConnectionCredentials } from '../../core/run-config/index.ts';
import type { ReconnectPolicyName } from '../../core/drops/index.ts';
import type { ConnectCause } from '../../core/client/index.ts';

export interface BenchConnection {
  /** The hub's id of this connection once open (what SendToConnection targets); null before. */
  readonly connectionId: string | null;
  /** Opens the connection (negotiate, transport, handshake). Rejects with a {@link ConnectFailure}-classifiable error. */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Bytes handed to the WebSocket and not yet sent on the network (0 for other transports, or
   *  when it cannot be read): a stalled hub shows here first. */
  bufferedBytes(): number;
  /** Fire-and-forget hub call: resolves once written, not when the hub has run it. */
  send(method: string, ...args: unknown[]): Promise<void>;
  /** Hub call that waits for the hub's completion. */
  invoke(method: string, ...args: unknown[]): Promise<unknown>;
  /** Calls of the client method `method` by the hub (a profile's receive method, e.g. the bundled
   *  contract's `Measure(ts, payload)` or a chat hub's `ReceiveMessage(user, message)`), with its arguments. */
  on(method: string, handler: (...args: unknown[]) => void): void;
  /** Streaming hub call (a hub method returning `IAsyncEnumerable<T>` or `ChannelReader<T>`):
   *  sent at once; its items, its end and its error go to the subscriber. */
  stream(method: string, ...args: unknown[]): ItemStream;
  /** A client-to-server stream, to pass as an argument of {@link invoke} or {@link stream} (the
   *  hub method's `ChannelReader<T>` or `IAsyncEnumerable<T>` parameter): each `next` is an item. */
  upload(): UploadStream;
  /** Answers the hub's client-result calls of the client method `method`
   *  (`Clients.Client(id).InvokeAsync<T>`) with what `reply` returns. */
  answer(method: string, reply: (...args: unknown[]) => unknown): void;
  /** Called once when the connection closes after having started (and, with reconnect, after
   *  reconnecting gave up), with the cause if any. */
  onClose(handler: (error?: Error) => void): void;
  /** With reconnect: the connection was lost and is being reconnected. */
  onReconnecting(handler: (error?: Error) => void): void;
  /** With reconnect: the connection is back (with a new connection id, and in no group). */
  onReconnected(handler: () => void): void;
  /**
   * Cuts the transport under the connection without a SignalR close, as a lost network would:
   * the connection then reconnects by its own policy. Returns false when there was no transport
   * to cut (not open, or a client version that hides it).
   */
  cutTransport(): boolean;
  /** With stateful reconnect: the transport was lost and is being reconnected on the same
   *  connection (no onReconnecting: the hub connection stays connected and buffers sends). */
  onTransportLost(handler: () => void): void;
  /** With stateful reconnect: the transport is back on the same connection (same id, same
   *  groups) and the unacknowledged messages have been resent. */
  onResumed(handler: () => void): void;
  /** Whether the hub granted stateful reconnect when this connection opened (asked for, the hub
   *  may still refuse: its negotiate answer says). Absent: unknown (counted as not granted). */
  statefulGranted?(): boolean;
  /** With stateful reconnect: messages that crossed the wire a second time, `sent` again by this
   *  client after a resumed transport, or `received` again and discarded as copies, with their
   *  encoded bytes. They are in no other figure. */
  onResent?(handler: (direction: 'sent' | 'received', messages: number, bytes: number) => void): void;
}

/** What a streaming call's items go to (the official client's IStreamSubscriber). */
export interface ItemObserver {
  next(item: unknown): void;
  /** The hub method threw, or the connection closed under the stream. */
  error(error: unknown): void;
  complete(): void;
}

/** A server-to-client stream (the official client's IStreamResult). */
export interface ItemStream {
  /** `dispose` cancels the stream at the hub. */
  subscribe(observer: ItemObserver): { dispose(): void };
}

/** A client-to-server stream (the official client's Subject). Items written while the connection
 *  is not open, or after `complete`, are dropped. */
export interface UploadStream {
  next(item: unknown): void;
  complete(): void;
}

export interface ConnectionOptions {
  /** The connection's run-wide index, for a factory that numbers what it builds: connections are
   *  built as they connect, in no fixed order across workers. Absent: not known. */
  index?: number;
  endpointUrl: string;
  /** Every hub instance, when the run spreads over several: the pool gives each connection its
   *  own (round-robin) as `endpointUrl`. Absent: one instance. */
  endpointUrls?: string[];
  transport: TransportName;
  protocol: ProtocolName;
  reconnect: boolean;
  /** Absent: 'fixed' (every second for a minute), the behaviour before policies existed. */
  reconnectPolicy?: ReconnectPolicyName;
  statefulReconnect?: boolean;
  /** Open the WebSocket without negotiate (core/run-config/skip-negotiation.ts). Absent: negotiate. */
  skipNegotiation?: boolean;
  /** This connection's token, headers and query (core/run-config/credentials.ts); never in a message. */
  credentials?: ConnectionCredentials;
  /** Where the connection adds the bytes its transport carries (one object for all of a worker's
   *  connections: WorkerStats.wire). Absent: not counted. */
  wire?: WireBytes;
}

/**
 * Bytes the transport carried, both ways, counted frame by frame (WebSocket messages) or body by
 * body (long polling's polls and POSTs, Server-Sent Events' events and POSTs) as the SignalR
 * client hands them over: the handshake, pings, acks and every message, the tool's or not.
 * Transport framing (WebSocket frame headers, HTTP headers, SSE's `data:` lines) and negotiate are
 * not in it. Only ever added to.
 */
export interface WireBytes {
  /** Client → hub. */
  sent: number;
  /** Hub → client. */
  received: number;
}

export type ConnectionFactory = (options: ConnectionOptions) => BenchConnection;

/** A failure classified for counting and worded for people. */
export interface ClassifiedError {
  kind: ErrorKind;
  message: string;
  /** For a failed connect: why, by side (core/client/connect-causes.ts); absent: `other`. */
  cause?: ConnectCause;
}

export type ErrorClassifier = (error: unknown, context: ConnectionOptions) => ClassifiedError;
