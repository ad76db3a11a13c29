/**
 * With control-connection.ts, the only modules that import `@microsoft/signalr`: builds hub connections for the engine and
 * words their failures for people.
 */
import {
  DefaultHttpClient,
  HttpTransportType,
  HubConnectionBuilder,
  JsonHubProtocol,
  LogLevel,
  MessageType,
  NullLogger,
  type HttpRequest,
  type HttpResponse,
  type IHubProtocol,
  type InvocationMessage,
} from '@microsoft/signalr';
import { MessagePackHubProtocol } from '@microsoft/signalr-protocol-msgpack';
import type { ProtocolName, TransportName } from '../core/run-config.ts';
import type { BenchConnection, ClassifiedError, ConnectionFactory, ConnectionOptions, EncodedSize } from './engine/connection.ts';

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

/** How long automatic reconnect keeps trying, in ms. */
const RECONNECT_FOR_MS = 60_000;

/** Implementations for environments without browser globals (Node's worker threads, tests). */
export interface PlatformOverrides {
  WebSocket?: unknown;
  EventSource?: unknown;
}

export function signalRConnectionFactory(overrides: PlatformOverrides = {}): ConnectionFactory {
  return (options) => createSignalRConnection(options, overrides);
}

function createSignalRConnection(options: ConnectionOptions, overrides: PlatformOverrides): BenchConnection {
  const protocol: IHubProtocol | undefined = options.protocol === 'messagepack' ? new MessagePackHubProtocol() : undefined;
  let builder = new HubConnectionBuilder()
    .withUrl(options.endpointUrl, {
      // Exactly the chosen transport: falling back silently would measure something else.
      transport: TRANSPORT_TYPES[options.transport],
      httpClient: new ExplainingHttpClient(NullLogger.instance),
      ...(overrides.WebSocket ? { WebSocket: overrides.WebSocket } : {}),
      ...(overrides.EventSource ? { EventSource: overrides.EventSource } : {}),
    })
    // Failures are counted and worded by the engine; the library's own console lines would be
    // repeated once per connection.
    .configureLogging(LogLevel.None);
  if (protocol) builder = builder.withHubProtocol(protocol);
  // A benchmark wants its connections back as soon as the hub is: every second, for a minute.
  if (options.reconnect) builder = builder.withAutomaticReconnect({ nextRetryDelayInMilliseconds: (retry) => (retry.elapsedMilliseconds < RECONNECT_FOR_MS ? 1_000 : null) });
  const hub = builder.build();
  return {
    get connectionId() {
      return hub.connectionId;
    },
    bufferedBytes: () => webSocketBufferedBytes(hub),
    start: () => hub.start(),
    stop: () => hub.stop(),
    send: (method, ...args) => hub.send(method, ...args),
    invoke: (method, ...args) => hub.invoke(method, ...args),
    onMeasure: (handler) => hub.on('Measure', handler),
    onClose: (handler) => hub.onclose(handler),
    onReconnecting: (handler) => hub.onreconnecting(handler),
    onReconnected: (handler) => hub.onreconnected(() => handler()),
  };
}

/**
 * Sizes hub calls with the official client's own protocol writers, so bandwidth is counted in
 * the bytes each protocol really puts on the wire (transport framing aside). A hub's writer may
 * differ by a byte or two (field order, an empty stream-id list).
 */
export function encodedSizeFor(protocolName: ProtocolName): EncodedSize {
  const protocol: IHubProtocol = protocolName === 'messagepack' ? new MessagePackHubProtocol() : new JsonHubProtocol();
  return (method, args) => {
    // The same shape HubConnection.send() writes: no invocation id, headers or stream ids.
    const encoded = protocol.writeMessage({ target: method, arguments: args, type: MessageType.Invocation } as InvocationMessage);
    return typeof encoded === 'string' ? new TextEncoder().encode(encoded).length : encoded.byteLength;
  };
}

/**
 * Node's fetch fails with just "fetch failed" and keeps the reason (ENOTFOUND, a self-signed
 * certificate, ECONNREFUSED) in `cause`, which the SignalR client drops when it rewords the
 * error: put the reason into the message while it is still there. Browsers give no reason.
 */
class ExplainingHttpClient extends DefaultHttpClient {
  override async send(request: HttpRequest): Promise<HttpResponse> {
    try {
      return await super.send(request);
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      if (error instanceof Error && cause) error.message = `${error.message} (${[cause.code, cause.message].filter(Boolean).join(': ')})`;
      throw error;
    }
  }
}

/** Sorts a SignalR client error into a failure kind and says it with the transport and endpoint. */
export function classifySignalRError(error: unknown, context: ConnectionOptions): ClassifiedError {
  const err = error instanceof Error ? error : new Error(String(error));
  const type = (err as { errorType?: string }).errorType ?? err.name;
  const text = err.message || String(error);
  const where = `${context.transport} (${context.protocol}) to ${context.endpointUrl}`;
  if (type === 'FailedToNegotiateWithServerError' || /negotiat/i.test(text)) {
    const notAHub = notAHubReason(err, text);
    return { kind: 'negotiate', message: `${where}: ${text}${notAHub ? `. ${notAHub}` : hintFor(text)}` };
  }
  if (/handshake/i.test(text)) {
    return { kind: 'handshake', message: `${where}: ${text}. Check that the hub accepts the ${context.protocol} protocol.` };
  }
  if (
    ['FailedToStartTransportError', 'DisabledTransportError', 'UnsupportedTransportError'].includes(type) ||
    // AggregateErrors carries no errorType: recognise its wording.
    /with any of the available transports/.test(text)
  ) {
    return { kind: 'transport', message: `${where}: ${text}${hintFor(text)}` };
  }
  return { kind: 'connect', message: `${where}: ${text}${hintFor(text)}` };
}

/**
 * Why a negotiate answer shows there is no SignalR hub at the URL, or null: an HTTP error status
 * (the client's HttpError.statusCode, or the status its negotiate error quotes) other than an
 * authorization refusal, or a body that is not negotiate JSON (an HTML page).
 */
function notAHubReason(err: Error, text: string): string | null {
  const status = (err as { statusCode?: number }).statusCode ?? Number(/Status code '(\d{3})'/i.exec(text)?.[1] ?? NaN);
  const hint = 'Check the URL and the hub path (the hub-sample maps /signalrbench).';
  if (status === 401 || status === 403) return `The server refused the negotiate request (status ${status}): the hub may need authentication, or refuse this origin. Check the hub's authentication and allowed origins.`;
  if (status >= 400) return `This is not a SignalR hub at this URL: the server answered the negotiate request with status ${status}. ${hint}`;
  if (/Unexpected token|not valid JSON|JSON\.parse|Unexpected end of JSON/i.test(text)) return `This is not a SignalR hub at this URL: the server answered the negotiate request, but not with SignalR's negotiate JSON (an HTML page?). ${hint}`;
  return null;
}

/** The likely cause and the next step, for the failures people meet most. */
const HINTS: [RegExp, string][] = [
  [/ENOTFOUND|EAI_AGAIN|getaddrinfo|ERR_NAME_NOT_RESOLVED/i, 'The host name does not resolve: check its spelling, or use an IP address.'],
  [/certificate|self[- ]signed|CERT_|SSL|TLS/i, 'The server\'s TLS certificate is not trusted (self-signed, expired or for another name): trust it, or use http:// for a local hub.'],
  // A Web Worker has WorkerGlobalScope: only there can CORS be the cause, and only there is a page's origin.
  [/ECONNREFUSED|ECONNRESET|failed to fetch|fetch failed|NetworkError/i, 'WorkerGlobalScope' in globalThis
    ? 'Nothing accepted the connection, or CORS blocked it: check the URL, that the hub is running, and that it allows this page\'s origin.'
    : 'Nothing accepted the connection: check the URL and that the hub is running.'],
  [/disabled by the (server|client)|not enabled by the server|does not support/i, 'The hub does not offer this transport with this protocol: choose another transport, or enable it on the hub.'],
  [/closed with an error|MaximumReceiveMessageSize|message size/i, 'A hub closes a connection that sends a message larger than its limit (SignalR\'s MaximumReceiveMessageSize, 32 KB unless raised) or that breaks the protocol: lower the message size or raise the hub\'s limit.'],
];

function hintFor(text: string): string {
  const hint = HINTS.find(([pattern]) => pattern.test(text));
  return hint ? `. ${hint[1]}` : '';
}
