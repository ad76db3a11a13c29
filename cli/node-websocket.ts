/**
 * The WebSocket the runner's engines use: the `ws` package the SignalR client picks in Node, with
 * each connection's socket errors (EMFILE, EADDRNOTAVAIL, ECONNREFUSED) left in its sink, so that
 * they reach the failure's wording and its cause (signalr/bench-connection.ts PlatformOverrides).
 *
 * One constructor function for every connection, bound per connection to its sink: `new` on a
 * bound function runs the shared one with the sink first and returns the socket it made. A class
 * made per connection cost 3.2 KB of heap each (its prototype, its maps); a function made per
 * connection with the readyState constants assigned onto it still ~0.5 KB (its own prototype
 * object and property store, heap snapshots of 2,000 and 4,000 connections); a bound function
 * is ~0.1 KB. The client reads the readyState constants from the constructor
 * (WebSocketTransport: `_webSocketConstructor.OPEN`): a bound function inherits them from the
 * shared function's prototype, where they live.
 */
import WebSocket from 'ws';
import type { PlatformOverrides, SocketErrorSink } from '../signalr/bench-connection.ts';

const READY_STATES = { CONNECTING: WebSocket.CONNECTING, OPEN: WebSocket.OPEN, CLOSING: WebSocket.CLOSING, CLOSED: WebSocket.CLOSED };

function ReportingWebSocket(sink: SocketErrorSink, ...args: ConstructorParameters<typeof WebSocket>): WebSocket {
  const socket = new WebSocket(...args);
  socket.on('error', (error: Error) => (sink.socketError = error.message));
  return socket;
}
// Bound functions take their prototype from the function they bind: the constants are found there.
Object.setPrototypeOf(ReportingWebSocket, Object.assign(Object.create(Function.prototype) as object, READY_STATES));

export const nodePlatform: PlatformOverrides = {
  reportingWebSocket: (sink) => ReportingWebSocket.bind(null, sink),
};
