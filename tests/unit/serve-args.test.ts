// `live-bench serve`'s options and the files it answers with (cli/serve.ts): pure parts only; the
// served page itself is checked in Chromium (tests/browser/serve.test.ts).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { USAGE } from '../../cli/args.ts';
import { fileOf, parseServeArgs, servedUrl, SERVE_DEFAULT_HOST, SERVE_DEFAULT_PORT } from '../../cli/serve.ts';

describe('live-bench serve options', () => {
  it('defaults to the port the hub-sample allows by default, on this machine only', () => {
    expect(parseServeArgs([])).toEqual({ ok: true, options: { port: SERVE_DEFAULT_PORT, host: SERVE_DEFAULT_HOST } });
    expect(SERVE_DEFAULT_PORT).toBe(5173);
    expect(SERVE_DEFAULT_HOST).toBe('127.0.0.1');
  });

  it('takes --port and --host with a space or an equals sign', () => {
    expect(parseServeArgs(['--port', '0', '--host', '0.0.0.0'])).toEqual({ ok: true, options: { port: 0, host: '0.0.0.0' } });
    expect(parseServeArgs(['--port=8080', '--host=[::1]'])).toEqual({ ok: true, options: { port: 8080, host: '::1' } });
  });

  it('refuses every bad option at once, each with what to pass', () => {
    const parsed = parseServeArgs(['--port', '70000', '--host', 'example.com', '--open']);
    expect(parsed.ok).toBe(false);
    const errors = parsed.ok === false ? parsed.errors : [];
    expect(errors).toEqual([
      "--port is '70000', but must be a whole number from 0 to 65535 (0 picks a free port): pass --port 5173, say.",
      "--host is 'example.com', but must be an IP address of this machine: pass --host 127.0.0.1 (this machine only) or 0.0.0.0 (every interface).",
      '--open is not an option of live-bench serve: it takes --port <n> and --host <address> (--help says more).',
    ]);
  });

  it('says a missing value, and does not take the next option for one', () => {
    const parsed = parseServeArgs(['--port', '--host', '127.0.0.1']);
    expect(parsed).toEqual({ ok: false, errors: ['--port needs a value after it, such as --port 5173.'] });
    expect(parseServeArgs(['--port', '-1']).ok).toBe(false);
    expect(parseServeArgs(['--port', '5e3']).ok).toBe(false);
  });

  it('answers --help before anything else', () => {
    expect(parseServeArgs(['--port', 'x', '--help'])).toEqual({ ok: 'help' });
  });

  it("is named in the runner's --help, with --version", () => {
    expect(USAGE).toContain('live-bench serve [--port <n>] [--host <address>]');
    expect(USAGE).toContain('live-bench --version');
  });
});

describe('live-bench serve files', () => {
  const root = path.resolve('/srv/dist');

  it('maps / to index.html and a path to its file', () => {
    expect(fileOf(root, '/')).toBe(path.join(root, 'index.html'));
    expect(fileOf(root, '/assets/index-abc.js?v=1')).toBe(path.join(root, 'assets', 'index-abc.js'));
    expect(fileOf(root, '/assets/a%20b.css')).toBe(path.join(root, 'assets', 'a b.css'));
  });

  it('never leaves the dashboard folder', () => {
    for (const escape of ['/../package.json', '/%2e%2e/package.json', '/assets/..%2f..%2fpackage.json', '/..\\..\\x']) {
      const file = fileOf(root, escape);
      expect(file === null || file.startsWith(root + path.sep)).toBe(true);
    }
    expect(fileOf(root, '/%E0%A4%A')).toBeNull();
    expect(fileOf(root, '/a%00b')).toBeNull();
  });

  it('prints a URL a browser can open, a wildcard address as loopback', () => {
    expect(servedUrl('127.0.0.1', 5173)).toBe('http://127.0.0.1:5173/');
    expect(servedUrl('0.0.0.0', 80)).toBe('http://127.0.0.1:80/');
    expect(servedUrl('::', 5173)).toBe('http://[::1]:5173/');
    expect(servedUrl('::1', 5173)).toBe('http://[::1]:5173/');
  });
});
