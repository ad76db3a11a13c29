/**
 * Bad hub settings end the built hub before it starts, with exit code 2 and one line per problem
 * saying what is wrong, what is allowed and what to do; never an unhandled exception (which
 * used to print a stack trace and exit 134) and never a setting ignored without a word.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runHubToExit } from '../support/hub-process.ts';

let busy: net.Server;
let busyPort = 0;

beforeAll(async () => {
  busy = net.createServer();
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  busyPort = (busy.address() as AddressInfo).port;
});

afterAll(() => new Promise<void>((resolve) => busy.close(() => resolve())));

/** Every case without a port problem passes --port 0, so a hub that wrongly started would not
 *  collide with anything (runHubToExit then fails the case when it does not exit). The busy
 *  port's number is known only once it listens: those regexes are built when the case runs. */
const cases: [string, () => string[], RegExp | (() => RegExp)][] = [
  ['a port above 65535', () => ['--port', '99999'], /^--port is '99999', but must be a whole number from 0 to 65535 \(0 picks a free port\): pass --port with such a number\.$/],
  ['a port that is not a number', () => ['--port', 'abc'], /^--port is 'abc', but must be a whole number from 0 to 65535/],
  ['a negative message size', () => ['--port', '0', '--MaxMessageBytes', '-1'], /^--MaxMessageBytes is '-1', but must be a whole number from 1024 to 1073741824 bytes: pass --MaxMessageBytes/],
  ["'*' as CORS origins", () => ['--port', '0', '--CorsOrigins', '*'], /^--CorsOrigins '\*' would let every site's pages use the hub.*list the origins that may, comma separated/],
  ['a busy port', () => ['--port', String(busyPort)], () => new RegExp(`^--port ${busyPort} is already in use by another program on 127\\.0\\.0\\.1: stop that program, or pass another --port \\(0 picks a free one\\)\\.$`)],
  ['a busy HTTPS port', () => ['--port', '0', '--HttpsPort', String(busyPort)], () => new RegExp(`^--HttpsPort ${busyPort} is already in use .* pass another --HttpsPort`)],
  ['--urls, which the hub would ignore', () => ['--port', '0', '--urls', 'http://127.0.0.1:5999'], /^--urls is not used by this hub: it listens on --host and --port \(and --HttpsPort for HTTPS\)\. Pass those instead\.$/],
  ['a misspelt setting', () => ['--port', '0', '--MaxMesageBytes', '4096'], /^--MaxMesageBytes is not a setting of this hub\. The settings are --host, --port, .*--MaxMessageBytes.*: check the spelling\.$/],
  ['a control-hub limit too small for the pieces agents send', () => ['--port', '0', '--MaxControlMessageBytes', '1000'], /^--MaxControlMessageBytes is '1000', but must be a whole number from 65536 /],
  ['a flag that is not true or false', () => ['--port', '0', '--EnableTestHubs', 'yes'], /^--EnableTestHubs is 'yes', but must be true or false/],
  ['the test-only delivery limit outside test hubs', () => ['--port', '0', '--TestMessageRateLimit', '500'], /^--TestMessageRateLimit makes the hub deliver late on purpose, for this tool's tests only, and is refused unless --EnableTestHubs true is given too/],
  ['a last flag without a value, which .NET would drop', () => ['--port', '0', '--EnableServerDrops'], /^--EnableServerDrops has no value: give one after it, such as --EnableServerDrops true/],
  ['a stray word, which .NET would drop', () => ['--port', '0', 'drops', '--EnableServerDrops', 'true'], /^'drops' is not a setting nor the value of one: give each setting as --Name value or --Name=value/],
  ['an allowed host written as a URL', () => ['--port', '0', '--AllowedHosts', 'https://bench.example'], /^--AllowedHosts: 'https:\/\/bench\.example' is not a host name\. Write names without scheme or path/],
  ['a host name instead of an address', () => ['--port', '0', '--host', 'localhost'], /^--host is 'localhost', but must be an IP address of this machine/],
];

describe('bad hub settings', () => {
  for (const [name, args, line] of cases) {
    it(`${name}: exit 2, one line, no stack trace`, async () => {
      const exit = await runHubToExit(args());
      expect(exit.code).toBe(2);
      expect(exit.stdout).toBe('');
      const lines = exit.stderr.trimEnd().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(typeof line === 'function' ? line() : line);
      expect(exit.stderr).not.toMatch(/Exception|^\s+at /m);
    });
  }

  it('several problems at once: every one is named, one line each', async () => {
    const exit = await runHubToExit(['--port', 'abc', '--MaxMessageBytes', '-1', '--CorsOrigins', '*', '--Transports', 'Pigeon']);
    expect(exit.code).toBe(2);
    const lines = exit.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines.map((l) => l.split(' ')[0])).toEqual(['--port', '--MaxMessageBytes', '--Transports:', '--CorsOrigins']);
  });
});
