/**
 * Group plans: named cases for the guide's presets and custom plans, each checked against the
 * exact group sizes and sender counts, plus the invariants every plan must keep (each connection
 * in one group, groups within one member of each other, senders spread over the groups).
 */
import { describe, expect, it } from 'vitest';
import { planGroups, type GroupPlan, type GroupPlanInput } from '../../core/plan/group-membership.ts';

interface PlanCase {
  name: string;
  input: GroupPlanInput;
  groupCount: number;
  groupSize: number;
  /** Group sizes as "count x members", largest first. */
  sizes: string;
  senderCount: number;
  /** Senders per group as "count x senders", most first. */
  senders: string;
  memberCount: number;
}

const CASES: PlanCase[] = [
  {
    name: 'small groups, 100 connections: 10 groups of 10, all send',
    input: { connections: 100, preset: 'smallGroups' },
    groupCount: 10, groupSize: 10, sizes: '10x10', senderCount: 100, senders: '10x10', memberCount: 100,
  },
  {
    name: "small groups, 1,000 connections: the guide's Unit1 example, 100 groups",
    input: { connections: 1_000, preset: 'smallGroups' },
    groupCount: 100, groupSize: 10, sizes: '100x10', senderCount: 1_000, senders: '100x10', memberCount: 1_000,
  },
  {
    name: 'small groups, 1,005 connections: 101 groups, 5 of them one short',
    input: { connections: 1_005, preset: 'smallGroups' },
    groupCount: 101, groupSize: 10, sizes: '96x10 5x9', senderCount: 1_005, senders: '96x10 5x9', memberCount: 1_005,
  },
  {
    name: 'small groups, 1,001 connections: no group of one',
    input: { connections: 1_001, preset: 'smallGroups' },
    groupCount: 101, groupSize: 10, sizes: '92x10 9x9', senderCount: 1_001, senders: '92x10 9x9', memberCount: 1_001,
  },
  {
    name: 'small groups, 7 connections: one group of 7',
    input: { connections: 7, preset: 'smallGroups' },
    groupCount: 1, groupSize: 7, sizes: '1x7', senderCount: 7, senders: '1x7', memberCount: 7,
  },
  {
    name: 'big groups, 100 connections: 10 groups of 10, 40 senders',
    input: { connections: 100, preset: 'bigGroups' },
    groupCount: 10, groupSize: 10, sizes: '10x10', senderCount: 40, senders: '10x4', memberCount: 100,
  },
  {
    name: "big groups, 1,000 connections: the guide's Unit1 example, groups of 100, 4 senders each",
    input: { connections: 1_000, preset: 'bigGroups' },
    groupCount: 10, groupSize: 100, sizes: '10x100', senderCount: 40, senders: '10x4', memberCount: 1_000,
  },
  {
    name: 'big groups, 1,005 connections: 5 groups of 101, 5 of 100',
    input: { connections: 1_005, preset: 'bigGroups' },
    groupCount: 10, groupSize: 101, sizes: '5x101 5x100', senderCount: 40, senders: '10x4', memberCount: 1_005,
  },
  {
    name: 'big groups, 30 connections: fewer than 40, so all 30 send',
    input: { connections: 30, preset: 'bigGroups' },
    groupCount: 10, groupSize: 3, sizes: '10x3', senderCount: 30, senders: '10x3', memberCount: 30,
  },
  {
    name: 'big groups, 25 connections: senders fill exactly the larger groups',
    input: { connections: 25, preset: 'bigGroups' },
    groupCount: 10, groupSize: 3, sizes: '5x3 5x2', senderCount: 25, senders: '5x3 5x2', memberCount: 25,
  },
  {
    name: 'big groups ignore custom fields',
    input: { connections: 1_000, preset: 'bigGroups', groupSize: 3, groupCount: 7, senders: 999 },
    groupCount: 10, groupSize: 100, sizes: '10x100', senderCount: 40, senders: '10x4', memberCount: 1_000,
  },
  {
    name: 'custom, 1,000 connections, 10 groups of 20, 15 senders: 800 connections idle',
    input: { connections: 1_000, preset: 'custom', groupSize: 20, groupCount: 10, senders: 15 },
    groupCount: 10, groupSize: 20, sizes: '10x20', senderCount: 15, senders: '5x2 5x1', memberCount: 200,
  },
  {
    name: 'custom, every connection in a pair and sending',
    input: { connections: 100, preset: 'custom', groupSize: 2, groupCount: 50, senders: 100 },
    groupCount: 50, groupSize: 2, sizes: '50x2', senderCount: 100, senders: '50x2', memberCount: 100,
  },
  {
    name: 'custom, fewer senders than groups: some groups only listen',
    input: { connections: 1_000, preset: 'custom', groupSize: 100, groupCount: 10, senders: 3 },
    groupCount: 10, groupSize: 100, sizes: '10x100', senderCount: 3, senders: '3x1 7x0', memberCount: 1_000,
  },
];

function plan(input: GroupPlanInput): GroupPlan {
  const result = planGroups(input);
  if (!result.ok) throw new Error(`expected a plan, got: ${result.errors.join(' | ')}`);
  return result.plan;
}

/** "96x10 5x9": how many groups have each value, largest value first. */
function histogram(values: number[]): string {
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].sort((a, b) => b[0] - a[0]).map(([v, n]) => `${n}x${v}`).join(' ');
}

describe('planGroups presets and custom plans', () => {
  for (const c of CASES) {
    it(c.name, () => {
      const p = plan(c.input);
      const groups = Array.from({ length: p.groupCount }, (_, g) => g);
      expect([p.groupCount, p.groupSize, p.senderCount, p.memberCount]).toEqual([c.groupCount, c.groupSize, c.senderCount, c.memberCount]);
      expect(histogram(groups.map((g) => p.membersOf(g)))).toBe(c.sizes);
      expect(histogram(groups.map((g) => p.sendersOf(g)))).toBe(c.senders);

      // Recount everything from the per-connection answers, the way workers will see it.
      const members = new Array<number>(p.groupCount).fill(0);
      const senders = new Array<number>(p.groupCount).fill(0);
      let idle = 0;
      let previousGroup = -1;
      for (let i = 0; i < p.connections; i++) {
        const g = p.groupOf(i);
        if (g === -1) {
          idle++;
          expect(p.isSender(i)).toBe(false);
          continue;
        }
        expect(g === previousGroup || g === previousGroup + 1, `connection ${i}: blocks are contiguous`).toBe(true);
        previousGroup = g;
        members[g]!++;
        if (p.isSender(i)) senders[g]!++;
      }
      expect(members).toEqual(groups.map((g) => p.membersOf(g)));
      expect(senders).toEqual(groups.map((g) => p.sendersOf(g)));
      expect(idle).toBe(p.connections - p.memberCount);
      expect(Math.max(...members) - Math.min(...members)).toBeLessThanOrEqual(1);
      expect(Math.max(...senders) - Math.min(...senders)).toBeLessThanOrEqual(1);
      expect(senders.every((s, g) => s <= members[g]!)).toBe(true);
    });
  }

  it('names groups for the hub', () => {
    const p = plan({ connections: 100, preset: 'smallGroups' });
    expect([p.groupName(0), p.groupName(3), p.groupName(9)]).toEqual(['group-0', 'group-3', 'group-9']);
  });

  it('puts senders first in each group: a big group of 100 sends from members 0..3', () => {
    const p = plan({ connections: 1_000, preset: 'bigGroups' });
    const senders = Array.from({ length: 1_000 }, (_, i) => i).filter((i) => p.isSender(i));
    expect(senders.slice(0, 8)).toEqual([0, 1, 2, 3, 100, 101, 102, 103]);
  });

  it('keeps every group and sender count consistent for every size from 2 to 300', () => {
    for (let connections = 2; connections <= 300; connections++) {
      const p = plan({ connections, preset: 'smallGroups' });
      expect(p.groupCount).toBe(Math.ceil(connections / 10));
      let total = 0;
      for (let g = 0; g < p.groupCount; g++) {
        expect(p.membersOf(g), `${connections} connections, group ${g}`).toBeGreaterThanOrEqual(2);
        expect(p.membersOf(g)).toBeLessThanOrEqual(10);
        total += p.membersOf(g);
      }
      expect(total).toBe(connections);
      expect(p.groupOf(connections - 1)).toBe(p.groupCount - 1);
    }
  });

  it('refuses indices outside the run, saying which range is valid', () => {
    const p = plan({ connections: 100, preset: 'bigGroups' });
    expect(() => p.groupOf(100)).toThrow(/outside this run's 0\.\.99/);
    expect(() => p.isSender(-1)).toThrow(/run-wide index/);
    expect(() => p.groupName(10)).toThrow(/outside this plan's 0\.\.9/);
    expect(() => p.membersOf(1.5)).toThrow(/Group index 1.5/);
  });
});

describe('planGroups validation', () => {
  const invalid: { name: string; input: GroupPlanInput; errors: RegExp[] }[] = [
    {
      name: 'custom lists every bad field at once',
      input: { connections: 100, preset: 'custom', groupSize: 1, groupCount: 0, senders: 0 },
      errors: [/Group size must be .* at least 2, but is 1/, /Group count must be .* at least 1, but is 0/, /Senders must be .* at least 1, but is 0/],
    },
    {
      name: 'custom with nothing given says each field is empty',
      input: { connections: 100, preset: 'custom' },
      errors: [/Group size .* but is empty/, /Group count .* but is empty/, /Senders .* but is empty/],
    },
    {
      name: 'custom groups larger than the run',
      input: { connections: 150, preset: 'custom', groupSize: 20, groupCount: 10, senders: 5 },
      errors: [/10 groups of 20 need 200 connections, but the run has 150\. Lower the group size/],
    },
    {
      name: 'custom with more senders than members',
      input: { connections: 1_000, preset: 'custom', groupSize: 20, groupCount: 10, senders: 300 },
      errors: [/Senders \(300\) must not outnumber the group members \(200\).*at most 200/],
    },
    {
      name: 'custom with a bad run size and a fractional group size',
      input: { connections: 0, preset: 'custom', groupSize: 2.5, groupCount: 3, senders: 4 },
      errors: [/Connections must be .* at least 2 .* but is 0/, /Group size .* but is 2.5/],
    },
    {
      name: 'big groups with fewer than 20 connections',
      input: { connections: 15, preset: 'bigGroups' },
      errors: [/Big groups need at least 20 connections \(10 groups of at least 2\), but the run has 15.*small groups/],
    },
    {
      name: 'small groups with one connection',
      input: { connections: 1, preset: 'smallGroups' },
      errors: [/Connections must be a whole number of at least 2 .* but is 1/],
    },
    {
      name: 'an unknown preset',
      input: { connections: 100, preset: 'hugeGroups' as never },
      errors: [/preset must be one of smallGroups, bigGroups, custom, but is "hugeGroups"/],
    },
  ];

  for (const c of invalid) {
    it(c.name, () => {
      const result = planGroups(c.input);
      expect(result.ok).toBe(false);
      const errors = result.ok ? [] : result.errors;
      expect(errors).toHaveLength(c.errors.length);
      c.errors.forEach((pattern, i) => expect(errors[i]).toMatch(pattern));
    });
  }
});
