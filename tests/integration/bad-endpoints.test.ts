/**
 * Endpoints that are wrong in the ways people get them wrong, against real servers: each run
 * ends by itself, counts every connection as failed, and says what is wrong and what to do.
 */
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runResult } from '../../core/result/document.ts';
import { startHub, type RunningHub } from '../support/hub-process.ts';
import { hubConfig, runInProcess } from '../support/hub-run.ts';
import { liveBench } from '../support/live-bench.ts';

/** What python's http.server answers to a POST, word for word. */
const PYTHON_501 = `<!DOCTYPE HTML>
<html lang="en">
    <head>
        <meta charset="utf-8">
        <title>Error response</title>
    </head>
    <body>
        <h1>Error response</h1>
        <p>Error code: 501</p>
        <p>Message: Unsupported method ('POST').</p>
        <p>Error code explanation: 501 - Server does not support this operation.</p>
    </body>
</html>
`;

let plain: http.Server;
let plainUrl = '';
let restricted: RunningHub;

beforeAll(async () => {
  // A web server that is not a SignalR hub: 404 on one path, 501 for a POST on another (what
  // python's http.server answers), an HTML page on every other.
  plain = http.createServer((request, response) => {
    if (request.url?.startsWith('/missing')) {
      response.writeHead(404).end('Not Found');
    } else if (request.url?.startsWith('/static') && request.method === 'POST') {
      response.writeHead(501, { 'Content-Type': 'text/html' }).end(PYTHON_501);
    } else {
      response.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><html><body>Welcome</body></html>');
    }
  });
  await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
  plainUrl = `http://127.0.0.1:${(plain.address() as AddressInfo).port}`;
  // A hub with only WebSockets and a 4 KB message limit.
  restricted = await startHub({ extraArgs: ['--Transports', 'WebSockets', '--MaxMessageBytes', '4096', '--EnableTestHubs', 'true'] });
});

afterAll(async () => {
  plain?.close();
  await restricted?.stop();
});

async function failures(endpointUrl: string, overrides: Record<string, unknown> = {}) {
  const coordinator = await runInProcess({ ...hubConfig({ connections: 2, workers: 1, durationSec: 1, ...overrides }), endpointUrl });
  const { outcome, verdict } = runResult(coordinator, new Date(), 'test');
  return { totals: coordinator.aggregator.totals(), samples: coordinator.aggregator.errorSamples(), counts: coordinator.aggregator.errorCounts(), outcome, verdict };
}

describe('bad endpoints', () => {
  it('a host that does not resolve', async () => {
    const { totals, samples } = await failures('http://no-such-host.invalid/signalrbench');
    expect(totals.connectionsFailed).toBe(2);
    expect(samples[0]!.message).toMatch(/host name does not resolve/);
  });

  it('a path where nothing answers (404)', async () => {
    const { totals, samples } = await failures(`${plainUrl}/missing/signalrbench`);
    expect(totals.connectionsFailed).toBe(2);
    expect(samples[0]!.kind).toBe('negotiate');
    expect(samples[0]!.message).toMatch(/This is not a SignalR hub at this URL: the server answered the negotiate request with status 404\. Check the URL and the hub path/);
  });

  it('a plain web server that refuses POST (501): not a SignalR hub, not a transport problem', async () => {
    const { totals, samples, outcome } = await failures(`${plainUrl}/static/signalrbench`, { durationSec: 60 });
    expect(totals.connectionsFailed).toBe(2);
    expect(samples[0]!.message).toMatch(/This is not a SignalR hub at this URL: the server answered the negotiate request with status 501/);
    expect(samples[0]!.message).not.toMatch(/does not offer this transport/);
    // The page is summarised in one line, not printed.
    expect(samples[0]!.message).toContain('Failed to complete negotiation with the server: Error: an HTML page titled \'Error response\': Status code \'501\'');
    expect(samples[0]!.message).not.toMatch(/<|\n/);
    expect(outcome).toMatchObject({ kind: 'failed', reason: expect.stringContaining('not a SignalR hub') });
  });

  it('a web page, not a hub', async () => {
    const { totals, samples } = await failures(`${plainUrl}/index.html`);
    expect(totals.connectionsFailed).toBe(2);
    expect(samples[0]!.message).toMatch(/This is not a SignalR hub at this URL: the server answered the negotiate request, but not with SignalR's negotiate JSON \(an HTML page\?\)/);
  });

  it('a certificate the client does not trust', async () => {
    const { totals, samples } = await failures(`${inject('hubHttpsUrl')}/signalrbench`);
    expect(totals.connectionsFailed).toBe(2);
    expect(samples[0]!.message).toMatch(/TLS certificate is not trusted/);
  });

  it('a transport the hub has disabled', async () => {
    const { totals, samples, counts } = await failures(`${restricted.httpUrl}/signalrbench`, { transport: 'LongPolling' });
    expect(totals.connectionsFailed).toBe(2);
    expect(counts.transport).toBe(2);
    expect(samples[0]!.message).toMatch(/LongPolling.*choose another transport, or enable it on the hub/);
  });

  it('a SignalR hub without the benchmark methods: named before the run, and nothing it drops passes unnoticed', async () => {
    const { totals, samples, counts, outcome } = await failures(`${restricted.httpUrl}/emptyhub`, { durationSec: 60 });
    expect(totals.connectionsOpened).toBe(2);
    expect(counts.protocol).toBe(1);
    expect(samples.find((s) => s.kind === 'protocol')!.message).toMatch(/did not accept Echo\(…\): .*point the endpoint at the hub-sample or a hub with the same methods/);
    expect(totals.received).toBe(0);
    expect(totals.sent).toBe(0);
    // Failed at once, not after the 60 s the run was planned for (the test's own timeout is shorter).
    expect(outcome).toMatchObject({ kind: 'failed', reason: expect.stringContaining('did not accept Echo') });
  });

  it('a message larger than the hub accepts: the hub closes the connection and the run says why', async () => {
    const { totals, samples, counts, verdict } = await failures(`${restricted.httpUrl}/signalrbench`, { messageBytes: 8_192 });
    expect(totals.connectionsOpened).toBe(2);
    expect(counts.closed).toBe(2);
    expect(totals.received).toBe(0);
    expect(samples.find((s) => s.kind === 'closed')!.message).toMatch(/larger than its limit/);
    expect(verdict).toMatchObject({ status: 'fail', share: 0, delivery: 0 });
  });
});

/** A port nothing listens on: taken from the system, then let go. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('failing fast at any size', () => {
  it('20,000 connections to a closed port: exit 3 within seconds, the refusal named, every connection counted', async () => {
    const endpoint = `http://127.0.0.1:${await closedPort()}/signalrbench`;
    const run = await liveBench(['--endpoint', endpoint, '--connections', '20000', '--duration', '5', '--quiet', '--json', '-']);
    expect(run.code, run.stderr).toBe(3);
    // The design goal is about a second (16 refused connects decide); 10 s leaves room for a loaded machine.
    expect(run.elapsedMs).toBeLessThan(10_000);
    expect(run.stderr).toMatch(/first error \(negotiate\): .*ECONNREFUSED/);
    expect(run.stderr).not.toMatch(/may be stalled/);
    const result = JSON.parse(run.stdout.split('\n').find((l) => l.startsWith('{"format"'))!) as { totals: { connectionsFailed: number; connectionsOpened: number } };
    expect(result.totals).toMatchObject({ connectionsOpened: 0, connectionsFailed: 20_000 });
    expect(run.stdout).toMatch(/connections were not tried: the first 16 connects were all refused \(nothing accepts connections there\)/);
  }, 30_000);
});

describe('the hub-sample\'s own limits', () => {
  it('refuses a group name over 128 characters and a 101st group, and keeps the connection', async () => {
    const { HubConnectionBuilder, LogLevel } = await import('@microsoft/signalr');
    const hub = new HubConnectionBuilder().withUrl(`${inject('hubHttpUrl')}/signalrbench`).configureLogging(LogLevel.None).build();
    await hub.start();
    try {
      await expect(hub.invoke('JoinGroup', 'g'.repeat(129))).rejects.toThrow(/Group names must be 1 to 128 characters long; this one has 129/);
      for (let g = 0; g < 100; g++) await hub.invoke('JoinGroup', `group-${g}`);
      await expect(hub.invoke('JoinGroup', 'one-too-many')).rejects.toThrow(/at most 100 groups; leave one first/);
      await hub.invoke('LeaveGroup', 'group-0');
      await hub.invoke('JoinGroup', 'one-too-many');
      // No stack trace or server detail travels with an error.
      await expect(hub.invoke('Echo', 'not a number', 'x')).rejects.toThrow(/^((?!   at ).)*$/s);
      expect(hub.state).toBe('Connected');
    } finally {
      await hub.stop();
    }
  });
});
