/**
 * The engine against the real hub-sample with the real @microsoft/signalr client, for every
 * transport and protocol: every message sent comes back exactly once and is measured.
 */
import { describe, expect, it } from 'vitest';
import { PROTOCOLS, TRANSPORTS, validateRunConfig } from '../../core/run-config.ts';
import { hubConfig, runInProcess } from '../support/hub-run.ts';

const config = hubConfig;
const run = runInProcess;

describe('echo against the hub-sample', () => {
  for (const transport of TRANSPORTS) {
    for (const protocol of PROTOCOLS) {
      if (transport === 'ServerSentEvents' && protocol === 'messagepack') continue;
      it(`${transport} + ${protocol}: 10 connections, every message back exactly once`, async () => {
        const coordinator = await run(config({ transport, protocol, connections: 10, workers: 2, sendIntervalMs: 200, durationSec: 3 }));
        const { aggregator } = coordinator;
        expect(aggregator.errorSamples()).toEqual([]);
        const totals = aggregator.totals();
        expect(totals.connectionsOpened).toBe(10);
        expect(totals.connectionsFailed).toBe(0);
        // Connection i's first send is planned at i/10 of the 200 ms interval: 15 sends each in 3 s.
        expect(totals.sent).toBe(150);
        expect(totals.received).toBe(150);
        expect(totals.duplicated).toBe(0);
        expect(aggregator.fates()).toMatchObject({ planned: 150, underOneSecond: 150, late: 0 });
        const latency = aggregator.latency();
        expect(latency.count).toBe(150);
        expect(latency.p50Us).toBeGreaterThan(0);
        expect(latency.maxUs).toBeGreaterThanOrEqual(latency.p99Us);
        expect(aggregator.uncorrectedLatency().count).toBe(150);
        // The per-second series holds every received message, once.
        const points = aggregator.points();
        expect(points.reduce((sum, p) => sum + p.received, 0)).toBe(150);
        expect(points.reduce((sum, p) => sum + p.sent, 0)).toBe(150);
      });
    }
  }

  for (const protocol of PROTOCOLS) {
    it(`${protocol}: carries the guide's largest example message, 256 KiB`, async () => {
      const coordinator = await run(config({ protocol, connections: 2, workers: 1, messageBytes: 262_144, sendIntervalMs: 500, durationSec: 2 }));
      expect(coordinator.aggregator.errorSamples()).toEqual([]);
      expect(coordinator.aggregator.totals()).toMatchObject({ sent: 8, received: 8 });
      expect(coordinator.aggregator.fates()).toMatchObject({ planned: 8, underOneSecond: 8 });
    });
  }
});

describe('Server-Sent Events + MessagePack, which SignalR cannot do', () => {
  it('is refused by validation with the reason and what to choose instead', () => {
    const result = validateRunConfig({ endpointUrl: 'http://127.0.0.1:5180/signalrbench', transport: 'ServerSentEvents', protocol: 'messagepack' });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.errors.join(' ')).toMatch(/text only.*Choose JSON with Server-Sent Events/);
  });

  it('if attempted anyway, fails every connection as a transport failure in words, and the run still ends', async () => {
    const valid = config({ connections: 2, workers: 1, durationSec: 1 });
    const coordinator = await run({ ...valid, transport: 'ServerSentEvents', protocol: 'messagepack' });
    const { aggregator } = coordinator;
    expect(aggregator.totals()).toMatchObject({ connectionsOpened: 0, connectionsFailed: 2 });
    expect(aggregator.errorCounts().transport).toBe(2);
    expect(aggregator.errorSamples()[0]!.message).toContain("'ServerSentEvents' does not support Binary");
  });
});

describe('connection failures', () => {
  it('a closed port is counted per connection, worded with the transport, and ends the run cleanly', async () => {
    const coordinator = await run({
      ...config({ connections: 3, workers: 1, durationSec: 1 }),
      endpointUrl: 'http://127.0.0.1:9/signalrbench',
    });
    const { aggregator } = coordinator;
    expect(aggregator.totals()).toMatchObject({ connectionsOpened: 0, connectionsFailed: 3, sent: 0 });
    const samples = aggregator.errorSamples();
    expect(samples.reduce((n, s) => n + s.count, 0)).toBe(3);
    expect(samples[0]!.message).toContain('WebSockets (json) to http://127.0.0.1:9/signalrbench');
    expect(samples[0]!.message).toMatch(/refused|hub is running/);
  });
});
