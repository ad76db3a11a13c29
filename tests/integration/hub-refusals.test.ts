/**
 * What the hub-sample refuses stays bounded: control connections outside a session (a count and
 * a deadline), and the log, which gets a counted summary per interval instead of a line and a
 * stack trace per refused call. Real hub processes, the real @microsoft/signalr client.
 */
import { HubConnectionBuilder, HubConnectionState, LogLevel, type HubConnection } from '@microsoft/signalr';
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startHub, type RunningHub } from '../support/hub-process.ts';

const hubs: RunningHub[] = [];
const connections: HubConnection[] = [];

afterEach(async () => {
  await Promise.all(connections.splice(0).map((c) => c.stop()));
  await Promise.all(hubs.splice(0).map((h) => h.stop()));
});

async function hub(extraArgs: string[]): Promise<RunningHub> {
  const started = await startHub({ extraArgs });
  hubs.push(started);
  return started;
}

function connection(url: string): HubConnection {
  const built = new HubConnectionBuilder().withUrl(url).configureLogging(LogLevel.None).build();
  connections.push(built);
  return built;
}

const closedWithin = (c: HubConnection, ms: number) =>
  new Promise<boolean>((resolve) => {
    if (c.state === HubConnectionState.Disconnected) resolve(true);
    c.onclose(() => resolve(true));
    setTimeout(() => resolve(false), ms);
  });

describe('control connections outside a session', () => {
  it('at most MaxControlOutsiders wait at once, each for ControlJoinSeconds; a dashboard that opened a session stays', async () => {
    const { httpUrl } = await hub(['--MaxControlOutsiders', '3', '--ControlJoinSeconds', '1']);
    const dashboard = connection(`${httpUrl}/control`);
    await dashboard.start();
    await dashboard.invoke('OpenSession');
    const outsiders = [connection(`${httpUrl}/control`), connection(`${httpUrl}/control`), connection(`${httpUrl}/control`)];
    await Promise.all(outsiders.map((c) => c.start()));
    // The dashboard is in a session, so it does not count: a fourth outsider is one too many.
    await expect(connection(`${httpUrl}/control`).start()).rejects.toThrow();
    // Each outsider is closed once its second is up (give a loaded machine a few more).
    expect(await Promise.all(outsiders.map((c) => closedWithin(c, 5_000)))).toEqual([true, true, true]);
    expect(dashboard.state).toBe(HubConnectionState.Connected);
    // Their places are free again.
    const late = connection(`${httpUrl}/control`);
    await late.start();
    expect(late.state).toBe(HubConnectionState.Connected);
  });
});

describe('the log under refused calls', () => {
  it('10,000 refused calls (bad group names, bad session codes with terminal escapes) make one counted summary, no stack trace, no client text beyond a short prefix', async () => {
    const started = await hub(['--ControlJoinSeconds', '120']);
    const bench = connection(`${started.httpUrl}/signalrbench`);
    const control = connection(`${started.httpUrl}/control`);
    await Promise.all([bench.start(), control.start()]);
    const badCode = `\u001b[31mEVIL\r\nforged log line ${'x'.repeat(5_000)}`;
    const refused = await Promise.all([
      ...Array.from({ length: 5_000 }, () => bench.invoke('JoinGroup', 'g'.repeat(200)).then(() => 0, () => 1)),
      ...Array.from({ length: 5_000 }, () => control.invoke('JoinSession', badCode, '{}').then(() => 0, () => 1)),
    ]);
    expect(refused.reduce((a: number, b: number) => a + b, 0)).toBe(10_000);
    // The caller still hears why, in a short printable form.
    await expect(control.invoke('JoinSession', badCode, '{}')).rejects.toThrow(/No session '\?\[31mEVIL\?\?forged lo\.\.\.' is open/);
    const startup = started.output().length;
    // Stopping the hub writes what is counted and not yet written.
    await started.stop();
    const lines = started.output().slice(startup).split('\n').filter((line) => line.trim() !== '');
    expect(lines.length).toBeLessThanOrEqual(4);
    const summaries = lines.filter((line) => line.includes('Refused'));
    expect(summaries.length).toBeGreaterThanOrEqual(1);
    const counted = summaries.flatMap((line) => [...line.matchAll(/ x(\d+) /g)].map((m) => Number(m[1])));
    expect(counted.reduce((a, b) => a + b, 0)).toBe(10_001);
    for (const line of lines) {
      expect(line).not.toMatch(/^\s+at /);
      expect(line).not.toContain('\u001b');
      expect(line).not.toContain('xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx');
      expect(line.length).toBeLessThan(1_000);
    }
  });
});

describe('requests for a name the hub does not answer to', () => {
  it('get 400 and are counted in one summary line with the first name, not a line each', async () => {
    const started = await hub([]);
    const { port } = new URL(started.httpUrl);
    const status = (host: string) => new Promise<number>((resolve, reject) => {
      http.get({ host: '127.0.0.1', port, path: '/metrics', headers: { Host: host } }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      }).on('error', reject);
    });
    const statuses = await Promise.all(Array.from({ length: 200 }, (_, i) => status(`rebind-${i}.evil.example:${port}`)));
    expect(new Set(statuses)).toEqual(new Set([400]));
    expect(await status(`localhost:${port}`)).toBe(200);
    const startup = started.output().length;
    await started.stop();
    const summaries = started.output().slice(startup).split('\n').filter((line) => line.includes('Refused'));
    expect(summaries).toHaveLength(1);
    expect(summaries[0]).toMatch(new RegExp(`a request for a name the hub does not answer to \\(400, --AllowedHosts\\) x200 \\(first: rebind-\\d+\\.evil\\.example:${port}\\)`));
  });
});
