/**
 * The one module that imports `@microsoft/signalr`: builds hub connections for the engine and
 * words their failures for people.
 */
import { HttpTransportType, HubConnectionBuilder, JsonHubProtocol, LogLevel, MessageType, type IHubProtocol, type InvocationMessage } from '@microsoft/signalr';
import { MessagePackHubProtocol } from '@microsoft/signalr-protocol-msgpack';
import type { ProtocolName, TransportName } from '../core/run-config.ts';
import type { BenchConnection, ClassifiedError, ConnectionFactory, ConnectionOptions, EncodedSize } from './engine/connection.ts';

const TRANSPORT_TYPES: Record<TransportName, HttpTransportType> = {
  WebSockets: HttpTransportType.WebSockets,
  ServerSentEvents: HttpTransportType.ServerSentEvents,
  LongPolling: HttpTransportType.LongPolling,
};

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
      ...(overrides.WebSocket ? { WebSocket: overrides.WebSocket } : {}),
      ...(overrides.EventSource ? { EventSource: overrides.EventSource } : {}),
    })
    // Failures are counted and worded by the engine; the library's own console lines would be
    // repeated once per connection.
    .configureLogging(LogLevel.None);
  if (protocol) builder = builder.withHubProtocol(protocol);
  const hub = builder.build();
  return {
    get connectionId() {
      return hub.connectionId;
    },
    start: () => hub.start(),
    stop: () => hub.stop(),
    send: (method, ...args) => hub.send(method, ...args),
    invoke: (method, ...args) => hub.invoke(method, ...args),
    onMeasure: (handler) => hub.on('Measure', handler),
    onClose: (handler) => hub.onclose(handler),
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

/** Sorts a SignalR client error into a failure kind and says it with the transport and endpoint. */
export function classifySignalRError(error: unknown, context: ConnectionOptions): ClassifiedError {
  const err = error instanceof Error ? error : new Error(String(error));
  const type = (err as { errorType?: string }).errorType ?? err.name;
  const text = err.message || String(error);
  const where = `${context.transport} (${context.protocol}) to ${context.endpointUrl}`;
  if (type === 'FailedToNegotiateWithServerError' || /negotiat/i.test(text)) {
    return { kind: 'negotiate', message: `${where}: ${text}${hintFor(text)}` };
  }
  if (/handshake/i.test(text)) {
    return { kind: 'handshake', message: `${where}: ${text}. Check that the hub accepts the ${context.protocol} protocol.` };
  }
  if (
    ['FailedToStartTransportError', 'DisabledTransportError', 'UnsupportedTransportError'].includes(type) ||
    // AggregateErrors carries no errorType: recognise its wording.
    /with any of the available transports/.test(text)
  ) {
    return { kind: 'transport', message: `${where}: ${text}` };
  }
  return { kind: 'connect', message: `${where}: ${text}${hintFor(text)}` };
}

function hintFor(text: string): string {
  if (/failed to fetch|fetch failed|ECONNREFUSED|ENOTFOUND|NetworkError/i.test(text)) {
    return '. The host refused the connection, does not resolve, or (in a browser) blocked it by CORS: check the URL and that the hub is running and allows this origin.';
  }
  if (/status code '404'/i.test(text)) {
    return '. Nothing answers at this path: check the hub path (the hub-sample maps /signalrbench).';
  }
  return '';
}
