/**
 * ScenarioPlan.sendersHeardBy sizes each receiver's duplicate window: it must say, per connection,
 * how many configured senders reach it. Checked against the plan's own senders and groups: summed
 * over receivers it equals what the senders' messages plan (each send's recipients).
 */
import { describe, expect, it } from 'vitest';
import { planScenario, type PlanInput, type ScenarioPlan } from '../../core/plan/scenario-roles.ts';

function plan(input: Partial<PlanInput> & Pick<PlanInput, 'scenario' | 'connections'>): ScenarioPlan {
  const result = planScenario({ senders: null, groupSize: null, groupCount: null, ...input });
  if (!result.ok) throw new Error(result.errors.join(' '));
  return result.plan;
}

const heard = (p: ScenarioPlan, connections: number) => Array.from({ length: connections }, (_, i) => p.sendersHeardBy(i));

describe('sendersHeardBy', () => {
  it('echo and send to connection: every connection hears exactly one', () => {
    expect(new Set(heard(plan({ scenario: 'echo', connections: 1_000 }), 1_000))).toEqual(new Set([1]));
    expect(new Set(heard(plan({ scenario: 'sendToConnection', connections: 7 }), 7))).toEqual(new Set([1]));
  });

  it('broadcast: every connection hears every sender, the default 2 or the configured count', () => {
    expect(new Set(heard(plan({ scenario: 'broadcast', connections: 500 }), 500))).toEqual(new Set([2]));
    const p = plan({ scenario: 'broadcast', connections: 500, senders: 100 });
    expect(new Set(heard(p, 500))).toEqual(new Set([100]));
    expect(heard(p, 500).filter((_, i) => p.isSender(i))).toHaveLength(100);
  });

  for (const input of [
    { scenario: 'smallGroup', connections: 1_003 },
    { scenario: 'bigGroup', connections: 10_007 },
    { scenario: 'bigGroup', connections: 1_000, groupCount: 3, senders: 7 },
    { scenario: 'smallGroup', connections: 105, groupSize: 10, groupCount: 10, senders: 13 },
  ] as const) {
    it(`groups (${JSON.stringify(input)}): a member hears its group's senders, a non-member none; the sum matches the sends`, () => {
      const p = plan(input);
      const n = input.connections;
      const h = heard(p, n);
      const sendersIn = new Array<number>(p.groupCount).fill(0);
      for (let i = 0; i < n; i++) if (p.isSender(i)) sendersIn[p.groupOf(i)]!++;
      for (let i = 0; i < n; i++) expect(h[i]).toBe(p.groupOf(i) < 0 ? 0 : sendersIn[p.groupOf(i)]);
      // Each sender's message reaches its group's configured members.
      const planned = sendersIn.reduce((sum, senders, g) => sum + senders * p.membersOf(g), 0);
      expect(h.reduce((a, b) => a + b, 0)).toBe(planned);
    });
  }

  it('a custom plan with connections left over: they hear nobody', () => {
    const p = plan({ scenario: 'smallGroup', connections: 105, groupSize: 10, groupCount: 10 });
    expect(heard(p, 105).slice(100)).toEqual([0, 0, 0, 0, 0]);
    expect(p.sendersHeardBy(0)).toBe(10);
  });
});
