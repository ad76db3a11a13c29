// A tiny HTTP server the benchmark pages POST their reports to. The hub serves the dashboard
// cross-origin isolated, from another port: the collector answers with CORS headers.
import http from 'node:http';

export async function startCollector(port) {
  const waiting = new Map();
  const server = http.createServer((req, res) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Allow-Headers', 'content-type');
    // An isolated page (COEP require-corp) may read only resources that allow it.
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    if (req.method === 'OPTIONS') return res.end();
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
  return {
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
      return { url: `http://127.0.0.1:${port}/report?id=${id}`, report };
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
