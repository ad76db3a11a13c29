/**
 * Every scenario of the guide against the real hub-sample with the real client: exact delivery
 * counts, nothing lost or duplicated.
 */
import { describe, expect, it } from 'vitest';
import type { RunConfig } from '../../core/run-config/config.ts';
import { runResult } from '../../core/result/document.ts';
import { hubConfig, runInProcess } from '../support/hub-run.ts';

function config(overrides: Partial<RunConfig>): RunConfig {
  return hubConfig({ workers: 2, sendIntervalMs: 500, durationSec: 2, ...overrides });
}

async function run(runConfig: RunConfig) {
  const coordinator = await runInProcess(runConfig);
  const { aggregator } = coordinator;
  expect(aggregator.errorSamples()).toEqual([]);
  const { fates, verdict } = runResult(coordinator, new Date(), 'test');
  expect(verdict.status).toBe('pass');
  return { totals: { ...aggregator.totals(), expected: fates.planned }, lost: fates.lost, latency: aggregator.latency() };
}

// Each connection's sends are planned at offsets i/N of the 500-ms interval over 2 s: 4 each.
const SENDS_PER_SENDER = 4;

describe('scenarios against the hub-sample', () => {
  it('broadcast, 50 connections and 2 senders: every send received by all 50', async () => {
    const { totals, lost, latency } = await run(config({ scenario: 'broadcast', connections: 50 }));
    expect(totals.sent).toBe(2 * SENDS_PER_SENDER);
    expect(totals.expected).toBe(2 * SENDS_PER_SENDER * 50);
    expect(totals.received).toBe(400);
    expect(totals.duplicated).toBe(0);
    expect(lost).toBe(0);
    expect(latency.count).toBe(400);
  });

  it('small groups, 40 connections over MessagePack: 4 groups of 10, every member sends, all 10 members receive', async () => {
    const { totals, lost } = await run(config({ scenario: 'smallGroup', connections: 40, protocol: 'messagepack' }));
    expect(totals.sent).toBe(40 * SENDS_PER_SENDER);
    expect(totals.expected).toBe(40 * SENDS_PER_SENDER * 10);
    expect(totals.received).toBe(1_600);
    expect(lost).toBe(0);
  });

  it('big groups, 100 connections: 10 groups of 10, 40 senders', async () => {
    const { totals, lost } = await run(config({ scenario: 'bigGroup', connections: 100 }));
    expect(totals.sent).toBe(40 * SENDS_PER_SENDER);
    expect(totals.expected).toBe(40 * SENDS_PER_SENDER * 10);
    expect(totals.received).toBe(totals.expected);
    expect(totals.duplicated).toBe(0);
    expect(lost).toBe(0);
  });

  it('send to connection, 20 connections over long polling: each message reaches its one target', async () => {
    const { totals, lost } = await run(config({ scenario: 'sendToConnection', connections: 20, transport: 'LongPolling' }));
    expect(totals.sent).toBe(20 * SENDS_PER_SENDER);
    expect(totals.expected).toBe(80);
    expect(totals.received).toBe(80);
    expect(lost).toBe(0);
  });

  it('warm-up: the first second of sends is left out of every figure', async () => {
    const { totals, latency } = await run(config({ scenario: 'echo', connections: 10, durationSec: 3, warmupSec: 1 }));
    // 6 sends per connection in 3 s at 500 ms; the 2 planned in the first second are warm-up.
    expect(totals.sent).toBe(40);
    expect(totals.received).toBe(40);
    expect(latency.count).toBe(40);
  });

  it('counts the bytes the transport carried: JSON echo of 2,048 B sends and receives a little over 2 KB per message', async () => {
    const { totals } = await run(config({ scenario: 'echo', connections: 2, workers: 1 }));
    const perSent = totals.sentBytes / totals.sent;
    const perReceived = totals.receivedBytes / totals.received;
    // {"type":1,"target":"Echo","arguments":[ts,"<2,048 chars>"]} plus the record separator (about
    // 60 B over the payload), and each connection's handshake and the method check spread over
    // the few sends of this run. Against a capture of the wire: tests/integration/wire-bytes.test.ts.
    expect(perSent).toBeGreaterThan(2_048 + 55);
    expect(perSent).toBeLessThan(2_048 + 160);
    expect(perReceived).toBeGreaterThan(2_048 + 55);
    expect(perReceived).toBeLessThan(2_048 + 160);
  });
});
