import { describe, expect, it } from 'vitest';
import { ALL_COMBINATIONS, comparisonProblem, planComparison } from '../../core/compare/comparison-plan.ts';
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
});
