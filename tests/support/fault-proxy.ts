/**
 * A programmable fault proxy on loopback, in front of one hub: what a gateway, an auth layer or
 * an overloaded front end answers, reproduced without netem or toxiproxy (neither exists here).
 *
 * ```ts
 * const hub = await startHub();
 * const proxy = await startFaultProxy(hub.httpUrl, { upgrade: { status: 503, every: 2 } });
 * // point the runner at `${proxy.url}/signalrbench`: every 2nd WebSocket upgrade gets 503
 * proxy.setMode({});            // from now on: a plain pass-through
 * proxy.counts();               // what it saw and what it refused so far
 * await proxy.stop();           // closes the listener and every piped socket
 * ```
 *
 * By default everything passes through: HTTP requests (negotiate, Server-Sent Events streams,
 * long polls and their POSTs) are forwarded and streamed back unbuffered, and WebSocket
 * upgrades are piped byte for byte to a socket of their own to the hub. The mode decides, per
 * request, what is answered by the proxy itself instead, with a status and a short plain-text
 * body and `Connection: close`, as a gateway does:
 * - `requireToken`: a request carrying neither the header nor the query parameter with the token
 *   is refused (checked first, on every request and upgrade);
 * - `negotiate`: the matching share of `POST …/negotiate` requests;
 * - `upgrade`: the matching share of WebSocket upgrade requests (`Upgrade: websocket`).
 * `every: n` answers the n-th, 2n-th, … request of its kind counted since the mode was set
 * (1, the default, answers all of them). The `Host` header is passed on unchanged (a proxy that
 * keeps `Host`): 127.0.0.1 with any port is among the hub-sample's default `--AllowedHosts`.
 */
import http from 'node:http';
import net from 'node:net';
import { endTogether, listenOnFreePort } from './local-server.ts';

/** One kind of request answered by the proxy instead of the hub. */
export interface FaultAnswer {
  /** The HTTP status answered, e.g. 401, 403, 431, 502, 503. */
  status: number;
  /** Plain-text body; default: the status's reason phrase ("Service Unavailable"). */
  body?: string;
  /** Answer every n-th request of this kind (counted from when the mode was set); default 1 (all). */
  every?: number;
}

/** A token every request must carry, in a header or in the query; refused otherwise. */
export interface RequiredToken {
  /** The token. A header matches when it equals the token or `Bearer <token>`. */
  value: string;
  /** Header name read (case-insensitive); default `authorization`. */
  header?: string;
  /** Query parameter read; default `access_token` (what browsers use for WebSockets and SSE). */
  query?: string;
  /** Status and body of the refusal; default 401 "Unauthorized". */
  status?: number;
  body?: string;
}

/** What the proxy does now. `{}` passes everything through. */
export interface FaultProxyMode {
  upgrade?: FaultAnswer;
  negotiate?: FaultAnswer;
  requireToken?: RequiredToken;
}

/** What went through the proxy since it started (not reset by setMode). */
export interface FaultProxyCounts {
  /** HTTP requests other than upgrades, negotiates included. */
  requests: number;
  negotiates: number;
  upgrades: number;
  /** Answered by the proxy itself, by kind. */
  refusedNegotiates: number;
  refusedUpgrades: number;
  refusedTokens: number;
  /** Statuses the proxy answered itself, e.g. { 503: 100 }. */
  byStatus: Record<number, number>;
}

export interface FaultProxy {
  /** The proxy's port on 127.0.0.1 (a free one, picked at start). */
  port: number;
  /** http://127.0.0.1:PORT: put the hub's path after it (`${proxy.url}/signalrbench`). */
  url: string;
  /** Switches the mode; takes effect for the next request, and restarts the `every` counters. */
  setMode(mode: FaultProxyMode): void;
  counts(): FaultProxyCounts;
  /** Stops listening and destroys every open socket (clients' and the hub's). */
  stop(): Promise<void>;
}

/** Starts a proxy in front of `target` (the hub's base URL, e.g. `hub.httpUrl`), in `mode` (default: pass-through). */
export async function startFaultProxy(target: string, mode: FaultProxyMode = {}): Promise<FaultProxy> {
  const hub = new URL(target);
  const hubPort = Number(hub.port || 80);
  const sockets = new Set<net.Socket>();
  const counts: FaultProxyCounts = { requests: 0, negotiates: 0, upgrades: 0, refusedNegotiates: 0, refusedUpgrades: 0, refusedTokens: 0, byStatus: {} };
  let current = mode;
  let seen = { negotiate: 0, upgrade: 0 };
  // Its own agent, so stop() can destroy the pooled connections to the hub.
  const agent = new http.Agent({ keepAlive: true });

  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };
  /** The answer the proxy gives itself, or null to pass the request on. */
  const faultFor = (req: http.IncomingMessage, kind: 'negotiate' | 'upgrade' | null): { status: number; body: string } | null => {
    const token = current.requireToken;
    if (token && !carriesToken(req, token)) {
      counts.refusedTokens += 1;
      return answer(token.status ?? 401, token.body);
    }
    const rule = kind ? current[kind] : undefined;
    if (!kind || !rule) return null;
    seen[kind] += 1;
    if (seen[kind] % Math.max(1, rule.every ?? 1) !== 0) return null;
    counts[kind === 'upgrade' ? 'refusedUpgrades' : 'refusedNegotiates'] += 1;
    return answer(rule.status, rule.body);
  };
  const answer = (status: number, body?: string) => {
    counts.byStatus[status] = (counts.byStatus[status] ?? 0) + 1;
    return { status, body: body ?? http.STATUS_CODES[status] ?? 'Refused' };
  };

  const server = http.createServer((req, res) => {
    counts.requests += 1;
    const negotiate = req.method === 'POST' && /\/negotiate$/.test(new URL(req.url ?? '/', 'http://x').pathname);
    if (negotiate) counts.negotiates += 1;
    const fault = faultFor(req, negotiate ? 'negotiate' : null);
    if (fault) {
      res.writeHead(fault.status, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(fault.body), Connection: 'close' });
      res.end(fault.body);
      return;
    }
    const upstream = http.request({ host: hub.hostname, port: hubPort, method: req.method, path: req.url, headers: req.headers, agent }, (answerFromHub) => {
      res.writeHead(answerFromHub.statusCode ?? 502, answerFromHub.rawHeaders);
      // Flushed as it comes: Server-Sent Events and long polls must not wait in a buffer.
      res.flushHeaders();
      answerFromHub.pipe(res);
    });
    upstream.on('error', (error) => {
      if (res.headersSent) res.destroy();
      else res.writeHead(502, { 'Content-Type': 'text/plain' }).end(`fault proxy: the hub did not answer (${error.message})`);
    });
    // The client gave up (a long poll cancelled, an EventSource closed): so does the hub's side.
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  });
  server.on('connection', track);
  server.on('upgrade', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    counts.upgrades += 1;
    const fault = faultFor(req, 'upgrade');
    if (fault) {
      client.end(`HTTP/1.1 ${fault.status} ${http.STATUS_CODES[fault.status] ?? 'Refused'}\r\nContent-Type: text/plain; charset=utf-8\r\n`
        + `Content-Length: ${Buffer.byteLength(fault.body)}\r\nConnection: close\r\n\r\n${fault.body}`);
      return;
    }
    const toHub = net.connect(hubPort, hub.hostname);
    track(toHub);
    toHub.once('connect', () => {
      toHub.write(requestHead(req));
      if (head.length > 0) toHub.write(head);
      toHub.pipe(client);
      client.pipe(toHub);
    });
    endTogether(toHub, client);
  });

  const port = await listenOnFreePort(server);
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    setMode(mode) {
      current = mode;
      seen = { negotiate: 0, upgrade: 0 };
    },
    counts: () => ({ ...counts, byStatus: { ...counts.byStatus } }),
    async stop() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      agent.destroy();
      await closed;
    },
  };
}

/** The upgrade request as it came, to write to the hub's socket (raw headers keep case and order). */
function requestHead(req: http.IncomingMessage): string {
  const lines = [`${req.method} ${req.url} HTTP/${req.httpVersion}`];
  for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
  return `${lines.join('\r\n')}\r\n\r\n`;
}

function carriesToken(req: http.IncomingMessage, token: RequiredToken): boolean {
  const header = req.headers[(token.header ?? 'authorization').toLowerCase()];
  const values = Array.isArray(header) ? header : header === undefined ? [] : [header];
  if (values.some((v) => v === token.value || v === `Bearer ${token.value}`)) return true;
  return new URL(req.url ?? '/', 'http://x').searchParams.get(token.query ?? 'access_token') === token.value;
}
