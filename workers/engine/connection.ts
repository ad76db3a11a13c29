/**
 * What the engine needs from a connection. The real one wraps `@microsoft/signalr`
 * (signalr/bench-connection.ts); unit tests inject fakes.
 */
import type { ProtocolName, TransportName, ErrorKind, ConnectionCredentials } from '../../core/run/index.ts';
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

export interface ConnectionOptions {
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
  /** Open the WebSocket without negotiate (core/run/skip-negotiation.ts). Absent: negotiate. */
  skipNegotiation?: boolean;
  /** This connection's token, headers and query (core/run/credentials.ts); never in a message. */
  credentials?: ConnectionCredentials;
}

export type ConnectionFactory = (options: ConnectionOptions) => BenchConnection;

/** Encoded size in bytes of a hub call (method + arguments) in a protocol, without transport framing. */
export type EncodedSize = (method: string, args: unknown[]) => number;

/** A failure classified for counting and worded for people. */
export interface ClassifiedError {
  kind: ErrorKind;
  message: string;
  /** For a failed connect: why, by side (core/client/connect-causes.ts); absent: `other`. */
  cause?: ConnectCause;
}

export type ErrorClassifier = (error: unknown, context: ConnectionOptions) => ClassifiedError;
