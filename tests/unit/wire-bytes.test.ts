/** Bytes counted as the transport carries them (signalr/wire-bytes.ts) and turned into each interval's figures (WorkerStats). */
import { HubConnectionBuilder, LogLevel, type HubConnection } from '@microsoft/signalr';
import { describe, expect, it, vi } from 'vitest';
import { byteLengthOf, countWireBytes, encodeIntoLength, utf8Length } from '../../signalr/wire-bytes.ts';
import { WorkerStats } from '../../workers/engine/worker-stats.ts';

const TEXTS = ['', 'abc', '{"type":6}\u001e', 'é', '€', '😀', 'a\ud800b', '\udc00', `x${'é€😀'.repeat(3_000)}`, 'y'.repeat(20_000), `${'z'.repeat(16_383)}€`];

describe('UTF-8 length of a text frame or body', () => {
  it.each(TEXTS.map((text) => [text.length, text] as const))('%i UTF-16 units: what TextEncoder writes (a lone surrogate as U+FFFD)', (_, text) => {
    const expected = new TextEncoder().encode(text).byteLength;
    expect(utf8Length(text)).toBe(expected);
    expect(encodeIntoLength(text)).toBe(expected);
  });

  it('binary frames by their byte length, views included', () => {
    expect(byteLengthOf(new ArrayBuffer(17))).toBe(17);
    expect(byteLengthOf(new Uint8Array(new ArrayBuffer(64), 8, 20))).toBe(20);
  });
});

/** A hub connection whose HttpConnection is a fake with the client's field names. */
function fakeHub(state = 'Connected') {
  const send = vi.fn(async (_data: unknown) => {});
  const received = vi.fn();
  const connection = { send, onreceive: received as ((data: unknown) => void) | null, _connectionState: state };
  return { hub: { connection } as unknown as HubConnection, connection, send, received };
}

describe('countWireBytes', () => {
  it('adds every frame handed to the transport and every frame it hands back, and passes each on unchanged', async () => {
    const wire = { sent: 0, received: 0 };
    const { hub, connection, send, received } = fakeHub();
    expect(countWireBytes(hub, wire)).toBe(true);
    await connection.send('{"protocol":"json","version":1}\u001e');
    const binary = new Uint8Array([1, 2, 3, 4, 5]).buffer;
    await connection.send(binary);
    expect(send.mock.calls.map(([data]) => data)).toEqual(['{"protocol":"json","version":1}\u001e', binary]);
    expect(wire.sent).toBe(32 + 5);
    connection.onreceive!('{}\u001e');
    connection.onreceive!('é');
    expect(received.mock.calls.map(([data]) => data)).toEqual(['{}\u001e', 'é']);
    expect(wire.received).toBe(3 + 2);
  });

  it('does not count what a connection that is not connected refuses to send', async () => {
    const wire = { sent: 0, received: 0 };
    const { hub, connection } = fakeHub('Disconnected');
    countWireBytes(hub, wire);
    await connection.send('abc');
    expect(wire.sent).toBe(0);
  });

  it("finds the official client's fields: a version that moved them fails here, not silently in a run", () => {
    const hub = new HubConnectionBuilder().withUrl('http://127.0.0.1:1/hub').configureLogging(LogLevel.None).build();
    const wire = { sent: 0, received: 0 };
    expect(countWireBytes(hub, wire)).toBe(true);
    const connection = (hub as unknown as { connection: { _connectionState: string } }).connection;
    expect(connection._connectionState).toBe('Disconnected');
  });
});

describe("a worker's byte figures", () => {
  it('each interval holds what its connections carried since the last one; the totals, all of it', () => {
    const stats = new WorkerStats();
    stats.wire.sent += 100;
    stats.wire.received += 250;
    const first = stats.takeInterval();
    expect(first.interval).toMatchObject({ sentBytes: 100, receivedBytes: 250 });
    expect(stats.totals).toMatchObject({ sentBytes: 100, receivedBytes: 250 });
    stats.wire.sent += 40;
    const second = stats.takeInterval();
    expect(second.interval).toMatchObject({ sentBytes: 40, receivedBytes: 0 });
    expect(stats.totals).toMatchObject({ sentBytes: 140, receivedBytes: 250 });
    // A send and a reception recorded add messages, never bytes: those are the wire's.
    stats.recordSend(0, 1_000_000);
    stats.recordReceive(1, 2, 0);
    expect(stats.takeInterval().interval).toEqual({ sent: 1, received: 1, sentBytes: 0, receivedBytes: 0 });
  });
});
