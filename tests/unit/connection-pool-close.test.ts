/**
 * The end of a run (workers/engine/connection-pool.ts closeAll): every open connection is
 * stopped, never more than CLOSE_CONCURRENCY at once (10,000 stops at once were the runner's
 * peak of resident memory), the ones that never opened are not, and a connection that closes
 * while the pool is closing is not counted as a disconnection.
 */
import { describe, expect, it } from 'vitest';
import { CLOSE_CONCURRENCY, ConnectionPool } from '../../workers/engine/connection-pool.ts';
import { WorkerStats } from '../../workers/engine/worker-stats.ts';
import type { BenchConnection } from '../../workers/engine/connection.ts';
import { FakeTime } from '../support/fake-time.ts';

interface Fake extends BenchConnection {
  stops: number;
  closeHandler?: (error?: Error) => void;
}

function pool(count: number, failing: Set<number>) {
  const time = new FakeTime(1_700_000_000_000_000);
  const stats = new WorkerStats();
  const fakes: Fake[] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  const pending: (() => void)[] = [];
  const connect = (): BenchConnection => {
    const index = fakes.length;
    const fake: Fake = {
      stops: 0,
      connectionId: `c${index}`,
      start: () => (failing.has(index) ? Promise.reject(new Error('refused')) : Promise.resolve()),
      stop: () => {
        fake.stops++;
        mostInFlight = Math.max(mostInFlight, ++inFlight);
        // The hub's answer comes later: the stop ends when the test lets it.
        return new Promise<void>((resolve) => pending.push(() => {
          inFlight--;
          fake.closeHandler?.();
          resolve();
        }));
      },
      bufferedBytes: () => 0,
      send: () => Promise.resolve(),
      invoke: () => Promise.resolve(),
      on: () => {},
      stream: () => ({ subscribe: () => ({ dispose: () => {} }) }),
      upload: () => ({ next: () => {}, complete: () => {} }),
      answer: () => {},
      onClose: (handler) => (fake.closeHandler = handler),
      onReconnecting: () => {},
      onReconnected: () => {},
      cutTransport: () => false,
      onTransportLost: () => {},
      onResumed: () => {},
    };
    fakes.push(fake);
    return fake;
  };
  const connections = new ConnectionPool({ clock: time, timers: time, connect, classify: (error) => ({ kind: 'connect', message: String(error) }), stats, inBrowser: false },
    { endpointUrl: 'http://fake/hub', transport: 'WebSockets', protocol: 'json', reconnect: false }, 0, count, 64);
  /** Answers every stop asked for so far; returns how many. */
  const answer = async () => {
    const now = pending.splice(0);
    for (const done of now) done();
    await new Promise((resolve) => setImmediate(resolve));
    return now.length;
  };
  return { connections, fakes, stats, answer, mostInFlight: () => mostInFlight };
}

describe('closing the pool at the end of a run', () => {
  it('stops every open connection, at most CLOSE_CONCURRENCY at once, and none that failed', async () => {
    const count = CLOSE_CONCURRENCY * 3 + 7;
    const { connections, fakes, stats, answer, mostInFlight } = pool(count, new Set([5, 300]));
    await connections.openAll();
    expect(connections.openCount).toBe(count - 2);
    const closed = connections.closeAll();
    // Every connection counts as closed at once, whatever is still being stopped.
    expect(connections.openCount).toBe(0);
    const waves: number[] = [];
    for (let answered = await answer(); answered > 0; answered = await answer()) waves.push(answered);
    await closed;
    expect(waves[0]).toBe(CLOSE_CONCURRENCY);
    expect(waves.reduce((sum, n) => sum + n, 0)).toBe(count - 2);
    expect(mostInFlight()).toBe(CLOSE_CONCURRENCY);
    expect(fakes.filter((f) => f.stops === 1)).toHaveLength(count - 2);
    expect([fakes[5]!.stops, fakes[300]!.stops]).toEqual([0, 0]);
    expect(connections.connections.filter((c) => c.state === 'closed')).toHaveLength(count - 2);
    // Closing is the run's own doing: no disconnection counted, no error.
    expect(stats.totals.disconnects).toBe(0);
    expect(stats.errorCounts.closed).toBe(0);
  });

  it('with fewer open connections than CLOSE_CONCURRENCY, stops them all at once', async () => {
    const { connections, answer, mostInFlight } = pool(10, new Set());
    await connections.openAll();
    const closed = connections.closeAll();
    expect(await answer()).toBe(10);
    await closed;
    expect(mostInFlight()).toBe(10);
  });
});
