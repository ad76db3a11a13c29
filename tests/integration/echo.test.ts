/**
 * The engine against the real hub-sample with the real @microsoft/signalr client, for every
 * transport and protocol: every message sent comes back exactly once and is measured.
 */
import { HubConnectionBuilder, HttpTransportType, LogLevel, MessageType, type InvocationMessage } from '@microsoft/signalr';
import { MessagePackHubProtocol } from '@microsoft/signalr-protocol-msgpack';
import { describe, expect, inject, it } from 'vitest';
import { PROTOCOLS, TRANSPORTS, validateRunConfig } from '../../core/run-config/config.ts';
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
        expect(latency.maxUs).toBeGreaterThanOrEqual(latency.p99Us!);
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

/**
 * Remembers the size of every MessagePack frame the client parses. One WebSocket message may
 * carry several frames (the Measure and the Echo's completion arrive together), each behind a
 * varint length prefix.
 */
class MeasuringMessagePack extends MessagePackHubProtocol {
  readonly frameBytes: number[] = [];
  override parseMessages(...args: Parameters<MessagePackHubProtocol['parseMessages']>) {
    const bytes = new Uint8Array(args[0]);
    for (let at = 0; at < bytes.length; ) {
      let length = 0;
      let prefix = 0;
      for (let shift = 0; ; shift += 7) {
        const byte = bytes[at + prefix++]!;
        length |= (byte & 0x7f) << shift;
        if (byte < 0x80) break;
      }
      this.frameBytes.push(prefix + length);
      at += prefix + length;
    }
    return super.parseMessages(...args);
  }
}

describe('timestamps and bytes on the wire, with the bare official client', () => {
  // Microseconds since the Unix epoch, as the engine sends them: above 2^32, below 2^53. MessagePack
  // writes it as a uint64 and the hub's `long ts` must bind it and write it back unchanged.
  const TS_US = 1_731_234_567_890_123;

  for (const protocol of PROTOCOLS) {
    it(`${protocol}: a 1.7e15 µs timestamp comes back exactly`, async () => {
      const wire = new MeasuringMessagePack();
      let builder = new HubConnectionBuilder()
        .withUrl(`${inject('hubHttpUrl')}/signalrbench`, { transport: HttpTransportType.WebSockets })
        .configureLogging(LogLevel.None);
      if (protocol === 'messagepack') builder = builder.withHubProtocol(wire);
      const hub = builder.build();
      await hub.start();
      try {
        const measured = new Promise<[unknown, unknown]>((resolve) => hub.on('Measure', (ts, payload) => resolve([ts, payload])));
        await hub.invoke('Echo', TS_US, 'x'.repeat(300));
        const [ts, payload] = await measured;
        expect(ts).toBe(TS_US);
        expect(payload).toBe('x'.repeat(300));
        if (protocol === 'messagepack') {
          // Microsoft's server writes an Invocation with 6 items (an empty stream-id array at the
          // end); the JS client's writer writes 5. So a delivery is 1 byte longer than the
          // client's own writer would make it (the tool counts the bytes as they arrive).
          const written = new MessagePackHubProtocol().writeMessage({ type: MessageType.Invocation, target: 'Measure', arguments: [TS_US, 'x'.repeat(300)] } as InvocationMessage);
          const measureFrame = written.byteLength + 1;
          expect(wire.frameBytes).toContain(measureFrame);
        }
      } finally {
        await hub.stop();
      }
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
