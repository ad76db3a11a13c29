/**
 * A loopback proxy in front of one hub that counts the payload bytes SignalR's transports carry
 * for one hub path, each way, parsed from the bytes that cross it: the reference the tool's own
 * byte figures are checked against (tests/integration/wire-bytes.test.ts).
 *
 * ```ts
 * const proxy = await startWireCountProxy(hub.httpUrl, '/signalrbench');
 * // point the runner at `${proxy.url}/signalrbench`
 * proxy.counts();     // { sent, received, ... } so far
 * await proxy.stop();
 * ```
 *
 * What is counted, as each transport frames it:
 * - WebSockets: the payload of every data frame (text, binary, continuation), parsed from the raw
 *   TCP stream after the upgrade; frame headers and masks, and control frames (ping, pong,
 *   close), are not payload.
 * - Long polling: sent, the bodies of the POSTs to the hub path; received, the bodies of the
 *   polls' (GET) answers.
 * - Server-Sent Events: sent, the POST bodies; received, each event's data as the event stream
 *   defines it (the `data:` lines' values, joined by a line feed), not the `data: ` prefix and line
 *   ends around it.
 * HTTP bodies are read de-chunked (Node's parser), so chunk sizes are framing too. Counted apart:
 * negotiate's request and answer, the answers to POSTs and DELETEs (empty, or a status's words
 * such as a late close's "No Connection with that ID": the client never reads them as data), and
 * any other request (none expected).
 */
import http from 'node:http';
import net from 'node:net';
import { endTogether, listenOnFreePort } from './local-server.ts';

export interface WireCounts {
  /** Client → hub payload bytes (WebSocket data frames, POST bodies). */
  sent: number;
  /** Hub → client payload bytes (WebSocket data frames, long polls' answers, SSE events' data). */
  received: number;
  /** WebSocket messages each way (a message's continuation frames are in its payload, not counted again). */
  webSocketMessages: { sent: number; received: number };
  /** Server-Sent Events with data. */
  events: number;
  /** Negotiate's request and answer bodies: before the transport. */
  negotiateBytes: number;
  /** Bodies of the answers to POSTs and DELETEs on the hub path: no transport data. */
  answerBodies: number;
  /** Bodies of requests outside the hub path and negotiate, and of their answers: none expected. */
  otherBodies: number;
  /** Whether a WebSocket was granted permessage-deflate: its payloads would be compressed. */
  compressed: boolean;
}

export interface WireCountProxy {
  /** http://127.0.0.1:PORT: put the hub path after it. */
  url: string;
  counts(): WireCounts;
  /** Stops listening and destroys every open socket. */
  stop(): Promise<void>;
}

export async function startWireCountProxy(target: string, hubPath: string): Promise<WireCountProxy> {
  const hub = new URL(target);
  const hubPort = Number(hub.port || 80);
  const counts: WireCounts = { sent: 0, received: 0, webSocketMessages: { sent: 0, received: 0 }, events: 0, negotiateBytes: 0, answerBodies: 0, otherBodies: 0, compressed: false };
  const sockets = new Set<net.Socket>();
  const agent = new http.Agent({ keepAlive: true });
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };
  const onHubPath = (url: string | undefined) => new URL(url ?? '/', 'http://x').pathname === hubPath;
  const isNegotiate = (url: string | undefined) => new URL(url ?? '/', 'http://x').pathname === `${hubPath}/negotiate`;

  const server = http.createServer((req, res) => {
    const negotiate = isNegotiate(req.url);
    const transportRequest = onHubPath(req.url);
    req.on('data', (chunk: Buffer) => {
      if (negotiate) counts.negotiateBytes += chunk.length;
      else if (transportRequest && req.method === 'POST') counts.sent += chunk.length;
      else counts.otherBodies += chunk.length;
    });
    const upstream = http.request({ host: hub.hostname, port: hubPort, method: req.method, path: req.url, headers: req.headers, agent }, (answer) => {
      const events = transportRequest && req.method === 'GET' && /text\/event-stream/.test(answer.headers['content-type'] ?? '') ? new EventDataCounter() : null;
      answer.on('data', (chunk: Buffer) => {
        if (negotiate) counts.negotiateBytes += chunk.length;
        else if (events) events.push(chunk, counts);
        else if (transportRequest && req.method === 'GET') counts.received += chunk.length;
        else if (transportRequest) counts.answerBodies += chunk.length;
        else counts.otherBodies += chunk.length;
      });
      res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
      // Flushed as it comes: Server-Sent Events and long polls must not wait in a buffer.
      res.flushHeaders();
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  });
  server.on('connection', track);
  server.on('upgrade', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    const toHub = net.connect(hubPort, hub.hostname);
    track(toHub);
    const fromClient = new FrameCounter();
    const fromHub = new FrameCounter();
    let answerHead: Buffer | null = Buffer.alloc(0);
    toHub.once('connect', () => {
      toHub.write(requestHead(req));
      if (head.length > 0) {
        counts.sent += fromClient.push(head, counts.webSocketMessages, 'sent');
        toHub.write(head);
      }
      client.on('data', (chunk: Buffer) => {
        counts.sent += fromClient.push(chunk, counts.webSocketMessages, 'sent');
        toHub.write(chunk);
      });
      toHub.on('data', (chunk: Buffer) => {
        client.write(chunk);
        // The hub's 101 answer comes first: frames only after its blank line.
        if (answerHead) {
          answerHead = Buffer.concat([answerHead, chunk]);
          const end = answerHead.indexOf('\r\n\r\n');
          if (end < 0) return;
          if (/sec-websocket-extensions:[^\r]*permessage-deflate/i.test(answerHead.subarray(0, end).toString('latin1'))) counts.compressed = true;
          chunk = answerHead.subarray(end + 4);
          answerHead = null;
        }
        counts.received += fromHub.push(chunk, counts.webSocketMessages, 'received');
      });
    });
    endTogether(toHub, client);
  });

  const port = await listenOnFreePort(server);
  return {
    url: `http://127.0.0.1:${port}`,
    counts: () => ({ ...counts, webSocketMessages: { ...counts.webSocketMessages } }),
    async stop() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      agent.destroy();
      await closed;
    },
  };
}

/**
 * Reads WebSocket frames (RFC 6455 §5.2) from one direction of a TCP stream, in whatever pieces
 * it arrives, and returns the data payload bytes in each piece.
 */
class FrameCounter {
  #pending: Buffer = Buffer.alloc(0);
  /** Payload bytes of the current frame still to come. */
  #remaining = 0;
  #isData = false;

  push(chunk: Buffer, messages: { sent: number; received: number }, direction: 'sent' | 'received'): number {
    const data = this.#pending.length > 0 ? Buffer.concat([this.#pending, chunk]) : chunk;
    this.#pending = Buffer.alloc(0);
    let payload = 0;
    let at = 0;
    while (at < data.length) {
      if (this.#remaining > 0) {
        const take = Math.min(this.#remaining, data.length - at);
        if (this.#isData) payload += take;
        this.#remaining -= take;
        at += take;
        continue;
      }
      if (data.length - at < 2) break;
      const opcode = data[at]! & 0x0f;
      const masked = (data[at + 1]! & 0x80) !== 0;
      let length = data[at + 1]! & 0x7f;
      let headerBytes = 2;
      if (length === 126) {
        if (data.length - at < 4) break;
        length = data.readUInt16BE(at + 2);
        headerBytes = 4;
      } else if (length === 127) {
        if (data.length - at < 10) break;
        length = Number(data.readBigUInt64BE(at + 2));
        headerBytes = 10;
      }
      if (masked) headerBytes += 4;
      if (data.length - at < headerBytes) break;
      at += headerBytes;
      // 0 continuation, 1 text, 2 binary; 8 and up are control frames.
      this.#isData = opcode < 8;
      if (opcode === 1 || opcode === 2) messages[direction]++;
      this.#remaining = length;
    }
    if (at < data.length) this.#pending = Buffer.from(data.subarray(at));
    return payload;
  }
}

/**
 * Reads an event stream (the HTML standard's text/event-stream) and counts each dispatched
 * event's data in UTF-8 bytes: the `data:` lines' values (one leading space removed) joined by
 * line feeds, what an EventSource hands its listener.
 */
class EventDataCounter {
  #line: Buffer = Buffer.alloc(0);
  #dataBytes = 0;
  #dataLines = 0;

  push(chunk: Buffer, counts: WireCounts): void {
    let data = this.#line.length > 0 ? Buffer.concat([this.#line, chunk]) : chunk;
    let newline: number;
    while ((newline = data.indexOf(0x0a)) >= 0) {
      const end = newline > 0 && data[newline - 1] === 0x0d ? newline - 1 : newline;
      this.#onLine(data.subarray(0, end), counts);
      data = data.subarray(newline + 1);
    }
    this.#line = Buffer.from(data);
  }

  #onLine(line: Buffer, counts: WireCounts): void {
    if (line.length === 0) {
      if (this.#dataLines > 0 && this.#dataBytes + this.#dataLines - 1 > 0) {
        counts.received += this.#dataBytes + this.#dataLines - 1;
        counts.events++;
      }
      this.#dataBytes = 0;
      this.#dataLines = 0;
      return;
    }
    if (line.subarray(0, 5).toString('latin1') !== 'data:') return;
    this.#dataBytes += line.length - 5 - (line[5] === 0x20 ? 1 : 0);
    this.#dataLines++;
  }
}

/** The upgrade request as it came (raw headers keep case and order). */
function requestHead(req: http.IncomingMessage): string {
  const lines = [`${req.method} ${req.url} HTTP/${req.httpVersion}`];
  for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
  return `${lines.join('\r\n')}\r\n\r\n`;
}
