// A tiny HTTP server the benchmark pages POST their reports to. The hub serves the dashboard
// cross-origin isolated, from another port: the collector answers with CORS headers.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The raw browser client's files, served under /raw/ (cross-origin isolated, like the dashboard),
 *  with the engine's schedule it imports (bench/tool/kit.ts, built into dist-bench/kit.js). */
const HERE = path.dirname(fileURLToPath(import.meta.url));
const RAW_FILES = {
  '/raw/index.html': { type: 'text/html', file: path.resolve(HERE, '../clients/browser-raw/index.html') },
  '/raw/worker.js': { type: 'text/javascript', file: path.resolve(HERE, '../clients/browser-raw/worker.js') },
  '/raw/worker-core.js': { type: 'text/javascript', file: path.resolve(HERE, '../clients/browser-raw/worker-core.js') },
  '/raw/library-worker.js': { type: 'text/javascript', file: path.resolve(HERE, '../clients/browser-raw/library-worker.js') },
  '/raw/kit.js': { type: 'text/javascript', file: path.resolve(HERE, '../../../dist-bench/kit.js') },
};
/** The plain-library browser client imports @microsoft/signalr's own ES modules, served as they are. */
const SIGNALR_ESM = path.resolve(HERE, '../../../node_modules/@microsoft/signalr/dist/esm');

export async function startCollector(port) {
  const waiting = new Map();
  const server = http.createServer((req, res) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Allow-Headers', 'content-type');
    // An isolated page (COEP require-corp) may read only resources that allow it.
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    if (req.method === 'OPTIONS') return res.end();
    const pathname = new URL(req.url, 'http://x').pathname;
    if (req.method === 'GET' && pathname in RAW_FILES) {
      res.setHeader('Content-Type', RAW_FILES[pathname].type);
      res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
      res.setHeader('Cross-Origin-Embedder-Policy', 'require-corp');
      return res.end(readFileSync(RAW_FILES[pathname].file));
    }
    // Its imports name no extension ("./HubConnection"): the module is the file with .js.
    const module = /^\/raw\/signalr\/([\w-]+)(?:\.js)?$/.exec(pathname)?.[1];
    if (req.method === 'GET' && module) {
      res.setHeader('Content-Type', 'text/javascript');
      try {
        return res.end(readFileSync(path.join(SIGNALR_ESM, `${module}.js`)));
      } catch {
        res.statusCode = 404;
        return res.end();
      }
    }
    const id = new URL(req.url, 'http://x').searchParams.get('id');
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      res.end('ok');
      const entry = waiting.get(id);
      if (!entry) return;
      waiting.delete(id);
      try {
        entry.resolve(JSON.parse(body));
      } catch (error) {
        entry.reject(new Error(`Report ${id} is not JSON: ${error.message}`));
      }
    });
  });
  await new Promise((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
  let next = 0;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    /** A fresh report URL and the promise of what gets POSTed to it (rejected after `timeoutMs`). */
    expect(timeoutMs) {
      const id = String(++next);
      const report = new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(id);
          reject(new Error(`No report arrived within ${Math.round(timeoutMs / 1_000)} s: the page did not finish its run or could not reach the collector.`));
        }, timeoutMs);
        waiting.set(id, { resolve: (v) => (clearTimeout(timer), resolve(v)), reject: (e) => (clearTimeout(timer), reject(e)) });
      });
      return { url: `${origin}/report?id=${id}`, report };
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
