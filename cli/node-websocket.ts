/**
 * The WebSocket the runner's engines use: the `ws` package the SignalR client picks in Node,
 * made per connection so that its socket's error (EMFILE, EADDRNOTAVAIL, ECONNREFUSED) reaches
 * the failure's wording and its cause (signalr/bench-connection.ts PlatformOverrides).
 *
 * A constructor function, not a class per connection: a class made per connection cost 3.2 KB
 * of heap each (its prototype, its maps), 10% of a connection's resident memory; this one is a
 * closure over `report`. `new` on it returns the socket it made. The client reads the readyState
 * constants from the constructor (WebSocketTransport: `_webSocketConstructor.OPEN`).
 */
import WebSocket from 'ws';
import type { PlatformOverrides } from '../signalr/bench-connection.ts';

const READY_STATES = { CONNECTING: WebSocket.CONNECTING, OPEN: WebSocket.OPEN, CLOSING: WebSocket.CLOSING, CLOSED: WebSocket.CLOSED };

export const nodePlatform: PlatformOverrides = {
  reportingWebSocket: (report) =>
    Object.assign(function ReportingWebSocket(...args: ConstructorParameters<typeof WebSocket>): WebSocket {
      const socket = new WebSocket(...args);
      socket.on('error', report);
      return socket;
    }, READY_STATES),
};
