/**
 * The runner's WebSocket constructor (cli/node-websocket.ts): one shared function bound per
 * connection must still be what the SignalR client expects of a constructor (`new` gives a `ws`
 * socket, the readyState constants read from it), and a socket's error must reach its own
 * connection's sink and no other.
 */
import { createServer, type AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { describe, expect, it } from 'vitest';
import { nodePlatform } from '../../cli/node-websocket.ts';
import type { SocketErrorSink } from '../../signalr/bench-connection.ts';

type Constructor = (new (url: string) => WebSocket) & { CONNECTING: number; OPEN: number; CLOSING: number; CLOSED: number };

/** A port nothing listens on: taken, then freed. */
async function refusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('the runner\'s WebSocket constructor', () => {
  it('reads the readyState constants the client compares with, per connection', () => {
    const made = nodePlatform.reportingWebSocket!({ socketError: null }) as Constructor;
    expect([made.CONNECTING, made.OPEN, made.CLOSING, made.CLOSED]).toEqual([WebSocket.CONNECTING, WebSocket.OPEN, WebSocket.CLOSING, WebSocket.CLOSED]);
  });

  it('makes a ws socket whose error lands in its own connection\'s sink only', async () => {
    const port = await refusedPort();
    const mine: SocketErrorSink = { socketError: null };
    const other: SocketErrorSink = { socketError: null };
    const Mine = nodePlatform.reportingWebSocket!(mine) as Constructor;
    nodePlatform.reportingWebSocket!(other);
    const socket = new Mine(`ws://127.0.0.1:${port}/`);
    expect(socket).toBeInstanceOf(WebSocket);
    await new Promise<void>((resolve) => socket.on('close', () => resolve()));
    expect(mine.socketError).toMatch(/ECONNREFUSED/);
    expect(other.socketError).toBeNull();
  });
});
