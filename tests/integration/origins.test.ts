/**
 * Pages of other sites must not reach the hubs. CORS covers negotiate only: a WebSocket opened
 * with skipNegotiation never asks, so the hub checks `Origin` itself on every request. These
 * tests open raw WebSockets (`ws`, which sends any Origin it is given, as a browser on another
 * site would) against the real hub-sample. A page on an attacker's name that resolves to this
 * machine (DNS rebinding) sends its own name as `Host` and `Origin`: the hub answers only to the
 * names in --AllowedHosts, so raw requests carrying such a pair are refused everywhere.
 */
import http from 'node:http';
import net from 'node:net';
import { describe, expect, inject, it } from 'vitest';
import WebSocket from 'ws';

const EVIL = 'http://evil.example';

interface Upgrade {
  status: number;
  body: string;
}

/** Opens a WebSocket to `path` (no negotiate, as skipNegotiation does) and reports how the hub answered. */
function openWebSocket(path: string, origin: string | undefined): Promise<Upgrade> {
  const url = `${inject('hubHttpUrl').replace(/^http/, 'ws')}${path}`;
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, origin === undefined ? {} : { origin });
    socket.on('open', () => {
      socket.close();
      resolve({ status: 101, body: '' });
    });
    socket.on('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    socket.on('error', reject);
  });
}

/** One plain HTTP request to the hub with the given Origin, as negotiate, SSE and long polling make. */
function request(method: string, path: string, origin: string, headers: Record<string, string> = {}): Promise<Upgrade> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${inject('hubHttpUrl')}${path}`, { method, headers: { ...headers, Origin: origin } }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('Origin on the hubs', () => {
  for (const hub of ['/signalrbench', '/control']) {
    it(`${hub}: a WebSocket from ${EVIL} gets 403 with the reason`, async () => {
      const answer = await openWebSocket(hub, EVIL);
      expect(answer.status).toBe(403);
      expect(answer.body).toBe(`Origin '${EVIL}' may not use this hub: it is not the hub's own origin and not in its --CorsOrigins.\n`);
    });

    it(`${hub}: a WebSocket with no Origin (a non-browser client) or the hub's own origin is accepted`, async () => {
      expect((await openWebSocket(hub, undefined)).status).toBe(101);
      expect((await openWebSocket(hub, inject('hubHttpUrl'))).status).toBe(101);
    });
  }

  it('a listed --CorsOrigins origin (the Vite dev server by default) is accepted', async () => {
    expect((await openWebSocket('/signalrbench', 'http://localhost:5173')).status).toBe(101);
  });

  it('negotiate, Server-Sent Events and long polling from a foreign origin get 403 too', async () => {
    const own = await request('POST', '/signalrbench/negotiate?negotiateVersion=1', inject('hubHttpUrl'));
    expect(own.status).toBe(200);
    const { connectionToken } = JSON.parse(own.body) as { connectionToken: string };
    expect((await request('POST', '/signalrbench/negotiate?negotiateVersion=1', EVIL)).status).toBe(403);
    expect((await request('POST', '/control/negotiate?negotiateVersion=1', EVIL)).status).toBe(403);
    // With a real connection token, so only the Origin stands between the request and the transport.
    expect((await request('GET', `/signalrbench?id=${connectionToken}`, EVIL, { Accept: 'text/event-stream' })).status).toBe(403);
    expect((await request('GET', `/signalrbench?id=${connectionToken}`, EVIL)).status).toBe(403);
  });
});

/** Sends `head` (request line and headers) over a plain socket, as a rebinding page's browser
 *  would, and returns the status code and body of the answer. */
function rawRequest(head: string[]): Promise<Upgrade> {
  const { hostname, port } = new URL(inject('hubHttpUrl'));
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(`${head.join('\r\n')}\r\nConnection: close\r\n\r\n`));
    let answer = '';
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString();
      // An accepted upgrade keeps the socket open: its status line is the answer.
      if (answer.startsWith('HTTP/1.1 101')) socket.destroy();
    });
    socket.on('close', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);
      resolve({ status, body: answer.slice(answer.indexOf('\r\n\r\n') + 4) });
    });
    socket.on('error', reject);
  });
}

describe('DNS rebinding: a foreign Host with its own Origin', () => {
  const port = new URL(inject('hubHttpUrl')).port;
  const foreignHost = `Host: evil.example:${port}`;
  const foreign = [foreignHost, `Origin: http://evil.example:${port}`];
  const upgrade = ['Upgrade: websocket', 'Connection: Upgrade', 'Sec-WebSocket-Version: 13', 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ=='];

  it('negotiate on both hubs gets 400 "Invalid Hostname", no connection id', async () => {
    for (const hub of ['/signalrbench', '/control']) {
      const answer = await rawRequest([`POST ${hub}/negotiate?negotiateVersion=1 HTTP/1.1`, ...foreign, 'Content-Length: 0']);
      expect(answer.status, hub).toBe(400);
      expect(answer.body).toContain('Invalid Hostname');
      expect(answer.body).not.toContain('connectionId');
    }
  });

  it('a WebSocket upgrade on both hubs (skipNegotiation) gets 400, never 101', async () => {
    for (const hub of ['/signalrbench', '/control']) {
      expect((await rawRequest([`GET ${hub} HTTP/1.1`, ...foreign, ...upgrade])).status, hub).toBe(400);
    }
  });

  it('/metrics gets 400, with or without an Origin', async () => {
    expect((await rawRequest(['GET /metrics HTTP/1.1', ...foreign])).status).toBe(400);
    expect((await rawRequest(['GET /metrics HTTP/1.1', foreignHost])).status).toBe(400);
  });

  it('the same requests on a name the hub answers to pass: localhost, its own page', async () => {
    const own = [`Host: localhost:${port}`, `Origin: http://localhost:${port}`];
    const negotiate = await rawRequest([`POST /signalrbench/negotiate?negotiateVersion=1 HTTP/1.1`, ...own, 'Content-Length: 0']);
    expect(negotiate.status).toBe(200);
    expect(negotiate.body).toContain('connectionId');
    expect((await rawRequest(['GET /control HTTP/1.1', ...own, ...upgrade])).status).toBe(101);
    expect((await rawRequest(['GET /metrics HTTP/1.1', ...own])).status).toBe(200);
  });
});
