/** Which side set the limit: the rule's named cases, table-driven. */
import { describe, expect, it } from 'vitest';
import { explainLimit, SERVER_SATURATED_PERCENT, type LimitInput, type LimitSide } from '../../../core/server-metrics/attribution.ts';
import { runLimit } from '../../../core/result/limit.ts';
import { CLIENT_LAG_LIMIT_MS } from '../../../core/client/schedule.ts';
import { emptyServerRecord, type ServerSecond } from '../../../core/server-metrics/series.ts';

interface Case {
  name: string;
  input: LimitInput;
  side: LimitSide;
  sentence: string;
}

const cases: Case[] = [
  {
    name: 'a saturated server while the client kept its schedule: the service is the limit',
    input: { serverPeakCpuPercent: 96, clientLagMs: 3, missedSlots: 0, sent: 1_000 },
    side: 'server',
    sentence: 'The server was at 96% CPU while the client kept its schedule: the service is the limit.',
  },
  {
    name: 'a client 800 ms behind with an idle server: the client is the limit',
    input: { serverPeakCpuPercent: 35, clientLagMs: 800, missedSlots: 0, sent: 1_000 },
    side: 'client',
    sentence: 'The client lagged 800 ms while the server peaked at 35% CPU: the client is the limit.',
  },
  {
    name: 'missed send slots beyond the guide\'s 1% margin alone make the client the limit',
    input: { serverPeakCpuPercent: 20, clientLagMs: 12, missedSlots: 11, sent: 1_000 },
    side: 'client',
    sentence: 'The client missed 11 send slots (1.10% of its sends) while the server peaked at 20% CPU: the client is the limit.',
  },
  {
    name: 'missed send slots within the 1% margin do not',
    input: { serverPeakCpuPercent: 20, clientLagMs: 12, missedSlots: 10, sent: 1_000 },
    side: 'neither',
    sentence: 'Neither was saturated: the server peaked at 20% CPU and the client kept its schedule.',
  },
  {
    name: 'neither side saturated',
    input: { serverPeakCpuPercent: 30, clientLagMs: 5, missedSlots: 0, sent: 1_000 },
    side: 'neither',
    sentence: 'Neither was saturated: the server peaked at 30% CPU and the client kept its schedule.',
  },
  {
    name: 'both saturated: the figures cannot tell them apart',
    input: { serverPeakCpuPercent: 97, clientLagMs: 1_250, missedSlots: 40, sent: 1_000 },
    side: 'both',
    sentence: 'Both sides were saturated: the server was at 97% CPU and the client lagged 1,250 ms and missed 40 send slots (4.00% of its sends). The figures describe both; run the client on another machine to tell them apart.',
  },
  {
    name: 'above the guide\'s 70% but not saturated: near the limit',
    input: { serverPeakCpuPercent: 75, clientLagMs: 5, missedSlots: 0, sent: 1_000 },
    side: 'near',
    sentence: 'The server peaked at 75% CPU, above the guide\'s advice to stay under 70%, while the client kept its schedule: the service is near its limit.',
  },
  {
    name: 'no server metrics and a client that kept up: unknown, never "neither"',
    input: { serverPeakCpuPercent: null, clientLagMs: 5, missedSlots: 0, sent: 1_000 },
    side: 'unknown',
    sentence: 'The client kept its schedule; the server\'s load is unknown (no CPU reading from its metrics), so which side sets the limit cannot be told.',
  },
  {
    name: 'no server metrics and a lagging client: the client is the limit',
    input: { serverPeakCpuPercent: null, clientLagMs: 400, missedSlots: 0, sent: 1_000 },
    side: 'client',
    sentence: 'The client lagged 400 ms: the client is the limit (the server\'s load is unknown: no CPU reading from its metrics).',
  },
  {
    name: 'a server that stopped answering (stalled or killed) is the limit whatever its CPU said before',
    input: { serverPeakCpuPercent: 14, serverUnanswered: 3, clientLagMs: 4, missedSlots: 0, sent: 1_000 },
    side: 'server',
    sentence: 'The server stopped answering (3 readings of its metrics got no answer) while the client kept its schedule: the service is the limit.',
  },
  {
    name: 'the bounds themselves count as saturated and lagging',
    input: { serverPeakCpuPercent: SERVER_SATURATED_PERCENT, clientLagMs: CLIENT_LAG_LIMIT_MS, missedSlots: 0, sent: 1_000 },
    side: 'both',
    sentence: 'Both sides were saturated: the server was at 90% CPU and the client lagged 250 ms. The figures describe both; run the client on another machine to tell them apart.',
  },
];

describe('explainLimit', () => {
  for (const c of cases) {
    it(c.name, () => {
      expect(explainLimit(c.input)).toEqual({ side: c.side, sentence: c.sentence });
    });
  }
});

describe('runLimit', () => {
  const server = (cpu: (number | null)[]) => ({
    ...emptyServerRecord('http://h/metrics'),
    points: cpu.map((cpuPercent, second): ServerSecond => ({ second, cpuPercent, connections: 1, deliveriesPerSec: 1, gcPauseMsPerSec: 0, threadPoolQueue: 0, workingSetBytes: 1, kestrelConnections: 1, kestrelQueued: 0 })),
  });

  const client = (second: number, planned: number, lag = { maxSendLagMs: 2, eventLoopLagMs: 1 }) => ({ second, fates: { planned }, ...lag });

  it('takes the server\'s peak CPU and the client\'s worst send or event-loop lag over the run', () => {
    const points = [client(1, 10), client(2, 10, { maxSendLagMs: 3, eventLoopLagMs: 650 }), client(3, 10)];
    expect(runLimit({ points, missedSlots: 0, sent: 30, server: server([null, 40, 92, 60]) })).toEqual(explainLimit({ serverPeakCpuPercent: 92, clientLagMs: 650, missedSlots: 0, sent: 1_000 }));
  });

  it('takes the server\'s peak over the seconds that planned sends, not the connects and closes around them', () => {
    // Second 1 opens connections (nothing planned), seconds 2 and 3 send, second 4 closes them.
    const points = [client(1, 0), client(2, 10), client(3, 10), client(4, 0)];
    expect(runLimit({ points, missedSlots: 0, sent: 30, server: server([null, 95, 30, 35, 97]) }).sentence).toBe('Neither was saturated: the server peaked at 35% CPU and the client kept its schedule.');
    // A run that never planned a send: every second counts.
    expect(runLimit({ points: [client(1, 0)], missedSlots: 0, sent: 0, server: server([null, 95]) }).side).toBe('server');
  });

  it('counts unanswered readings only after one was read: failures from the start are an address problem', () => {
    const points = [client(1, 10)];
    expect(runLimit({ points, missedSlots: 0, sent: 30, server: { ...server([10, 12]), failedScrapes: 2 } }).side).toBe('server');
    expect(runLimit({ points, missedSlots: 0, sent: 30, server: { ...server([]), failedScrapes: 5 } }).side).toBe('unknown');
  });

  it('a run kept before server metrics (no record) or whose scrapes all failed reads as unknown on the server side', () => {
    const points = [client(1, 10)];
    expect(runLimit({ points, missedSlots: 0, sent: 30 }).side).toBe('unknown');
    expect(runLimit({ points, missedSlots: 0, sent: 30, server: server([]) }).side).toBe('unknown');
  });
});
