/**
 * The REST scenarios' HTTP POSTs in the runner's engines (workers/engine/rest-sends.ts RestPost):
 * Node's own http and https clients on keep-alive agents, rather than fetch. Measured here
 * against the hub-sample's REST API, 1,000 posts a second: fetch (undici and its web streams)
 * cost 420-760 µs of CPU per post and could not keep up, node:http 130-170 µs and kept up.
 */
import http from 'node:http';
import https from 'node:https';
import type { RestPost } from '../workers/engine/rest-sends.ts';

/** Sockets kept per origin: enough for every sender's call in flight at the rates one engine holds. */
const MAX_SOCKETS = 256;
const AGENTS = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: MAX_SOCKETS }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: MAX_SOCKETS }),
};
/** Characters of an answer kept: enough for a service's one-line reason. */
const ANSWER_CHARS = 300;

export const nodeRestPost: RestPost = (url, request) => new Promise((resolve, reject) => {
  const target = new URL(url);
  const client = target.protocol === 'https:' ? https : http;
  const call = client.request(target, {
    method: 'POST',
    agent: target.protocol === 'https:' ? AGENTS['https:'] : AGENTS['http:'],
    headers: { ...request.headers, 'content-length': request.body.byteLength },
    timeout: request.timeoutMs,
  }, (response) => {
    let text = '';
    response.setEncoding('utf8');
    // Read to the end either way: the socket then goes back to the agent for the next call.
    response.on('data', (chunk: string) => {
      if (text.length < ANSWER_CHARS) text += chunk;
    });
    response.on('end', () => resolve({ status: response.statusCode ?? 0, text: text.slice(0, ANSWER_CHARS) }));
    response.on('error', reject);
  });
  call.on('timeout', () => call.destroy(Object.assign(new Error(`no answer within ${request.timeoutMs / 1_000} s`), { name: 'TimeoutError' })));
  call.on('error', reject);
  call.end(request.body);
});
