/**
 * The hub-sample at its open-files limit (hub-sample/FileLimit.cs): started by a shell under
 * `ulimit -n 512` (about 250 files are its own), it is asked for 350 WebSocket connections, more
 * than its free files, which used to end it with `Out of memory.` and every connection lost. It
 * refuses the new ones with a 503 that names the limit, keeps the ones it has (each still echoes),
 * refuses a WebSocket opened without negotiation the same way, and writes one log line with the
 * limit and how to raise it. Under `ulimit -n 256` no connection would fit: it says so and
 * ends with exit code 2 instead of starting to serve nothing.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { HttpTransportType, HubConnectionBuilder, LogLevel, type HubConnection } from '@microsoft/signalr';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HUB_DLL, REPO_ROOT } from '../support/hub-process.ts';

const FILES = 512;
const ASKED = 350;
const WAVE = 25;

interface LimitedHub {
  url: string;
  child: ChildProcess;
  output: () => string;
}

/** The built hub under `ulimit -n files`, through a shell as a user would start it. */
function startUnderLimit(files: number): Promise<LimitedHub> {
  const child = spawn('bash', ['-c', 'ulimit -n "$0" && exec dotnet "$@"', String(files), HUB_DLL, '--DashboardDir', path.join(REPO_ROOT, 'dist'), '--port', '0'], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The hub did not start in 30 s. It printed:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /hub listening on (\S+)/.exec(output);
      // The start-up lines end with the backplane's.
      if (match && output.includes('  backplane: ')) {
        clearTimeout(timer);
        resolve({ url: match[1] ?? '', child, output: () => output });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`The hub exited with code ${code} before listening. It printed:\n${output}`));
    });
  });
}

let hub: LimitedHub;
const open: HubConnection[] = [];
/** When the test saw the first refusal: the hub's log may write a line per 10 s from then. */
let firstRefusalAt = 0;

beforeAll(async () => {
  hub = await startUnderLimit(FILES);
}, 40_000);

afterAll(async () => {
  await Promise.all(open.map((c) => c.stop().catch(() => {})));
  hub?.child.kill('SIGTERM');
});

async function connect(transport = HttpTransportType.WebSockets): Promise<HubConnection> {
  const connection = new HubConnectionBuilder().withUrl(`${hub.url}/signalrbench`, { transport }).configureLogging(LogLevel.None).build();
  await connection.start();
  return connection;
}

function echo(connection: HubConnection, ts: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no echo within 5 s')), 5_000);
    connection.on('Measure', (back: number) => {
      if (back !== ts) return;
      clearTimeout(timer);
      resolve(back);
    });
    connection.invoke('Echo', ts, 'still here').catch(reject);
  });
}

describe('the hub-sample at its open-files limit', () => {
  it('says at start-up how many connections its files allow', () => {
    expect(hub.output()).toMatch(/connections: at most \d+ sockets at a time \(a WebSocket connection takes one, Server-Sent Events two, long polling three; open files: ulimit -n 512, \d+ used by the hub before any client, 192 kept for the runtime\)/);
  });

  it(`asked for ${ASKED} connections, more than its free files: refuses the rest with the reason, and the ones it kept still echo`, async () => {
    const refusals: string[] = [];
    // In waves, as a runner's ramp: a wave's connects in flight together, fewer than the 32
    // between the hub's 503s and Kestrel's own limit.
    for (let wave = 0; wave < ASKED / WAVE; wave++) {
      const results = await Promise.allSettled(Array.from({ length: WAVE }, () => connect()));
      for (const result of results) {
        if (result.status === 'fulfilled') open.push(result.value);
        else {
          firstRefusalAt ||= Date.now();
          refusals.push(String(result.reason));
        }
      }
    }
    expect(open.length + refusals.length).toBe(ASKED);
    // 512 files less about 200 of its own and 192 kept leave about 116 sockets, the 503s begin
    // above 84: fewer than 100 WebSockets fit (the negotiations' kept-alive sockets count too),
    // and some surely did.
    expect(open.length).toBeGreaterThan(20);
    expect(open.length).toBeLessThan(100);
    for (const refusal of refusals) expect(refusal).toContain('503: the hub is at its open-files limit (ulimit -n 512:');

    const echoed = await Promise.all(open.map((connection, i) => echo(connection, 1_000 + i)));
    expect(echoed).toEqual(open.map((_, i) => 1_000 + i));
    expect(hub.child.exitCode).toBeNull();
  }, 30_000);

  it('a WebSocket opened without negotiation is refused with the same 503', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const socket = new WebSocket(`${hub.url.replace('http', 'ws')}/signalrbench`);
      socket.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      socket.on('open', () => reject(new Error('the WebSocket opened')));
      socket.on('error', () => {});
      socket.on('close', () => reject(new Error('closed without an answer')));
    });
    expect(status).toBe(503);
  });

  it('writes the refusals in one line with the limit and how to raise it, never a line per connection', () => {
    const lines = hub.output().split('\n').filter((line) => line.includes('Open files at the limit'));
    // The first refusal is written when it happens; the rest wait for the 10 s to pass.
    expect(lines.length).toBeGreaterThanOrEqual(1);
    expect(lines.length).toBeLessThanOrEqual(1 + Math.ceil((Date.now() - firstRefusalAt) / 10_000));
    expect(lines[0]).toMatch(/refused \d+ new connections? in the last \d+ s .*This process may open 512 files \(ulimit -n\).*'ulimit -n 65536'/);
    expect(hub.output()).not.toContain('Out of memory');
    expect(hub.output()).not.toContain('rejected because the maximum number of concurrent connections');
  });

  it('long polling connections, which take three sockets each, are refused sooner, and the ones kept still echo', async () => {
    await Promise.all(open.splice(0).map((c) => c.stop()));
    const polling: HubConnection[] = [];
    const refusals: string[] = [];
    for (let wave = 0; wave < 8; wave++) {
      const results = await Promise.allSettled(Array.from({ length: 10 }, () => connect(HttpTransportType.LongPolling)));
      for (const result of results) {
        if (result.status === 'fulfilled') polling.push(result.value);
        else refusals.push(String(result.reason));
      }
    }
    open.push(...polling);
    // About 84 sockets before the 503s, three a connection: fewer than 40 fit.
    expect(polling.length).toBeGreaterThan(10);
    expect(polling.length).toBeLessThan(40);
    for (const refusal of refusals) expect(refusal).toContain('503: the hub is at its open-files limit (ulimit -n 512:');
    // Each echo is a send and a poll on sockets of their own: none closed by Kestrel's limit.
    for (let round = 0; round < 3; round++) {
      const echoed = await Promise.all(polling.map((connection, i) => echo(connection, 10_000 * (round + 1) + i)));
      expect(echoed).toEqual(polling.map((_, i) => 10_000 * (round + 1) + i));
    }
  }, 30_000);

  it('under ulimit -n 256, where no connection fits, it says so and ends with exit code 2', async () => {
    const refused = await startUnderLimit(256).then(
      (started) => { started.child.kill('SIGKILL'); return 'started'; },
      (error: Error) => error.message,
    );
    expect(refused).toContain('exited with code 2');
    expect(refused).toMatch(/This hub may open 256 files \(ulimit -n\) and uses about \d+ of them itself before any client, keeping 192 more for the runtime: no connection would fit/);
  }, 30_000);
});
