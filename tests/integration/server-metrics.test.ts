/**
 * The hub-sample's own view at /metrics, read with the real client and the built runner: its
 * connection count matches the connections open, its deliveries match what the runner received,
 * it follows the hubs' origin rules, and a hub with metrics off never fails a run.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HubConnectionBuilder, LogLevel, type HubConnection } from '@microsoft/signalr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMetrics, type ServerReading } from '../../core/server-metrics/reading.ts';
import { MAX_METRICS_BYTES, platformFetchText } from '../../core/server-metrics/scraper.ts';
import type { RunResult } from '../../core/result/result.ts';
import { startHub, type RunningHub } from '../support/hub-process.ts';
import { liveBench } from '../support/live-bench.ts';

let hub: RunningHub;
let metricsUrl: string;

beforeAll(async () => {
  // A hub of its own: counts must not include other tests' connections.
  hub = await startHub();
  metricsUrl = `${hub.httpUrl}/metrics`;
}, 60_000);

afterAll(async () => {
  await hub?.stop();
});

async function scrape(): Promise<{ text: string; reading: ServerReading }> {
  const response = await fetch(metricsUrl);
  expect(response.status).toBe(200);
  const text = await response.text();
  return { text, reading: readMetrics(text, Date.now() * 1_000) };
}

/** The counter's value for one method, from the raw text. */
function perMethod(text: string, counter: string, method: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${counter}{`) && l.includes(`method="${method}"`));
  if (!line) throw new Error(`no ${counter} for ${method} in /metrics`);
  return Number(line.slice(line.lastIndexOf(' ') + 1));
}

async function until(condition: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** With `--json -` standard output is the result document alone: the whole of it parses. */
function runDocument(stdout: string): RunResult {
  return JSON.parse(stdout) as RunResult;
}

describe('/metrics on the hub-sample', () => {
  it('reports 50 active SignalR connections while 50 are open, and 0 once they close', async () => {
    const before = (await scrape()).reading;
    expect(before.hubConnections).toBe(0);
    const connections: HubConnection[] = Array.from({ length: 50 }, () =>
      new HubConnectionBuilder().withUrl(`${hub.httpUrl}/signalrbench`).configureLogging(LogLevel.None).build());
    try {
      await Promise.all(connections.map((c) => c.start()));
      const { text, reading } = await scrape();
      expect(reading.signalrConnections).toBe(50);
      expect(reading.hubConnections).toBe(50);
      expect(text).toMatch(/^signalr_server_active_connections\{[^}]*signalr_transport="web_sockets"[^}]*\} 50$/m);
      expect(reading.kestrelConnections).toBeGreaterThanOrEqual(50);
      expect(reading.cpuSeconds).toBeGreaterThan(0);
      expect(reading.cpuCount).toBeGreaterThan(0);
      expect(reading.gcPauseSeconds).not.toBeNull();
      expect(reading.threadPoolQueue).not.toBeNull();
    } finally {
      await Promise.all(connections.map((c) => c.stop()));
    }
    await until(async () => (await scrape()).reading.signalrConnections === 0, 'the closed connections to leave the count');
    expect((await scrape()).reading.hubConnections).toBe(0);
  });

  it('echo: the deliveries the hub counted equal what the runner received (plus one probe per worker)', async () => {
    const run = await liveBench(['--endpoint', `${hub.httpUrl}/signalrbench`, '--connections', '50', '--workers', '2', '--interval-ms', '500', '--duration', '4', '--quiet', '--server-metrics', metricsUrl, '--json', '-']);
    expect(run.code, run.stderr).toBe(0);
    const result = runDocument(run.stdout);
    expect(result.fates.lost).toBe(0);
    expect(result.totals.received).toBe(400);
    // Each worker checks the method once with a probe the client does not count as a reception.
    expect(result.server!.deliveries).toBe(result.totals.received + 2);
    expect(result.server!.problem).toBeNull();
    expect(result.server!.points.length).toBeGreaterThanOrEqual(4);
    expect(Math.max(...result.server!.points.map((p) => p.connections ?? 0))).toBe(50);
    expect(run.stderr).toMatch(/^Server: peak CPU \d+% of all cores while sending, peak 50 hub connections, 402 deliveries counted by the hub/m);
    expect(run.stderr).toMatch(/^Limit: /m);
  }, 60_000);

  it('broadcast: the hub counts one delivery per receiving connection, as the runner received them', async () => {
    const before = await scrape();
    const run = await liveBench(['--endpoint', `${hub.httpUrl}/signalrbench`, '--scenario', 'broadcast', '--connections', '50', '--workers', '1', '--duration', '3', '--quiet', '--server-metrics', metricsUrl, '--json', '-']);
    expect(run.code, run.stderr).toBe(0);
    const result = runDocument(run.stdout);
    const after = await scrape();
    // One worker probes once, after all 50 of its connections opened: 50 more deliveries.
    expect(result.server!.deliveries).toBe(result.totals.received + 50);
    const broadcasts = perMethod(after.text, 'hubsample_hub_invocations_total', 'Broadcast') - perMethod(before.text, 'hubsample_hub_invocations_total', 'Broadcast');
    expect(broadcasts).toBe(result.totals.sent + 1);
    expect(perMethod(after.text, 'hubsample_hub_deliveries_total', 'Broadcast') - perMethod(before.text, 'hubsample_hub_deliveries_total', 'Broadcast')).toBe(broadcasts * 50);
  }, 60_000);

  it('follows the hubs\' origin rules: another site\'s page gets 403, the hub\'s own origin and no Origin get the metrics', async () => {
    const foreign = await fetch(metricsUrl, { headers: { Origin: 'http://evil.example' } });
    expect(foreign.status).toBe(403);
    expect(await foreign.text()).toContain('may not use this hub');
    expect((await fetch(metricsUrl, { headers: { Origin: hub.httpUrl } })).status).toBe(200);
  });
});

describe('a hub with --EnableMetrics false', () => {
  let quiet: RunningHub;
  beforeAll(async () => {
    quiet = await startHub({ extraArgs: ['--EnableMetrics', 'false'] });
  }, 60_000);
  afterAll(async () => {
    await quiet?.stop();
  });

  it('serves no /metrics, and a run that asks for them says so once and passes', async () => {
    expect((await fetch(`${quiet.httpUrl}/metrics`)).status).toBe(404);
    const run = await liveBench(['--endpoint', `${quiet.httpUrl}/signalrbench`, '--connections', '10', '--duration', '3', '--quiet', '--server-metrics', `${quiet.httpUrl}/metrics`, '--json', '-']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr.match(/^live-bench: .*could not be read/gm)).toHaveLength(1);
    expect(run.stderr).toContain(`live-bench: Server metrics at ${quiet.httpUrl}/metrics could not be read: 404 Not Found`);
    const result = runDocument(run.stdout);
    expect(result.verdict.status).toBe('pass');
    expect(result.server!.points).toEqual([]);
    expect(result.server!.failedScrapes).toBeGreaterThanOrEqual(3);
    expect(run.stderr).toMatch(/^Server: not read from /m);
    expect(run.stderr).toContain('Limit: The client kept its schedule; the server\'s load is unknown');
  }, 60_000);
});

describe('a hub frozen (SIGSTOP) mid-run while its metrics are read', () => {
  let frozen: RunningHub;
  beforeAll(async () => {
    frozen = await startHub();
  }, 60_000);
  afterAll(async () => {
    frozen?.process.kill('SIGCONT');
    await frozen?.stop();
  });

  it('the run fails as before, the unanswered metrics are said once, and the limit names the server', async () => {
    const run = await liveBench(['--endpoint', `${frozen.httpUrl}/signalrbench`, '--connections', '20', '--interval-ms', '500', '--duration', '6', '--drain-s', '5', '--quiet', '--server-metrics', `${frozen.httpUrl}/metrics`, '--json', '-'], (child) => {
      // Frozen until the runner has ended: its drain and its last reading must give up by themselves.
      setTimeout(() => {
        if (child.exitCode === null) frozen.process.kill('SIGSTOP');
      }, 3_000);
    });
    frozen.process.kill('SIGCONT');
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr.match(/^live-bench: .*could not be read/gm)).toHaveLength(1);
    expect(run.stderr).toContain('could not be read: no answer within 2 s');
    const result = runDocument(run.stdout);
    expect(result.verdict.status).toBe('fail');
    expect(result.server!.points.length).toBeGreaterThan(0);
    expect(result.server!.failedScrapes).toBeGreaterThan(0);
    expect(run.stderr).toMatch(/^Limit: The server stopped answering \(\d+ readings? of its metrics got no answer\)/m);
  }, 60_000);
});

describe('a metrics address that answers too much or too slowly', () => {
  const FIFTY_MB = 50 * 1024 * 1024;
  let server: http.Server;
  let baseUrl = '';
  /** Bytes each /huge answer had written to its socket when it closed. */
  const hugeWritten: number[] = [];

  beforeAll(async () => {
    const line = Buffer.from(Array.from({ length: 1_000 }, (_, i) => `junk_metric_${i}{label="a"} ${i}\n`).join(''));
    server = http.createServer((request, response) => {
      if (request.url === '/huge') {
        // 50 MB in chunks, as an endpoint gone wrong would stream it (no Content-Length).
        response.writeHead(200, { 'Content-Type': 'text/plain' });
        let sent = 0;
        const write = () => {
          while (sent < FIFTY_MB && !response.destroyed) {
            sent += line.length;
            if (!response.write(line)) return void response.once('drain', write);
          }
          response.end();
        };
        response.on('close', () => hugeWritten.push(request.socket.bytesWritten));
        write();
      } else if (request.url === '/announced') {
        response.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': String(FIFTY_MB) });
        response.write(line);
      } else {
        // A trickle that never ends: the time limit, not the size, stops it.
        response.writeHead(200, { 'Content-Type': 'text/plain' });
        const timer = setInterval(() => response.write('# still here\n'), 100);
        response.on('close', () => clearInterval(timer));
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server?.closeAllConnections();
    server?.close();
  });

  it('50 MB at --server-metrics: each answer is cut at the limit and skipped, said once, and a healthy run passes with exit 0', async () => {
    const run = await liveBench(['--endpoint', `${hub.httpUrl}/signalrbench`, '--connections', '50', '--interval-ms', '100', '--duration', '6', '--quiet', '--server-metrics', `${baseUrl}/huge`, '--json', '-']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr.match(/^live-bench: .*could not be read/gm)).toHaveLength(1);
    expect(run.stderr).toContain(`could not be read: the answer is over the 4 MB this tool reads of a metrics answer: it was skipped, not parsed`);
    const result = runDocument(run.stdout);
    expect(result.verdict.status).toBe('pass');
    expect(result.server!.problem).toContain('over the 4 MB');
    expect(result.server!.points).toEqual([]);
    expect(result.server!.failedScrapes).toBeGreaterThanOrEqual(5);
    // Read up to the limit, then let go: what the socket took is near 4 MB (plus kernel buffers), never 50 MB.
    expect(hugeWritten.length).toBeGreaterThanOrEqual(5);
    for (const written of hugeWritten) expect(written).toBeLessThan(FIFTY_MB / 2);
  }, 60_000);

  it('an announced Content-Length over the limit is refused before reading, and a trickle ends at the time limit', async () => {
    const fetchText = platformFetchText(1_000);
    await expect(fetchText(`${baseUrl}/announced`)).rejects.toThrow(`the answer is 50 MB, over the ${MAX_METRICS_BYTES / 1024 / 1024} MB this tool reads`);
    const started = Date.now();
    await expect(fetchText(`${baseUrl}/trickle`)).rejects.toThrow('no answer within 1 s (the server may be stalled or overloaded)');
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});
