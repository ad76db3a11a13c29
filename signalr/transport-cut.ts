/**
 * What the official client does not expose and a drop needs: cutting a connection's transport as
 * a lost network would (no SignalR close message, no DELETE), and seeing stateful reconnect bridge
 * a gap (it reconnects the transport inside the connection and tells the hub connection nothing).
 * Both read the client's private fields (`@microsoft/signalr` 10.0.x); if a later version moves
 * them, a cut reports false (counted as a failed drop) and resumes go unseen, never a crash.
 */
import type { HubConnection } from '@microsoft/signalr';

interface TransportFields {
  _webSocket?: { terminate?: () => void; close(code?: number, reason?: string): void };
  _eventSource?: unknown;
  _close?: (error?: Error) => void;
  _pollAbort?: AbortController;
  _running?: boolean;
  _closeError?: unknown;
  _raiseOnClose?: () => void;
}

interface ConnectionFields {
  transport?: TransportFields;
  features?: { disconnected?: () => void; resend?: () => Promise<void> | void };
}

function connectionOf(hub: HubConnection): ConnectionFields | undefined {
  return (hub as unknown as { connection?: ConnectionFields }).connection;
}

/** The WebSocket close code of a cut in a browser, where a page cannot drop a TCP connection. */
export const NETWORK_DROP_CLOSE_CODE = 4000;

export function cutTransport(hub: HubConnection): boolean {
  const transport = connectionOf(hub)?.transport;
  if (!transport) return false;
  const socket = transport._webSocket;
  if (socket) {
    // Node's `ws` can destroy the TCP connection without a closing handshake: a real network
    // loss. A browser can only close the socket; a non-1000 code still makes it an error.
    if (typeof socket.terminate === 'function') {
      socket.terminate();
    } else {
      socket.close(NETWORK_DROP_CLOSE_CODE, 'network drop');
      // A lost network is noticed at once, not after a closing handshake the hub may be slow to
      // answer: report the loss now (the client ignores the socket's own close from here on).
      transport._close?.(new Error('The network dropped (planned by the run).'));
    }
    return true;
  }
  if (transport._eventSource && typeof transport._close === 'function') {
    transport._close(new Error('The network dropped (planned by the run).'));
    return true;
  }
  if (transport._pollAbort && typeof transport._raiseOnClose === 'function' && transport._running) {
    // Abort the poll without the DELETE a stop sends, then report the loss as the poll loop would.
    transport._closeError = new Error('The network dropped (planned by the run).');
    transport._running = false;
    transport._pollAbort.abort();
    transport._raiseOnClose();
    return true;
  }
  return false;
}

export interface StatefulWatch {
  /** Wraps the client's hooks for the current connection (after start and after each reconnect). */
  rewire(): void;
  onLost(handler: () => void): void;
  onResumed(handler: () => void): void;
}

export function watchStatefulReconnect(hub: HubConnection): StatefulWatch {
  const lost: (() => void)[] = [];
  const resumed: (() => void)[] = [];
  return {
    rewire() {
      const features = connectionOf(hub)?.features;
      if (!features?.disconnected || !features.resend) return;
      const disconnected = features.disconnected;
      const resend = features.resend;
      features.disconnected = () => {
        disconnected();
        for (const handler of lost) handler();
      };
      features.resend = async () => {
        await resend();
        for (const handler of resumed) handler();
      };
    },
    onLost: (handler) => lost.push(handler),
    onResumed: (handler) => resumed.push(handler),
  };
}
