/**
 * `live-bench serve`: the built dashboard from Node alone (node:http), for people who have the
 * package and no .NET: the page then benchmarks any hub they type into it. Served as the
 * hub-sample serves it (hub-sample/Dashboard.cs): cross-origin isolated, which gives the page
 * and its workers 5 us performance.now() instead of 0.1 ms.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { isIP, type AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXIT, type Output } from './output.ts';
import { SERVE_WORDS } from './serve-words.ts';

/** The Vite dev server's port, which the hub-sample's default CORS origins already allow: a page
 *  served here reaches a hub-sample started with its defaults without a setting. */
export const SERVE_DEFAULT_PORT = 5173;
export const SERVE_DEFAULT_HOST = '127.0.0.1';

/** The headers that make the page cross-origin isolated, on every answer (the page, its worker
 *  and module scripts). "credentialless", not "require-corp": see hub-sample/Dashboard.cs. */
export const ISOLATION_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'credentialless',
} as const;

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
};

export interface ServeOptions {
  port: number;
  host: string;
}

export type ServeArgs = { ok: true; options: ServeOptions } | { ok: 'help' } | { ok: false; errors: string[] };

/** `--port N`, `--port=N`, `--host H`, `--host=H`, `--help`; every problem at once. Pure. */
export function parseServeArgs(argv: readonly string[]): ServeArgs {
  const options: ServeOptions = { port: SERVE_DEFAULT_PORT, host: SERVE_DEFAULT_HOST };
  const errors: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') return { ok: 'help' };
    const [name, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    if (name !== '--port' && name !== '--host') {
      errors.push(SERVE_WORDS.unknownOption({ option: printable(arg) }));
      continue;
    }
    const value = inline ?? (argv[i + 1] !== undefined && !argv[i + 1]!.startsWith('--') ? argv[++i] : undefined);
    if (value === undefined) {
      errors.push(SERVE_WORDS.noValue({ option: name, example: name === '--port' ? String(SERVE_DEFAULT_PORT) : SERVE_DEFAULT_HOST }));
    } else if (name === '--port') {
      const port = /^\d{1,5}$/.test(value) ? Number(value) : NaN;
      if (Number.isInteger(port) && port <= 65_535) options.port = port;
      else errors.push(SERVE_WORDS.badPort({ given: printable(value) }));
    } else {
      const host = value.startsWith('[') && value.endsWith(']') ? value.slice(1, -1) : value;
      if (isIP(host) !== 0) options.host = host;
      else errors.push(SERVE_WORDS.badHost({ given: printable(value) }));
    }
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, options };
}

/** A value shown back in a refusal: short, without control characters. */
function printable(text: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = text.replace(/[\u0000-\u001f\u007f]/g, '?');
  return clean.length > 60 ? `${clean.slice(0, 60)}…` : clean;
}

/** The built dashboard beside the runner: dist/ of the package (or the checkout) that holds this
 *  module, found upwards from it, since the bundler decides which file of dist-cli/ this code is in. */
export function dashboardDir(from: string = path.dirname(fileURLToPath(import.meta.url))): string | null {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'dist');
    if (existsSync(path.join(candidate, 'index.html')) && existsSync(path.join(dir, 'package.json'))) return candidate;
    if (path.dirname(dir) === dir) return null;
  }
}

/** The URL to print: a wildcard address is reached through this machine's loopback. */
export function servedUrl(host: string, port: number): string {
  const shown = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${isIP(shown) === 6 ? `[${shown}]` : shown}:${port}/`;
}

/** The file a request path names inside `root`, or null when it names none (or leaves root). */
export function fileOf(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath.split('?')[0]!.split('#')[0]!);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const relative = decoded.endsWith('/') ? `${decoded}index.html` : decoded;
  const file = path.resolve(root, `.${path.posix.normalize(`/${relative}`)}`);
  return file === root || file.startsWith(root + path.sep) ? file : null;
}

/** What the server answers to one request: the page's files with their types and the isolation headers. */
async function answer(root: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
  for (const [name, value] of Object.entries(ISOLATION_HEADERS)) response.setHeader(name, value);
  response.setHeader('X-Content-Type-Options', 'nosniff');
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.writeHead(405, { 'Content-Type': 'text/plain; charset=utf-8', Allow: 'GET, HEAD' }).end(SERVE_WORDS.methodNotAllowed());
    return;
  }
  const urlPath = request.url ?? '/';
  const file = fileOf(root, urlPath);
  const body = file ? await readFile(file).catch(() => null) : null;
  if (!file || !body) {
    response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end(SERVE_WORDS.notFound({ path: printable(urlPath) }));
    return;
  }
  // Files under assets/ carry their content's hash in their names; the page itself must be asked for again.
  const hashed = path.relative(root, file).split(path.sep)[0] === 'assets';
  response.writeHead(200, {
    'Content-Type': CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
    'Content-Length': body.length,
    'Cache-Control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
  });
  response.end(request.method === 'HEAD' ? undefined : body);
}

/** Why the server could not listen, worded with what to pass instead. */
function listenRefusal(error: NodeJS.ErrnoException, options: ServeOptions): string {
  if (error.code === 'EADDRINUSE') return SERVE_WORDS.portInUse(options);
  if (error.code === 'EACCES') return SERVE_WORDS.portForbidden(options);
  if (error.code === 'EADDRNOTAVAIL') return SERVE_WORDS.hostAbsent(options);
  return SERVE_WORDS.cannotListen({ ...options, why: error.code ?? error.message });
}

/**
 * `live-bench serve [--port N] [--host H]`: serves until SIGINT or SIGTERM (or `stop`, for a
 * caller in the same process), then returns 0; bad options or an address it cannot listen on
 * return 2 at once, with what to pass instead.
 */
export async function serveDashboard(argv: readonly string[], io: Output, stop?: AbortSignal, root: string | null = dashboardDir()): Promise<number> {
  const parsed = parseServeArgs(argv);
  if (parsed.ok === 'help') {
    io.out(SERVE_WORDS.usage({ defaultPort: SERVE_DEFAULT_PORT, defaultHost: SERVE_DEFAULT_HOST }));
    return EXIT.passed;
  }
  const errors = !parsed.ok ? parsed.errors : root === null ? [SERVE_WORDS.notBuilt({ dir: path.resolve('dist') })] : [];
  if (!parsed.ok || root === null) {
    for (const error of errors) io.err(`live-bench: ${error}`);
    io.err(SERVE_WORDS.nothingServed());
    return EXIT.badInput;
  }
  const { options } = parsed;
  const server = createServer((request, response) => {
    answer(root, request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
  const listening = await new Promise<NodeJS.ErrnoException | null>((resolve) => {
    server.once('error', resolve);
    server.listen(options.port, options.host, () => resolve(null));
  });
  if (listening) {
    io.err(`live-bench: ${listenRefusal(listening, options)}`);
    io.err(SERVE_WORDS.nothingServed());
    return EXIT.badInput;
  }
  const { port } = server.address() as AddressInfo;
  io.out(SERVE_WORDS.serving({ url: servedUrl(options.host, port), everyInterface: options.host === '0.0.0.0' || options.host === '::' }));
  let end = () => {};
  await new Promise<void>((resolve) => {
    end = () => resolve();
    process.once('SIGINT', end);
    process.once('SIGTERM', end);
    stop?.addEventListener('abort', end, { once: true });
  });
  process.off('SIGINT', end);
  process.off('SIGTERM', end);
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  io.err(SERVE_WORDS.stopped());
  return EXIT.passed;
}
