/**
 * What the engine needs from a connection. The real one wraps `@microsoft/signalr`
 * (signalr/bench-connection.ts); unit tests inject fakes.
 */
import type { ProtocolName, TransportName } from '../../core/run-config.ts';
import type { ErrorKind } from '../../core/protocol.ts';

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
  /** Every delivery of the benchmark hub arrives as `Measure(ts, payload)`. */
  onMeasure(handler: (ts: number, payload: string) => void): void;
  /** Called once when the connection closes after having started (and, with reconnect, after
   *  reconnecting gave up), with the cause if any. */
  onClose(handler: (error?: Error) => void): void;
  /** With reconnect: the connection was lost and is being reconnected. */
  onReconnecting(handler: (error?: Error) => void): void;
  /** With reconnect: the connection is back (with a new connection id, and in no group). */
  onReconnected(handler: () => void): void;
}

export interface ConnectionOptions {
  endpointUrl: string;
  transport: TransportName;
  protocol: ProtocolName;
  reconnect: boolean;
}

export type ConnectionFactory = (options: ConnectionOptions) => BenchConnection;

/** Encoded size in bytes of a hub call (method + arguments) in a protocol, without transport framing. */
export type EncodedSize = (method: string, args: unknown[]) => number;

/** A failure classified for counting and worded for people. */
export interface ClassifiedError {
  kind: ErrorKind;
  message: string;
}

export type ErrorClassifier = (error: unknown, context: ConnectionOptions) => ClassifiedError;
