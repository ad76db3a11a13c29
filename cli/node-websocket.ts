/**
 * The WebSocket the runner's engines use: the `ws` package the SignalR client picks in Node,
 * made per connection so that its socket's error (EMFILE, EADDRNOTAVAIL, ECONNREFUSED) reaches
 * the failure's wording and its cause (signalr/bench-connection.ts PlatformOverrides).
 */
import WebSocket from 'ws';
import type { PlatformOverrides } from '../signalr/bench-connection.ts';

export const nodePlatform: PlatformOverrides = {
  reportingWebSocket: (report) =>
    class ReportingWebSocket extends WebSocket {
      constructor(...args: ConstructorParameters<typeof WebSocket>) {
        super(...args);
        this.on('error', report);
      }
    },
};
