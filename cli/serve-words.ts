/**
 * The words of `live-bench serve` (serve.ts): its help, what it prints when the page is up, and
 * every refusal of its options or of the address it cannot listen on, each saying what to pass
 * instead. Lines are printed with the "live-bench: " prefix where serve.ts prints them. Pure.
 */

export const SERVE_WORDS = {
  usage: (p: { defaultPort: number; defaultHost: string }) => `Usage: live-bench serve [--port <n>] [--host <address>]

Serves the dashboard from Node alone, cross-origin isolated as the hub-sample serves it
(Cross-Origin-Opener-Policy: same-origin, Cross-Origin-Embedder-Policy: credentialless), and
prints its address. Type any hub's URL into the page; a hub on another origin must allow the
page's origin in its CORS settings (the hub-sample allows http://localhost:${p.defaultPort} and
http://127.0.0.1:${p.defaultPort} by default).

  --port <n>          TCP port, 0 to 65535; 0 picks a free one (default ${p.defaultPort})
  --host <address>    IP address to listen on (default ${p.defaultHost}: this machine only;
                      0.0.0.0 for every interface)
  --help              this text

Ctrl+C stops it. Exit codes: 0 stopped, 2 bad input (nothing served).`,
  /** Printed once the page is served: where to open it. */
  serving: (p: { url: string; everyInterface: boolean }) => `live-bench: the dashboard is at ${p.url}${p.everyInterface ? ' (and at this machine\'s other addresses on the same port)' : ''}, cross-origin isolated. Open it, type your hub's URL and start a run. Ctrl+C stops it.`,
  stopped: () => 'live-bench: the dashboard is no longer served.',
  unknownOption: (p: { option: string }) => `${p.option} is not an option of live-bench serve: it takes --port <n> and --host <address> (--help says more).`,
  noValue: (p: { option: string; example: string }) => `${p.option} needs a value after it, such as ${p.option} ${p.example}.`,
  badPort: (p: { given: string }) => `--port is '${p.given}', but must be a whole number from 0 to 65535 (0 picks a free port): pass --port 5173, say.`,
  badHost: (p: { given: string }) => `--host is '${p.given}', but must be an IP address of this machine: pass --host 127.0.0.1 (this machine only) or 0.0.0.0 (every interface).`,
  portInUse: (p: { port: number; host: string }) => `--port ${p.port} is already in use on ${p.host}: stop the program using it, or pass another --port (0 picks a free one).`,
  portForbidden: (p: { port: number }) => `--port ${p.port} needs privileges this process does not have: pass a port from 1024 up (0 picks a free one).`,
  hostAbsent: (p: { host: string }) => `--host ${p.host} is not an address of this machine: pass --host 127.0.0.1, 0.0.0.0 or one of its addresses.`,
  cannotListen: (p: { port: number; host: string; why: string }) => `the dashboard cannot be served on ${p.host} port ${p.port} (${p.why}): pass another --port or --host.`,
  /** The package or the checkout has no built dashboard next to the runner. */
  notBuilt: (p: { dir: string }) => `the dashboard is not built: no index.html in ${p.dir}. In the project's folder, run \`npm run build\`; an installed package carries it already (reinstall it).`,
  nothingServed: () => 'live-bench: nothing was served.',
  /** Answers of the server itself, to a browser. */
  notFound: (p: { path: string }) => `Not found: ${p.path}. This server serves the dashboard only; open / for the page.`,
  methodNotAllowed: () => 'Only GET and HEAD are answered here: this server serves the dashboard only.',
};
