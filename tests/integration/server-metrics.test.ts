/**
 * The hub-sample's own view at /metrics, read with the real client and the built runner: its
 * connection count matches the connections open, its deliveries match what the runner received,
 * it follows the hubs' origin rules, and a hub with metrics off never fails a run.
 */
import { HubConnectionBuilder, LogLevel, type HubConnection } from '@microsoft/signalr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMetrics, type ServerReading } from '../../core/server-metrics/reading.ts';
import type { RunResult } from '../../core/run-result.ts';
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

function runDocument(stdout: string): RunResult {
  const line = stdout.split('\n').find((l) => l.startsWith('{"format"'));
  if (!line) throw new Error(`the runner printed no JSON result:\n${stdout}`);
  return JSON.parse(line) as RunResult;
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
    expect(run.stdout).toMatch(/^Server: peak CPU \d+% of all cores while sending, peak 50 hub connections, 402 deliveries counted by the hub/m);
    expect(run.stdout).toMatch(/^Limit: /m);
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
    expect(run.stderr.match(/could not be read/g)).toHaveLength(1);
    expect(run.stderr).toContain(`live-bench: Server metrics at ${quiet.httpUrl}/metrics could not be read: 404 Not Found`);
    const result = runDocument(run.stdout);
    expect(result.verdict.status).toBe('pass');
    expect(result.server!.points).toEqual([]);
    expect(result.server!.failedScrapes).toBeGreaterThanOrEqual(3);
    expect(run.stdout).toMatch(/^Server: not read from /m);
    expect(run.stdout).toContain('Limit: The client kept its schedule; the server\'s load is unknown');
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
    expect(run.stderr.match(/could not be read/g)).toHaveLength(1);
    expect(run.stderr).toContain('could not be read: no answer within 2 s');
    const result = runDocument(run.stdout);
    expect(result.verdict.status).toBe('fail');
    expect(result.server!.points.length).toBeGreaterThan(0);
    expect(result.server!.failedScrapes).toBeGreaterThan(0);
    expect(run.stdout).toMatch(/^Limit: The server stopped answering \(\d+ readings? of its metrics got no answer\)/m);
  }, 60_000);
});
