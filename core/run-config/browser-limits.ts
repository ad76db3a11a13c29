/**
 * What a Chromium-based browser lets one page open, measured (see the README's "Browser limits"):
 * - WebSockets: 255 per browser profile (OPEN plus CONNECTING), across hosts, tabs and workers;
 *   the excess fails ~15-160 ms later with close code 1006.
 * - Server-Sent Events and long polling over HTTP/1.1: 6 connections per scheme+host+port for
 *   the whole profile; the excess waits silently, and starves the page's own requests.
 * - Over HTTP/2 (https), SSE and long polling share one TCP connection (Kestrel allows 100
 *   streams per connection by default; Chromium 256).
 */
import type { TransportName } from './config.ts';
import { RUN_CONFIG_WORDS as W } from './words.ts';

export const MAX_BROWSER_WEBSOCKETS = 255;
export const MAX_HTTP1_CONNECTIONS_PER_ORIGIN = 6;
/** Kestrel's default MaxStreamsPerConnection: streams one HTTP/2 connection carries at once. */
export const DEFAULT_HTTP2_STREAMS = 100;

export interface LimitWarning {
  severity: 'warning' | 'error';
  message: string;
}

/** What the browser will and will not allow for this transport, endpoint and connection count. */
export function browserLimitWarnings(transport: TransportName, endpointUrl: string, connections: number): LimitWarning[] {
  if (transport === 'WebSockets') {
    if (connections <= MAX_BROWSER_WEBSOCKETS) return [];
    return [{
      severity: 'error',
      message: W.browserWebSockets({ max: MAX_BROWSER_WEBSOCKETS, connections }),
    }];
  }
  const name = transport === 'ServerSentEvents' ? 'Server-Sent Events' : 'Long polling';
  const secure = endpointUrl.trim().toLowerCase().startsWith('https:');
  if (!secure) {
    // One connection stays free for sends and the negotiate of the next connection.
    const usable = MAX_HTTP1_CONNECTIONS_PER_ORIGIN - 2;
    if (connections <= usable) return [];
    return [{
      severity: 'error',
      message: W.http1Queue({ transport: name, perOrigin: MAX_HTTP1_CONNECTIONS_PER_ORIGIN, connections, usable }),
    }];
  }
  // Each long-polling connection holds one poll and sometimes one send; SSE holds one stream.
  const streamsPerConnection = transport === 'LongPolling' ? 2 : 1;
  if (connections * streamsPerConnection <= DEFAULT_HTTP2_STREAMS) return [];
  return [{
    severity: 'warning',
    message: W.http2Streams({ transport: name, streams: connections * streamsPerConnection, serverStreams: DEFAULT_HTTP2_STREAMS }),
  }];
}

/**
 * Connections one browser profile can usefully hold for this transport and endpoint, used to
 * split a run between a browser and agents: 255 WebSockets; over HTTP/1.1, the 6 per origin
 * less the 2 kept free for sends and negotiates; over HTTP/2, Kestrel's default streams per
 * connection (long polling takes two streams a connection).
 */
export function browserConnectionCapacity(transport: TransportName, endpointUrl: string): number {
  if (transport === 'WebSockets') return MAX_BROWSER_WEBSOCKETS;
  if (!endpointUrl.trim().toLowerCase().startsWith('https:')) return MAX_HTTP1_CONNECTIONS_PER_ORIGIN - 2;
  return Math.floor(DEFAULT_HTTP2_STREAMS / (transport === 'LongPolling' ? 2 : 1));
}

/** An agent as far as capacity goes: a browser profile, or a headless runner (whose engines'
 *  limit a fleet run checks when it is planned: core/fleet/fleet-run.ts). */
export interface CapacityAgent {
  kind: 'node' | 'browser';
  threads: number;
}

/**
 * The limits of a run carried by this browser (when `includeLocal`) and `agents` together: with no
 * agents, this browser's own (browserLimitWarnings); with agents, an error only when all of them
 * together cannot hold the connections (with a headless runner among them, the run's plan checks
 * its engines: core/fleet/fleet-run.ts). Errors refuse Start.
 */
export function planLimitWarnings(transport: TransportName, endpointUrl: string, connections: number, agents: readonly CapacityAgent[], includeLocal: boolean): LimitWarning[] {
  if (agents.length === 0) return includeLocal ? browserLimitWarnings(transport, endpointUrl, connections) : [];
  if (agents.some((agent) => agent.kind === 'node')) return [];
  const browserCapacity = browserConnectionCapacity(transport, endpointUrl);
  const capacity = browserCapacity * (agents.length + (includeLocal ? 1 : 0));
  if (connections <= capacity) return [];
  return [{ severity: 'error', message: capacityRefusal(transport, connections, capacity, browserCapacity) }];
}

/** Why browsers and agents together cannot hold a run: the sentence the form and the fleet both give. */
export function capacityRefusal(transport: TransportName, connections: number, capacity: number, browserCapacity: number): string {
  return W.capacityRefusal({ capacity, transport, browserCapacity, connections });
}
