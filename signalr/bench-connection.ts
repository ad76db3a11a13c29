/**
 * The engine's connections (workers/engine/connection.ts BenchConnection), built with the official
 * `@microsoft/signalr` client over exactly the chosen transport and protocol.
 */
import { HttpTransportType, HubConnectionBuilder, LogLevel, NullLogger, type HubConnection, type IHubProtocol } from '@microsoft/signalr';
import { MessagePackHubProtocol } from '@microsoft/signalr-protocol-msgpack';
import { withQuery, type TransportName } from '../core/run-config/index.ts';
import { retryDelayMs } from '../core/drops/index.ts';
import { ExplainingHttpClient } from './explaining-http-client.ts';
import { FreshTokenHttpClient } from './fresh-token-http-client.ts';
import { cutTransport, statefulGranted, watchStatefulReconnect, type ResentHandler, type StatefulWatch } from './transport-cut.ts';
import { countWireBytes } from './wire-bytes.ts';
import { uploadStream } from './client-streams.ts';
import type { BenchConnection, ConnectionFactory, ConnectionOptions, ItemStream, UploadStream } from '../workers/engine/connection.ts';

const TRANSPORT_TYPES: Record<TransportName, HttpTransportType> = {
  WebSockets: HttpTransportType.WebSockets,
  ServerSentEvents: HttpTransportType.ServerSentEvents,
  LongPolling: HttpTransportType.LongPolling,
};

/**
 * The client does not expose its WebSocket, but a benchmark must not queue without bound when
 * the hub stalls: read `bufferedAmount` through the connection's fields, and report 0 if a
 * future client version moves them (the bound on unwritten sends still applies then).
 */
function webSocketBufferedBytes(hub: unknown): number {
  const socket = (hub as { connection?: { transport?: { _webSocket?: { bufferedAmount?: unknown } } } }).connection?.transport?._webSocket;
  return typeof socket?.bufferedAmount === 'number' ? socket.bufferedAmount : 0;
}


/** Implementations for environments without browser globals (Node's worker threads, tests). */
export interface PlatformOverrides {
  WebSocket?: unknown;
  EventSource?: unknown;
  /**
   * Node: a WebSocket constructor, one per connection, that writes its socket's error's message
   * into `sink.socketError`. The SignalR client words a WebSocket that failed to connect without
   * its reason outside browsers (no ErrorEvent there); the reason (EMFILE, EADDRNOTAVAIL,
   * ECONNREFUSED) says whose limit it was (core/client/connect-causes.ts), so it is added to the
   * failure's message.
   */
  reportingWebSocket?: (sink: SocketErrorSink) => unknown;
}

/** Where a connection's socket leaves the reason it failed with. */
export interface SocketErrorSink {
  socketError: string | null;
}

export function signalRConnectionFactory(overrides: PlatformOverrides = {}): ConnectionFactory {
  return (options) => createSignalRConnection(options, overrides);
}

function createSignalRConnection(options: ConnectionOptions, overrides: PlatformOverrides): BenchConnection {
  const connection = new SignalRBenchConnection();
  const protocol: IHubProtocol | undefined = options.protocol === 'messagepack' ? new MessagePackHubProtocol() : undefined;
  const webSocket = overrides.reportingWebSocket ? overrides.reportingWebSocket(connection) : overrides.WebSocket;
  const credentials = options.credentials;
  // Whether the run has a token at all; the token itself is read at each request (a fresh one
  // from the runner's --access-token-command reaches reconnects and long polling's requests).
  const accessToken = credentials?.accessToken ?? null;
  const httpClient = accessToken ? new FreshTokenHttpClient(NullLogger.instance, () => credentials?.accessToken ?? null) : new ExplainingHttpClient(NullLogger.instance);
  let builder = new HubConnectionBuilder()
    .withUrl(withQuery(options.endpointUrl, credentials?.query ?? []), {
      // Exactly the chosen transport: falling back silently would measure something else.
      transport: TRANSPORT_TYPES[options.transport],
      // Straight to the WebSocket, no negotiate POST (core/run-config/skip-negotiation.ts).
      ...(options.skipNegotiation ? { skipNegotiation: true } : {}),
      httpClient,
      // The client sends it as the official client does on each transport: an Authorization
      // header, or access_token in the query where a browser cannot set headers (WebSockets, SSE).
      // After an Azure-style negotiate redirect the client uses the redirect's token instead.
      ...(httpClient instanceof FreshTokenHttpClient ? { accessTokenFactory: httpClient.factory } : {}),
      // Negotiate and the other HTTP requests, and in Node the WebSocket upgrade too.
      ...(credentials && credentials.headers.length > 0 ? { headers: Object.fromEntries(credentials.headers) } : {}),
      ...(webSocket ? { WebSocket: webSocket } : {}),
      ...(overrides.EventSource ? { EventSource: overrides.EventSource } : {}),
    })
    // Failures are counted and worded by the engine; the library's own console lines would be
    // repeated once per connection.
    .configureLogging(LogLevel.None);
  if (protocol) builder = builder.withHubProtocol(protocol);
  // The run's reconnect policy (core/drops/drop-schedule.ts); 'fixed' (every second for a minute) when a
  // caller names none, as before policies existed.
  if (options.reconnect) {
    const policy = options.reconnectPolicy ?? 'fixed';
    builder = builder.withAutomaticReconnect({ nextRetryDelayInMilliseconds: (retry) => retryDelayMs(policy, retry.previousRetryCount, retry.elapsedMilliseconds, Math.random) });
  }
  if (options.statefulReconnect) builder = builder.withStatefulReconnect();
  connection.hub = builder.build();
  // Bytes as the transport carried them, counted from the first frame (the handshake) on.
  if (options.wire) countWireBytes(connection.hub, options.wire);
  // Without stateful reconnect asked for, the client never bridges a gap, so there is nothing to watch.
  if (options.statefulReconnect) connection.stateful = watchStatefulReconnect(connection.hub);
  return connection;
}

/**
 * One connection, as the engine sees it. A class made once, its methods on the prototype: the
 * engine holds thousands of these, and an object literal of 17 closures over the hub cost ~2 KB
 * of heap per connection (the closures, their context and a dictionary of properties: heap
 * snapshots, bench/RESULTS.md 2026-11-26 "where the bytes go"); this is one small object.
 */
class SignalRBenchConnection implements BenchConnection, SocketErrorSink {
  hub!: HubConnection;
  /** Null without stateful reconnect: its handlers are never called then, so none are kept. */
  stateful: StatefulWatch | null = null;
  /** The socket's own reason for failing (Node), added to the client's wording of a failed start. */
  socketError: string | null = null;

  get connectionId(): string | null {
    return this.hub.connectionId;
  }

  bufferedBytes(): number {
    return webSocketBufferedBytes(this.hub);
  }

  start(): Promise<void> {
    return this.hub.start().then(() => this.stateful?.rewire(), (error: unknown) => {
      const socketError = this.socketError;
      if (error instanceof Error && socketError && !error.message.includes(socketError)) error.message = `${error.message} (the socket said: ${socketError})`;
      throw error;
    });
  }

  stop(): Promise<void> {
    return this.hub.stop();
  }

  send(method: string, ...args: unknown[]): Promise<void> {
    return this.hub.send(method, ...args);
  }

  invoke(method: string, ...args: unknown[]): Promise<unknown> {
    return this.hub.invoke(method, ...args);
  }

  on(method: string, handler: (...args: unknown[]) => void): void {
    this.hub.on(method, handler);
  }

  stream(method: string, ...args: unknown[]): ItemStream {
    return this.hub.stream(method, ...args);
  }

  upload(): UploadStream {
    return uploadStream(this.hub);
  }

  answer(method: string, reply: (...args: unknown[]) => unknown): void {
    // Since @microsoft/signalr 7 a handler's return value (or its promise's) answers the hub.
    this.hub.on(method, reply);
  }

  onClose(handler: (error?: Error) => void): void {
    this.hub.onclose(handler);
  }

  onReconnecting(handler: (error?: Error) => void): void {
    this.hub.onreconnecting(handler);
  }

  onReconnected(handler: () => void): void {
    this.hub.onreconnected(() => {
      // A new connection: the client set up new stateful-reconnect hooks for it.
      this.stateful?.rewire();
      handler();
    });
  }

  cutTransport(): boolean {
    return cutTransport(this.hub);
  }

  onTransportLost(handler: () => void): void {
    this.stateful?.onLost(handler);
  }

  onResumed(handler: () => void): void {
    this.stateful?.onResumed(handler);
  }

  statefulGranted(): boolean {
    return statefulGranted(this.hub);
  }

  onResent(handler: ResentHandler): void {
    this.stateful?.onResent(handler);
  }
}
