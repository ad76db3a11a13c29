import { describe, it, expect } from 'vitest';
import {
  bandwidthBytesPerSecond,
  connectionsFor,
  effectiveMessageBytes,
  expectedTraffic,
  messageBytesFor,
  sendIntervalMsFor,
  type GuideRunConfig,
} from '../../../core/guide/capacity-formulas.ts';
import { cell, scenarioTable } from '../../../core/guide/tables.ts';
import { BINARY_BYTES, DECIMAL_BYTES, GUIDE_BYTES, kilobytesToBytes, megabytesToBytes } from '../../../core/guide/units.ts';

const MB = 1_024_000;
const KB = 1024;

describe('bandwidth = connections x messageSize / sendInterval', () => {
  it.each([
    { name: 'quick evaluation Unit1: 1,000 x 2,048 B every 1 s = 2 MBps', connections: 1000, messageBytes: 2048, sendIntervalMs: 1000, bytesPerSecond: 2 * MB },
    { name: 'Unit100 echo: 100,000 x 2,048 B every 1 s = 200 MBps', connections: 100_000, messageBytes: 2048, sendIntervalMs: 1000, bytesPerSecond: 200 * MB },
    { name: 'broadcast inbound: 2 x 2,048 B every 1 s = 4 KBps', connections: 2, messageBytes: 2048, sendIntervalMs: 1000, bytesPerSecond: 4 * KB },
    { name: '0.5 s per message doubles the rate', connections: 1000, messageBytes: 2048, sendIntervalMs: 500, bytesPerSecond: 4 * MB },
    { name: 'worked example: 100,000 x 20 KB every 5 s = 400 MBps', connections: 100_000, messageBytes: 20 * KB, sendIntervalMs: 5000, bytesPerSecond: 400 * MB },
  ])('$name', ({ connections, messageBytes, sendIntervalMs, bytesPerSecond }) => {
    expect(bandwidthBytesPerSecond({ connections, messageBytes, sendIntervalMs })).toBe(bytesPerSecond);
  });

  it('solves for each unknown from the other two (Unit10 echo: 10,000 x 2,048 B every 1 s = 20 MBps)', () => {
    const bytesPerSecond = 20 * MB;
    expect(connectionsFor({ bytesPerSecond, messageBytes: 2048, sendIntervalMs: 1000 })).toBe(10_000);
    expect(messageBytesFor({ bytesPerSecond, connections: 10_000, sendIntervalMs: 1000 })).toBe(2048);
    expect(sendIntervalMsFor({ bytesPerSecond, connections: 10_000, messageBytes: 2048 })).toBe(1000);
  });

  it.each([
    { name: 'zero interval', call: () => bandwidthBytesPerSecond({ connections: 1, messageBytes: 2048, sendIntervalMs: 0 }), message: /sendIntervalMs must be a positive number of milliseconds/ },
    { name: 'negative interval', call: () => connectionsFor({ bytesPerSecond: 1, messageBytes: 2048, sendIntervalMs: -5 }), message: /sendIntervalMs must be a positive/ },
    { name: 'zero message size', call: () => bandwidthBytesPerSecond({ connections: 1, messageBytes: 0, sendIntervalMs: 1000 }), message: /messageBytes must be a positive number of bytes/ },
    { name: 'NaN connections', call: () => bandwidthBytesPerSecond({ connections: Number.NaN, messageBytes: 1, sendIntervalMs: 1 }), message: /connections must be a non-negative number/ },
    { name: 'zero bandwidth for an interval', call: () => sendIntervalMsFor({ bytesPerSecond: 0, connections: 1, messageBytes: 1 }), message: /bytesPerSecond must be a positive/ },
  ])('rejects $name with an Error that says what to pass', ({ call, message }) => {
    expect(call).toThrow(Error);
    expect(call).toThrow(message);
  });
});

describe('the worked example: Unit100 broadcast, 400 MBps outbound, every 5 s', () => {
  // The guide: "400 MB * 5 / 20 KB = 100,000". Its table also lists 256 KB -> 8,000 connections.
  const outbound = (convention = GUIDE_BYTES) => megabytesToBytes(400, convention);
  const size = (kb: number, convention = GUIDE_BYTES) => kilobytesToBytes(kb, convention);

  it('uses Unit100\'s published maximum outbound bandwidth', () => {
    expect(cell(scenarioTable('2019', 'broadcast'), 'Unit100', 'outboundBytesPerSecond').value).toBe(outbound());
  });

  it.each([
    { name: '20 KB, guide units (1 MB = 1,000 KB): exactly 100,000', kb: 20, convention: GUIDE_BYTES, connections: 100_000 },
    { name: '20 KB, SI units: exactly 100,000', kb: 20, convention: DECIMAL_BYTES, connections: 100_000 },
    { name: '20 KB, binary units (1 MB = 1,024 KB): 102,400, not the guide\'s number', kb: 20, convention: BINARY_BYTES, connections: 102_400 },
    { name: '256 KB, binary units: exactly 8,000', kb: 256, convention: BINARY_BYTES, connections: 8000 },
    { name: '256 KB, guide units: 7,812.5 (published 8,000, flagged)', kb: 256, convention: GUIDE_BYTES, connections: 7812.5 },
  ])('$name', ({ kb, convention, connections }) => {
    const result = connectionsFor({ bytesPerSecond: outbound(convention), messageBytes: size(kb, convention), sendIntervalMs: 5000 });
    expect(result).toBe(connections);
  });

  it('256 KB in guide units rounds to the published 8,000 at one significant figure', () => {
    const result = connectionsFor({ bytesPerSecond: outbound(), messageBytes: size(256), sendIntervalMs: 5000 });
    expect(Number(result.toPrecision(1))).toBe(8000);
  });

  it('one broadcaster to 100,000 connections, 20 KB every 5 s, is exactly Unit100\'s 400 MBps', () => {
    const traffic = expectedTraffic({ scenario: 'broadcast', connections: 100_000, senders: 1, messageBytes: 20 * KB, sendIntervalMs: 5000 });
    expect(traffic.outboundBytesPerSecond).toBe(400 * MB);
    expect(traffic.inboundMessagesPerSecond).toBe(0.2);
  });
});

describe('messages under 1,024 B count as 1,024 B', () => {
  it.each([
    { messageBytes: 1, effective: 1024 },
    { messageBytes: 100, effective: 1024 },
    { messageBytes: 1023, effective: 1024 },
    { messageBytes: 1024, effective: 1024 },
    { messageBytes: 1025, effective: 1025 },
    { messageBytes: 2048, effective: 2048 },
  ])('$messageBytes B costs like $effective B', ({ messageBytes, effective }) => {
    expect(effectiveMessageBytes(messageBytes)).toBe(effective);
  });

  it('reports raw and effective bandwidth side by side', () => {
    const traffic = expectedTraffic({ scenario: 'echo', connections: 1000, messageBytes: 100, sendIntervalMs: 1000 });
    expect(traffic.inboundBytesPerSecond).toBe(100_000);
    expect(traffic.effectiveInboundBytesPerSecond).toBe(1000 * 1024);
  });
});

describe('expected traffic reproduces the guide\'s benchmark rows (2,048 B every 1 s)', () => {
  const cases: Array<{ name: string; config: GuideRunConfig; inMsgs: number; outMsgs: number; inBytes: number; outBytes: number }> = [
    { name: 'echo Unit1: 1,000 connections', config: { scenario: 'echo', connections: 1000, messageBytes: 2048, sendIntervalMs: 1000 }, inMsgs: 1000, outMsgs: 1000, inBytes: 2 * MB, outBytes: 2 * MB },
    { name: 'broadcast Unit1: 2 senders to 1,000', config: { scenario: 'broadcast', connections: 1000, senders: 2, messageBytes: 2048, sendIntervalMs: 1000 }, inMsgs: 2, outMsgs: 2000, inBytes: 4 * KB, outBytes: 4 * MB },
    { name: 'broadcast Unit100: 2 senders to 100,000', config: { scenario: 'broadcast', connections: 100_000, senders: 2, messageBytes: 2048, sendIntervalMs: 1000 }, inMsgs: 2, outMsgs: 200_000, inBytes: 4 * KB, outBytes: 400 * MB },
    { name: 'small group 2019 Unit50: 7,000 senders, groups of 10', config: { scenario: 'smallGroup', connections: 50_000, senders: 7000, messageBytes: 2048, sendIntervalMs: 1000 }, inMsgs: 7000, outMsgs: 70_000, inBytes: 14 * MB, outBytes: 140 * MB },
    { name: 'big group Unit2: 20 senders, 10 groups of 200', config: { scenario: 'bigGroup', connections: 2000, senders: 20, messageBytes: 2048, sendIntervalMs: 1000 }, inMsgs: 20, outMsgs: 4000, inBytes: 40 * KB, outBytes: 8 * MB },
    { name: 'send to connection 2019 Unit10: 8,000 senders', config: { scenario: 'sendToConnection', connections: 10_000, senders: 8000, messageBytes: 2048, sendIntervalMs: 1000 }, inMsgs: 8000, outMsgs: 8000, inBytes: 16 * MB, outBytes: 16 * MB },
  ];
  it.each(cases)('$name', ({ config, inMsgs, outMsgs, inBytes, outBytes }) => {
    const t = expectedTraffic(config);
    expect([t.inboundMessagesPerSecond, t.outboundMessagesPerSecond, t.inboundBytesPerSecond, t.outboundBytesPerSecond]).toEqual([inMsgs, outMsgs, inBytes, outBytes]);
  });

  it.each([
    { scenario: 'echo' as const, senders: 500, recipients: 1 },
    { scenario: 'sendToConnection' as const, senders: 500, recipients: 1 },
    { scenario: 'smallGroup' as const, senders: 500, recipients: 10 },
    { scenario: 'broadcast' as const, senders: 1, recipients: 500 },
    { scenario: 'bigGroup' as const, senders: 1, recipients: 50 },
  ])('$scenario defaults: $senders senders, $recipients recipients per message (500 connections)', ({ scenario, senders, recipients }) => {
    const t = expectedTraffic({ scenario, connections: 500, messageBytes: 2048, sendIntervalMs: 1000 });
    expect([t.senders, t.recipientsPerMessage]).toEqual([senders, recipients]);
  });

  it('uses an explicit group size and derives big-group size from the group count', () => {
    expect(expectedTraffic({ scenario: 'smallGroup', connections: 100, groupSize: 5, messageBytes: 2048, sendIntervalMs: 1000 }).outboundMessagesPerSecond).toBe(500);
    expect(expectedTraffic({ scenario: 'bigGroup', connections: 1000, groupCount: 4, messageBytes: 2048, sendIntervalMs: 1000 }).recipientsPerMessage).toBe(250);
  });

  it.each([
    { name: 'more senders than connections', config: { scenario: 'echo', connections: 10, senders: 11, messageBytes: 1, sendIntervalMs: 1 }, message: /senders \(11\) cannot exceed connections \(10\)/ },
    { name: 'fractional connections', config: { scenario: 'echo', connections: 10.5, messageBytes: 1, sendIntervalMs: 1 }, message: /connections must be a whole number/ },
    { name: 'a group larger than the run', config: { scenario: 'smallGroup', connections: 10, groupSize: 20, messageBytes: 1, sendIntervalMs: 1 }, message: /groupSize \(20\) cannot exceed connections/ },
    { name: 'zero groups', config: { scenario: 'bigGroup', connections: 10, groupCount: 0, messageBytes: 1, sendIntervalMs: 1 }, message: /groupCount must be a positive number/ },
    { name: 'an unknown scenario', config: { scenario: 'multicast', connections: 10, messageBytes: 1, sendIntervalMs: 1 }, message: /Unknown scenario "multicast"/ },
    { name: 'a zero interval', config: { scenario: 'echo', connections: 10, messageBytes: 2048, sendIntervalMs: 0 }, message: /sendIntervalMs must be a positive/ },
  ])('rejects $name', ({ config, message }) => {
    expect(() => expectedTraffic(config as GuideRunConfig)).toThrow(message);
  });
});
