/**
 * Two hub-samples on one Redis (--Redis) whose Redis goes away after they started: killed, then
 * frozen. Each hub then says so where people and programs look: /healthz answers 503 with a
 * one-line reason, the hubsample_backplane_up gauge reads 0, and a new connection made with the
 * official client fails with text containing "backplane unavailable" (never a bare 1011); a hub
 * call that needs Redis fails with the same words, while an echo on an open connection goes on.
 * A Redis started again on the same port brings them back.
 */
import { HubConnectionBuilder, LogLevel, type HubConnection } from '@microsoft/signalr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type RunningHub } from '../support/hub-process.ts';
import { startRedis, type RunningRedis } from '../support/redis-process.ts';

const PASSWORD = 'never-shown-anywhere';
let redis: RunningRedis;
let hubs: RunningHub[] = [];
const opened: HubConnection[] = [];

beforeAll(async () => {
  redis = await startRedis(['--requirepass', PASSWORD]);
  hubs = await Promise.all(['hub-a', 'hub-b'].map((name) => startHub({ extraArgs: ['--Redis', `${redis.configuration},password=${PASSWORD}`, '--InstanceName', name] })));
}, 60_000);

afterAll(async () => {
  redis?.process.kill('SIGCONT');
  await Promise.all(opened.map((connection) => connection.stop()));
  await Promise.all(hubs.map((hub) => hub.stop()));
  await redis?.stop();
});

async function health(hub: RunningHub): Promise<{ status: number; body: string }> {
  const answer = await fetch(`${hub.httpUrl}/healthz`);
  return { status: answer.status, body: await answer.text() };
}

/** The backplane gauge's value in /metrics, or null when it is not there. */
async function backplaneUp(hub: RunningHub): Promise<number | null> {
  const text = await (await fetch(`${hub.httpUrl}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('hubsample_backplane_up'));
  return line === undefined ? null : Number(line.split(' ').at(-1));
}

async function open(hub: RunningHub): Promise<HubConnection> {
  const connection = new HubConnectionBuilder().withUrl(`${hub.httpUrl}/signalrbench`).configureLogging(LogLevel.None).build();
  connection.on('Measure', () => {});
  await connection.start();
  opened.push(connection);
  return connection;
}

/** What the official client says when a new connection fails: start() rejects, or (when the
 *  handshake came back before the refusal) the connection closes with an error. */
async function connectError(hub: RunningHub): Promise<string> {
  const connection = new HubConnectionBuilder().withUrl(`${hub.httpUrl}/signalrbench`).configureLogging(LogLevel.None).build();
  const closed = new Promise<string>((resolve) => connection.onclose((error) => resolve(error?.message ?? 'closed without an error')));
  try {
    await connection.start();
  } catch (error) {
    return (error as Error).message;
  }
  return Promise.race([closed, new Promise<string>((resolve) => setTimeout(() => resolve('still open after 15 s'), 15_000))]);
}

/** A message broadcast from one instance reaches a connection of the other: the backplane carries it. */
async function crossesInstances(): Promise<boolean> {
  const [sender, receiver] = [await open(hubs[0]!), await open(hubs[1]!)];
  const payload = `across-${Date.now()}`;
  const arrived = new Promise<boolean>((resolve) => {
    receiver.on('Measure', (_ts: number, text: string) => text === payload && resolve(true));
    setTimeout(() => resolve(false), 5_000);
  });
  await sender.invoke('Broadcast', 1, payload);
  return arrived;
}

describe('two hub-samples whose Redis goes away after they started', () => {
  it('killed: 503 with the reason, the gauge at 0, new connections and broadcasts refused as "backplane unavailable", echo kept; back once Redis is', async () => {
    expect(await Promise.all(hubs.map(health))).toEqual([{ status: 200, body: 'ok' }, { status: 200, body: 'ok' }]);
    expect(await Promise.all(hubs.map(backplaneUp))).toEqual([1, 1]);
    const before = await open(hubs[0]!);
    // start() resolves at the handshake, before the hub has subscribed the connection through
    // Redis; its first answer comes after.
    await before.invoke('Echo', 1, 'subscribed');

    redis.process.kill('SIGKILL');
    for (const hub of hubs) {
      await expect.poll(() => health(hub), { timeout: 10_000 }).toMatchObject({ status: 503 });
      const { body } = await health(hub);
      expect(body).toMatch(new RegExp(`^backplane unavailable: Redis at ${redis.configuration} does not answer \\(SocketClosed, since \\d+ s\\)$`));
      expect(body).not.toContain(PASSWORD);
      expect(await backplaneUp(hub)).toBe(0);
    }
    const [refusedA, refusedB] = await Promise.all(hubs.map(connectError));
    // Negotiate and the handshake pass; the hub then closes with the reason, the same for every
    // connection (no time in it, so a runner counts them as one error).
    const refusal = `Server returned an error on close: Connection closed with an error. HubException: backplane unavailable: Redis at ${redis.configuration} does not answer (SocketClosed)`;
    expect([refusedA, refusedB]).toEqual([refusal, refusal]);
    // A connection opened before: its echo needs no Redis, its broadcast does.
    await before.invoke('Echo', 1, 'still here');
    await expect(before.invoke('Broadcast', 1, 'lost')).rejects.toThrow(`An unexpected error occurred invoking 'Broadcast' on the server. HubException: backplane unavailable: Redis at ${redis.configuration} does not answer (SocketClosed)`);
    // One line per loss, not a stack trace per refused connection.
    const said = hubs[0]!.output();
    expect(said).toContain(`Backplane lost: Redis at ${redis.configuration} does not answer (SocketClosed). /healthz answers 503`);
    expect(said).not.toContain('   at ');
    expect(said).not.toContain(PASSWORD);

    const port = redis.port;
    // Later arguments win in redis-server: the same port as before, for StackExchange.Redis to find.
    redis = { ...(await startRedis(['--requirepass', PASSWORD, '--port', String(port)])), port, configuration: `127.0.0.1:${port}` };
    for (const hub of hubs) await expect.poll(() => health(hub), { timeout: 10_000 }).toEqual({ status: 200, body: 'ok' });
    expect(await Promise.all(hubs.map(backplaneUp))).toEqual([1, 1]);
    await expect.poll(() => hubs[0]!.output()).toContain(`Backplane back: Redis at ${redis.configuration} answers again after`);
    expect(await crossesInstances()).toBe(true);
  }, 40_000);

  it('frozen (SIGSTOP, its sockets still open): 503 "no reply", the gauge at 0, new connections refused as "backplane unavailable"', async () => {
    redis.process.kill('SIGSTOP');
    try {
      // No event says a frozen Redis is gone: a PING that /healthz asks for times out (5 s).
      const [refused] = await Promise.all([
        connectError(hubs[1]!),
        ...hubs.map((hub) => expect.poll(() => health(hub), { timeout: 15_000, interval: 500 }).toMatchObject({ status: 503 })),
      ]);
      expect(refused).toBe(`Server returned an error on close: Connection closed with an error. HubException: backplane unavailable: Redis at ${redis.configuration} does not answer (no reply within 5 s)`);
      for (const hub of hubs) {
        expect((await health(hub)).body).toMatch(/^backplane unavailable: Redis at \S+ does not answer \(no reply within 5 s, since \d+ s\)$/);
        expect(await backplaneUp(hub)).toBe(0);
      }
    } finally {
      redis.process.kill('SIGCONT');
    }
    for (const hub of hubs) await expect.poll(() => health(hub), { timeout: 10_000 }).toEqual({ status: 200, body: 'ok' });
  }, 40_000);
});
