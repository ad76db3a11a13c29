import { describe, expect, it } from 'vitest';
import { ALL_COMBINATIONS, comparisonProblem, planComparison, rankingNeeds } from '../../core/compare/comparison-runs.ts';
import { testConfig } from '../support/finished-run.ts';

describe('planComparison', () => {
  it('plans every chosen combination in a fixed order with its own configuration; the load stays the same', () => {
    const base = testConfig({ endpointUrl: 'https://hub.example/signalrbench', scenario: 'broadcast', connections: 20, workers: 2 });
    const plan = planComparison(base, [{ transport: 'LongPolling', protocol: 'json' }, { transport: 'WebSockets', protocol: 'messagepack' }, { transport: 'LongPolling', protocol: 'json' }]);
    expect(plan.map((p) => p.label)).toEqual(['WebSockets + MessagePack', 'Long Polling + JSON']);
    for (const p of plan) {
      expect(p.refusals).toEqual([]);
      expect(p.config).toEqual({ ...base, transport: p.transport, protocol: p.protocol });
    }
  });

  it('refuses Server-Sent Events with MessagePack with the reason, and runs the rest', () => {
    const plan = planComparison(testConfig({ endpointUrl: 'https://hub.example/signalrbench' }), ALL_COMBINATIONS);
    expect(plan).toHaveLength(6);
    const refused = plan.filter((p) => p.config === null);
    expect(refused.map((p) => p.label)).toEqual(['Server-Sent Events + MessagePack']);
    expect(refused[0]!.refusals.join(' ')).toMatch(/Server-Sent Events carry text only/);
    expect(comparisonProblem(plan, 3)).toBeNull();
  });

  it('states the browser\'s limits beside the affected combinations only', () => {
    const plan = planComparison(testConfig({ endpointUrl: 'http://127.0.0.1:5180/signalrbench', connections: 20 }), ALL_COMBINATIONS);
    const limited = plan.filter((p) => p.limits.length > 0).map((p) => p.label);
    expect(limited).toEqual(['Server-Sent Events + JSON', 'Server-Sent Events + MessagePack', 'Long Polling + JSON', 'Long Polling + MessagePack']);
    expect(plan.find((p) => p.transport === 'LongPolling')!.limits[0]!.message).toMatch(/6 connections per origin/);
    const many = planComparison(testConfig({ connections: 300, workers: 2 }), [{ transport: 'WebSockets', protocol: 'json' }]);
    expect(many[0]!.limits[0]!.message).toMatch(/255 WebSockets per browser profile/);
  });

  it('needs two runnable combinations and a whole pause', () => {
    const base = testConfig();
    const one = planComparison(base, [{ transport: 'WebSockets', protocol: 'json' }, { transport: 'ServerSentEvents', protocol: 'messagepack' }]);
    expect(comparisonProblem(one, 3)).toMatch(/at least two combinations that can run; only one is chosen \(1 refused, see the reasons beside them\)/);
    expect(comparisonProblem([], 3)).toMatch(/none is chosen/);
    const two = planComparison(base, ALL_COMBINATIONS.slice(0, 2));
    expect(comparisonProblem(two, -1)).toMatch(/pause between combinations must be a whole number of seconds from 0 to 600, but is -1/);
    expect(comparisonProblem(two, 0)).toBeNull();
  });

  it('says before Start what Server-Sent Events and long polling need over http:// to be ranked, nothing over https://', () => {
    const sse = [{ transport: 'WebSockets' as const, protocol: 'json' as const }, { transport: 'ServerSentEvents' as const, protocol: 'json' as const }, { transport: 'LongPolling' as const, protocol: 'json' as const }];
    expect(rankingNeeds('http://127.0.0.1:5180/signalrbench', sse)).toBe(
      'Over http:// this browser gives Server-Sent Events and long polling 6 connections per origin (4 usable). A p99 is ranked only from 500 messages a run: with 4 connections, 125 messages each (125 s at one a second, 32 s at four). Over https:// (HTTP/2) they take up to 100 connections and the same messages come in a few seconds.',
    );
    expect(rankingNeeds('https://127.0.0.1:5181/signalrbench', sse)).toBeNull();
    expect(rankingNeeds('http://127.0.0.1:5180/signalrbench', [{ transport: 'WebSockets', protocol: 'json' }, { transport: 'WebSockets', protocol: 'messagepack' }])).toBeNull();
  });
});
