/**
 * What the official client does not expose and a drop needs: cutting a connection's transport as
 * a lost network would (no SignalR close message, no DELETE), seeing stateful reconnect bridge
 * a gap (it reconnects the transport inside the connection and tells the hub connection nothing),
 * whether the hub granted stateful reconnect at all, and the messages it carried twice.
 * All read the client's private fields (`@microsoft/signalr` 10.0.x); if a later version moves
 * them, a cut reports false (counted as a failed drop), resumes and resends go unseen and the
 * grant reads as refused, never a crash.
 *
 * Resends, as the client's MessageBuffer (src/MessageBuffer.ts) makes them: every invocation it
 * sends is kept until the hub acknowledges it; after a resumed transport `_resend()` writes each
 * kept one again (the hub drops those it had). The hub does the same the other way, and the
 * client's `_shouldProcessMessage` returns false for each copy it had already received (and for
 * anything that arrives before the hub's Sequence message). Both sets crossed the wire again and
 * are in no other figure; counted here with their encoded size (the protocol's own writer).
 * Acks and Sequence messages (a few bytes each) are not counted.
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
  /** `reconnect` is true once the negotiate answer granted stateful reconnect (WebSockets only). */
  features?: { disconnected?: () => void; resend?: () => Promise<void> | void; reconnect?: boolean };
}

/** The client's MessageBuffer: the messages kept for a resend, and the filter of received copies. */
interface MessageBufferFields {
  _messages?: { _message: string | ArrayBuffer }[];
  _protocol?: { writeMessage(message: unknown): string | ArrayBuffer };
  _shouldProcessMessage?: (message: { type?: number }) => boolean;
  _isInvocationMessage?: (message: { type?: number }) => boolean;
  /** Set here once the filter is wrapped (a resumed connection keeps its buffer). */
  benchWatched?: boolean;
}

function connectionOf(hub: HubConnection): ConnectionFields | undefined {
  return (hub as unknown as { connection?: ConnectionFields }).connection;
}

function bufferOf(hub: HubConnection): MessageBufferFields | undefined {
  return (hub as unknown as { _messageBuffer?: MessageBufferFields })._messageBuffer;
}

const sizeOf = (message: string | ArrayBuffer) => (typeof message === 'string' ? message.length : message.byteLength);

/** Whether the hub granted stateful reconnect to this connection (its negotiate answer's
 *  `useStatefulReconnect`, over WebSockets): asking for it alone does not turn it on. */
export function statefulGranted(hub: HubConnection): boolean {
  return connectionOf(hub)?.features?.reconnect === true;
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

/** Messages that crossed the wire again: `sent` by this client, or `received` and discarded as copies. */
export type ResentHandler = (direction: 'sent' | 'received', messages: number, bytes: number) => void;

export interface StatefulWatch {
  /** Wraps the client's hooks for the current connection (after start and after each reconnect). */
  rewire(): void;
  onLost(handler: () => void): void;
  onResumed(handler: () => void): void;
  onResent(handler: ResentHandler): void;
}

export function watchStatefulReconnect(hub: HubConnection): StatefulWatch {
  const lost: (() => void)[] = [];
  const resumed: (() => void)[] = [];
  const resent: ResentHandler[] = [];
  const tell = (direction: 'sent' | 'received', messages: number, bytes: number) => {
    for (const handler of resent) handler(direction, messages, bytes);
  };
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
        // What _resend() is about to write again: every message the hub has not acknowledged.
        const kept = bufferOf(hub)?._messages ?? [];
        if (kept.length > 0) tell('sent', kept.length, kept.reduce((sum, item) => sum + sizeOf(item._message), 0));
        await resend();
        for (const handler of resumed) handler();
      };
      watchReceivedCopies(bufferOf(hub), tell);
    },
    onLost: (handler) => lost.push(handler),
    onResumed: (handler) => resumed.push(handler),
    onResent: (handler) => resent.push(handler),
  };
}

/** Counts the invocations the buffer's filter discards: copies the hub sent again. */
function watchReceivedCopies(buffer: MessageBufferFields | undefined, tell: ResentHandler): void {
  if (!buffer || buffer.benchWatched || typeof buffer._shouldProcessMessage !== 'function' || typeof buffer._isInvocationMessage !== 'function') return;
  buffer.benchWatched = true;
  const filter = buffer._shouldProcessMessage.bind(buffer);
  const isInvocation = buffer._isInvocationMessage.bind(buffer);
  buffer._shouldProcessMessage = (message) => {
    const processed = filter(message);
    if (!processed && isInvocation(message)) {
      let bytes = 0;
      try {
        bytes = buffer._protocol ? sizeOf(buffer._protocol.writeMessage(message)) : 0;
      } catch {
        // A message the protocol cannot write back is still a copy: counted, its size unknown (0).
      }
      tell('received', 1, bytes);
    }
    return processed;
  };
}
