/**
 * Pages of other sites must not reach the hubs. CORS covers negotiate only: a WebSocket opened
 * with skipNegotiation never asks, so the hub checks `Origin` itself on every request. These
 * tests open raw WebSockets (`ws`, which sends any Origin it is given, as a browser on another
 * site would) against the real hub-sample.
 */
import http from 'node:http';
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
