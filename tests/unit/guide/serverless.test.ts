/** Serverless mode in the guide's math: the two REST scenarios' traffic, their tables read by the
 *  tier rows, no app servers, and the link to the guide's section. */
import { describe, expect, it } from 'vitest';
import { expectedTraffic } from '../../../core/guide/capacity-formulas.ts';
import { appServerAdvice } from '../../../core/guide/appServers.ts';
import { guideSectionUrl, isServerlessScenario, scenarioTable, SERVERLESS_SCENARIOS } from '../../../core/guide/tables.ts';
import { tierRows } from '../../../core/tiers/tier-figures.ts';

const MB = 1_024_000;
const KB = 1024;

describe('expected traffic reproduces the serverless rows (2,048 B every 1 s)', () => {
  it.each([
    { name: 'REST broadcast Unit1: 2 senders to 1,000', scenario: 'restBroadcast' as const, connections: 1000, senders: 2, inMsgs: 2, outMsgs: 2000, inBytes: 4 * KB, outBytes: 4 * MB },
    { name: 'REST broadcast Unit100: 2 senders to 100,000', scenario: 'restBroadcast' as const, connections: 100_000, senders: 2, inMsgs: 2, outMsgs: 200_000, inBytes: 4 * KB, outBytes: 400 * MB },
    { name: 'REST send to user 2019 Unit1: 300 senders, one user each', scenario: 'restSendToUser' as const, connections: 1000, senders: 300, inMsgs: 300, outMsgs: 300, inBytes: 600 * KB, outBytes: 600 * KB },
    { name: 'REST send to user current Unit1: 200 senders', scenario: 'restSendToUser' as const, connections: 1000, senders: 200, inMsgs: 200, outMsgs: 200, inBytes: 400 * KB, outBytes: 400 * KB },
  ])('$name', ({ scenario, connections, senders, inMsgs, outMsgs, inBytes, outBytes }) => {
    const t = expectedTraffic({ scenario, connections, senders, messageBytes: 2048, sendIntervalMs: 1000 });
    expect([t.inboundMessagesPerSecond, t.outboundMessagesPerSecond, t.inboundBytesPerSecond, t.outboundBytesPerSecond]).toEqual([inMsgs, outMsgs, inBytes, outBytes]);
  });

  it.each([
    { scenario: 'restBroadcast' as const, senders: 1, recipients: 500 },
    { scenario: 'restSendToUser' as const, senders: 500, recipients: 1 },
  ])('$scenario defaults: $senders senders, $recipients recipients per message (500 connections)', ({ scenario, senders, recipients }) => {
    const t = expectedTraffic({ scenario, connections: 500, messageBytes: 2048, sendIntervalMs: 1000 });
    expect([t.senders, t.recipientsPerMessage]).toEqual([senders, recipients]);
  });
});

describe('the serverless tables, per edition', () => {
  it('names the two scenarios and only them', () => {
    expect(SERVERLESS_SCENARIOS).toEqual(['restBroadcast', 'restSendToUser']);
    expect(['restBroadcast', 'restSendToUser', 'broadcast', 'sendToConnection'].map(isServerlessScenario)).toEqual([true, true, false, false]);
  });

  it('reads REST send to user per Unit as each edition publishes it: 300/s on 2019 Unit1, 200/s on current Unit1', () => {
    const measured = { connections: 1000, inboundMessagesPerSecond: 300, outboundMessagesPerSecond: 300, inboundBytesPerSecond: 600 * KB, outboundBytesPerSecond: 600 * KB };
    const old = tierRows('2019', 'Unit1', 'restSendToUser', measured);
    const now = tierRows('current', 'Unit1', 'restSendToUser', measured);
    expect(old.map((row) => row.published)).toEqual([1000, 300, 300, 600 * KB, 600 * KB]);
    expect(now.map((row) => row.published)).toEqual([1000, 200, 200, 400 * KB, 400 * KB]);
    expect(now.find((row) => row.column === 'inboundMessagesPerSecond')?.text).toBe("300 msg/s out of Unit1's 200 (150%)");
  });

  it('reads REST broadcast: 2 msg/s in at every tier, 2,000 out per Unit', () => {
    const rows = (tier: string) => tierRows('current', tier, 'restBroadcast', { connections: 0, inboundMessagesPerSecond: 2, outboundMessagesPerSecond: 0, inboundBytesPerSecond: 0, outboundBytesPerSecond: 0 });
    expect(rows('Unit10').map((row) => row.published)).toEqual([10_000, 2, 20_000, 4 * KB, 40 * MB]);
    expect(rows('Unit1000').find((row) => row.column === 'outboundMessagesPerSecond')?.published).toBe(2_000_000);
  });

  it('a tier the 2019 edition has and the current one does not is said so, not read as zero', () => {
    const rows = tierRows('current', 'Unit5', 'restSendToUser', { connections: 5000, inboundMessagesPerSecond: 900, outboundMessagesPerSecond: 900, inboundBytesPerSecond: 0, outboundBytesPerSecond: 0 });
    expect(rows[1]?.published).toBeNull();
    expect(rows[1]?.text).toBe('900 msg/s; the current guide publishes no send to user through REST API inbound messages for Unit5');
  });

  it('links the Serverless mode section of the guide at each table\'s anchor', () => {
    expect(guideSectionUrl('current', scenarioTable('current', 'restSendToUser').anchor)).toBe('https://learn.microsoft.com/azure/azure-signalr/signalr-concept-performance#send-to-user-through-rest-api');
    expect(guideSectionUrl('2019', scenarioTable('2019', 'restBroadcast').anchor)).toBe('https://learn.microsoft.com/azure/azure-signalr/signalr-concept-performance#broadcast-through-rest-api');
  });
});

describe('no app server in serverless mode', () => {
  it('a REST part adds no app server to a mixed workload', () => {
    const advice = appServerAdvice('2019', [
      { label: 'echo', scenario: 'echo', connections: 1000 },
      { label: 'REST', scenario: 'restBroadcast', connections: 100_000 },
    ]);
    expect(advice.perPart.map((part) => part.label)).toEqual(['echo']);
    expect(advice.recommended).toBe(2);
  });
});
