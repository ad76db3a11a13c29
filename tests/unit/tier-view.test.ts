/** The tier panel's and the tier finder's math, with named cases from the guide's tables. */
import { describe, expect, it } from 'vitest';
import { DEFAULTS, type RunConfig } from '../../core/run-config/config.ts';
import {
  editionTiers,
  expectedLine,
  expectedRates,
  formatPercent,
  guideRunConfig,
  judgeTiers,
  tierLoad,
  tierRows,
  conditionsNote,
  type MeasuredRates,
} from '../../core/tiers/tier-figures.ts';
import { evaluateFinder, finderEditionView, newFinderRow, parseFinderRow, type FinderRowInput } from '../../src/lib/tier-finder.ts';
import { formatBytes } from '../../core/format.ts';
import { formatBytesPerSecond } from '../../core/guide/units.ts';

const run = (overrides: Partial<RunConfig>): RunConfig => ({ ...DEFAULTS, endpointUrl: 'http://127.0.0.1:5180/signalrbench', ...overrides });
const measured = (overrides: Partial<MeasuredRates>): MeasuredRates => ({
  connections: 0,
  inboundMessagesPerSecond: 0,
  outboundMessagesPerSecond: 0,
  inboundBytesPerSecond: 0,
  outboundBytesPerSecond: 0,
  ...overrides,
});
const row = (overrides: Partial<FinderRowInput>): FinderRowInput => ({ ...newFinderRow(), ...overrides });

describe('expectedRates: what the run should produce per second', () => {
  it.each([
    { name: 'echo 1,000 x 2,048 B every 1 s: 1,000 in and out, 2 MBps each way', config: run({ connections: 1000 }), rates: { inboundPerSec: 1000, outboundPerSec: 1000, inboundBytesPerSec: 2_048_000, outboundBytesPerSec: 2_048_000 } },
    { name: 'broadcast to 1,000 with the run default of 2 senders: the guide\'s Unit1 row (2 in, 2,000 out)', config: run({ scenario: 'broadcast', connections: 1000 }), rates: { inboundPerSec: 2, outboundPerSec: 2000, inboundBytesPerSec: 4096, outboundBytesPerSec: 4_096_000 } },
    { name: 'big groups on 1,000: 40 senders to 10 groups of 100', config: run({ scenario: 'bigGroup', connections: 1000 }), rates: { inboundPerSec: 40, outboundPerSec: 4000, inboundBytesPerSec: 40 * 2048, outboundBytesPerSec: 4000 * 2048 } },
    { name: 'small groups on 1,005: 96 groups of 10 and 5 of 9, counted exactly', config: run({ scenario: 'smallGroup', connections: 1005 }), rates: { inboundPerSec: 1005, outboundPerSec: 96 * 100 + 5 * 81, inboundBytesPerSec: 1005 * 2048, outboundBytesPerSec: (96 * 100 + 5 * 81) * 2048 } },
    { name: 'custom groups: 5 of 10 on 100 connections, 5 senders, every 500 ms', config: run({ scenario: 'smallGroup', connections: 100, groupSize: 10, groupCount: 5, senders: 5, sendIntervalMs: 500 }), rates: { inboundPerSec: 10, outboundPerSec: 100, inboundBytesPerSec: 20_480, outboundBytesPerSec: 204_800 } },
    { name: 'send to connection on 20 with 512-B messages: payload bytes, not the 1,024-B floor', config: run({ scenario: 'sendToConnection', messageBytes: 512 }), rates: { inboundPerSec: 20, outboundPerSec: 20, inboundBytesPerSec: 10_240, outboundBytesPerSec: 10_240 } },
  ])('$name', ({ config, rates }) => {
    expect(expectedRates(config)).toEqual(rates);
  });

  it.each([
    { name: 'send to connection with 1 connection (nobody to send to)', config: run({ scenario: 'sendToConnection', connections: 1, workers: 1 }), error: /at least 2 connections/ },
    { name: 'big groups on 10 connections (10 groups need 20)', config: run({ scenario: 'bigGroup', connections: 10 }), error: /Big groups need at least 20 connections/ },
    { name: 'a message size of 0', config: run({ messageBytes: 0 }), error: /messageBytes must be a positive number/ },
  ])('is null when the guide cannot express it: $name', ({ config, error }) => {
    expect(expectedRates(config)).toBeNull();
    const result = guideRunConfig(config);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(error);
  });
});

describe('editionTiers: the default tier is the smallest that fits', () => {
  it.each([
    { name: '1,000-connection echo at 2,048 B / 1 s fits Unit1 of both editions', config: run({ connections: 1000 }), tier2019: 'Unit1', tierCurrent: 'Unit1' },
    { name: 'echo 1,001 connections: one over Unit1', config: run({ connections: 1001 }), tier2019: 'Unit2', tierCurrent: 'Unit2' },
    { name: 'echo 2,001: 2019 has Unit5, the current edition jumps to Unit10', config: run({ connections: 2001 }), tier2019: 'Unit5', tierCurrent: 'Unit10' },
    { name: 'small groups on 1,000, every member sending 1/s: 1,000 routed messages/s need 2019 Unit5, current Unit10', config: run({ scenario: 'smallGroup', connections: 1000 }), tier2019: 'Unit5', tierCurrent: 'Unit10' },
    { name: 'big groups on 1,000 (8 MBps out): exactly Unit2 outbound', config: run({ scenario: 'bigGroup', connections: 1000 }), tier2019: 'Unit2', tierCurrent: 'Unit2' },
  ])('$name', ({ config, tier2019, tierCurrent }) => {
    expect(editionTiers(config, '2019').defaultTier).toBe(tier2019);
    expect(editionTiers(config, 'current').defaultTier).toBe(tierCurrent);
  });

  it('says why the tiers below do not fit', () => {
    const fit = editionTiers(run({ connections: 1001 }), '2019');
    expect(fit.options.map((o) => o.fits)).toEqual([false, true, true, true, true, true, true]);
    expect(fit.options[0]?.reasons).toContain("1,001 connections exceed Unit1's 1,000.");
  });

  it('defaults to the largest tier when none fits (echo 100,000 at 4,096 B exceeds 2019 Unit100 inbound)', () => {
    const fit = editionTiers(run({ connections: 100_000, messageBytes: 4096 }), '2019');
    expect(fit.fittingTier).toBeNull();
    expect(fit.defaultTier).toBe('Unit100');
    expect(fit.options.every((o) => o.fits === false)).toBe(true);
  });

  it('keeps every tier selectable, fit unknown, when the config cannot be expressed', () => {
    const fit = editionTiers(run({ scenario: 'sendToConnection', connections: 1, workers: 1 }), 'current');
    expect(fit.error).toMatch(/at least 2 connections/);
    expect(fit.defaultTier).toBe('Unit1');
    expect(fit.options.map((o) => o.fits)).toEqual(Array(8).fill(null));
  });
});

describe('tierRows: measured against published, in words', () => {
  it('measured 1,000 msg/s against 2019 echo Unit1 shows 100%', () => {
    const rows = tierRows('2019', 'Unit1', 'echo', measured({ connections: 1000, inboundMessagesPerSecond: 1000, outboundMessagesPerSecond: 1000, inboundBytesPerSecond: 2_048_000, outboundBytesPerSecond: 1_024_000 }));
    expect(rows.map((r) => r.text)).toEqual([
      "1,000 connections out of Unit1's 1,000 (100%)",
      "1,000 msg/s out of Unit1's 1,000 (100%)",
      "1,000 msg/s out of Unit1's 1,000 (100%)",
      "2 MBps out of Unit1's 2 MBps (100%)",
      "1 MBps out of Unit1's 2 MBps (50%)",
    ]);
    expect(rows.every((r) => r.flag === null)).toBe(true);
  });

  it('a 20-connection run against Unit1 is 2%, with ratios kept as numbers', () => {
    const [connections] = tierRows('current', 'Unit1', 'echo', measured({ connections: 20 }));
    expect(connections?.text).toBe("20 connections out of Unit1's 1,000 (2%)");
    expect(connections?.ratio).toBe(0.02);
  });

  it('carries the flags of 2019 big group Unit1: both bandwidth cells contradict the formula', () => {
    const rows = tierRows('2019', 'Unit1', 'bigGroup', measured({}));
    const flagged = rows.filter((r) => r.flag !== null).map((r) => r.column);
    expect(flagged).toEqual(['inboundBytesPerSecond', 'outboundBytesPerSecond']);
    expect(rows[3]?.flag?.reason).toMatch(/published 80 KBps/);
    expect(rows[3]?.text).toBe("0 Bps out of Unit1's 80 KBps (0%)");
  });

  it('carries the unit flag of current broadcast Unit1000 outbound ("4000 Mbps")', () => {
    const out = tierRows('current', 'Unit1000', 'broadcast', measured({})).find((r) => r.column === 'outboundBytesPerSecond');
    expect(out?.flag?.kind).toBe('unit');
  });

  it('says so when the scenario table has no row for the tier (current send to connection skips Unit10)', () => {
    const rows = tierRows('current', 'Unit10', 'sendToConnection', measured({ inboundMessagesPerSecond: 5 }));
    expect(rows.every((r) => r.published === null && r.ratio === null)).toBe(true);
    expect(rows[1]?.text).toBe('5 msg/s; the current guide publishes no send-to-connection inbound messages for Unit10');
  });

  it.each([
    [1, '100%'],
    [0.02, '2%'],
    [0.005, '0.5%'],
    [0, '0%'],
    [1.234, '123%'],
    [12.5, '1,250%'],
  ])('formatPercent(%s) is %s', (ratio, text) => {
    expect(formatPercent(ratio)).toBe(text);
  });
});

describe('lines of text', () => {
  it('expected traffic of 1,000 echo connections', () => {
    const fit = editionTiers(run({ connections: 1000 }), 'current');
    expect(fit.traffic && expectedLine(fit.traffic)).toBe('This configuration should produce 1,000 msg/s in, 1,000 out (2 MBps in, 2 MBps out).');
  });

  it('adds the 1,024-B floor for small messages', () => {
    const fit = editionTiers(run({ connections: 1000, messageBytes: 512 }), 'current');
    expect(fit.traffic && expectedLine(fit.traffic)).toBe(
      'This configuration should produce 1,000 msg/s in, 1,000 out (500 KBps in, 500 KBps out). ' +
        'Against the tier limits each 512-B message counts as 1,024 B: 1 MBps in, 1 MBps out.',
    );
  });

  it('notes runs that differ from the guide\'s 2,048 B every 1,000 ms', () => {
    expect(conditionsNote(run({}), '2019')).toBeNull();
    expect(conditionsNote(run({ messageBytes: 100, sendIntervalMs: 50 }), '2019')).toMatch(/this run sends 100 B every 50 ms/);
  });

});

describe('judgeTiers: one rule for "fits" and every row', () => {
  const cases = [
    {
      name: 'echo, 1,000 connections at 1,000 msg/s each way: Unit1 fits, within its limits and the guide\'s numbers',
      config: run({ connections: 1000 }),
      load: tierLoad(run({}), 1000, 1000, 1000),
      fitting: 'Unit1',
      headline: /^Unit1, the smallest tier of the current edition, covers every limit\. This run is also within what the guide measured for echo on Unit1\.$/,
    },
    {
      name: 'broadcast at 4 msg/s in against Unit1\'s published 2: over 100%, said, and no tier claimed to fit',
      config: run({ scenario: 'broadcast', connections: 100, sendIntervalMs: 500 }),
      load: tierLoad(run({}), 100, 4, 400),
      fitting: null,
      headline: /^Unit1's limits hold this configuration, but this run is above what the guide measured for broadcast on Unit1: inbound messages 4 msg\/s out of Unit1's 2 \(200%\).*No tier's published broadcast numbers cover it/,
    },
    {
      name: 'echo over Unit1\'s published 1,000 connections: the next tier that covers it is named',
      config: run({ connections: 1000 }),
      load: tierLoad(run({}), 1000, 1000, 1500),
      fitting: 'Unit2',
      headline: /^Unit1's limits hold this configuration, but .*outbound messages 1,500 msg\/s out of Unit1's 1,000 \(150%\).* Unit2 is the smallest tier whose limits and published echo numbers both cover it\.$/,
    },
  ];
  it.each(cases)('$name', ({ config, load, fitting, headline }) => {
    const judged = judgeTiers(config, 'current', load);
    expect(judged.fittingTier).toBe(fitting);
    expect(judged.headline).toMatch(headline);
    // Never "fits" with a row over 100%.
    for (const j of judged.judgements) if (j.fits) expect(j.rows.every((r) => r.ratio === null || r.ratio <= 1)).toBe(true);
  });

  it('compares bandwidth as payload bytes x rate, as the guide counts it', () => {
    const load = tierLoad(run({ messageBytes: 2_048 }), 1000, 1000, 1000);
    expect(load.inboundBytesPerSecond).toBe(2_048_000);
    const row = tierRows('current', 'Unit1', 'echo', load).find((r) => r.column === 'inboundBytesPerSecond')!;
    expect(row.text).toBe("2 MBps out of Unit1's 2 MBps (100%)");
  });

  it('formats the same bytes the same everywhere: the guide\'s MB of 1,024,000 B', () => {
    expect(formatBytes(2_048_000)).toBe('2.0 MB');
    expect(formatBytesPerSecond(2_048_000)).toBe('2 MBps');
    expect(formatBytes(1_048_576)).toBe('1.0 MB');
    expect(formatBytes(2_048)).toBe('2.0 KB');
  });
});

describe('the tier finder', () => {
  it.each([
    { name: 'empty connections', input: { connections: '' }, error: 'Row 1: connections is empty; enter a whole number of client connections, e.g. 1000.' },
    { name: 'negative connections', input: { connections: '-5' }, error: 'Row 1: connections must be at least 1, but is -5.' },
    { name: 'fractional message size', input: { messageBytes: '2.5' }, error: 'Row 1: message size must be a whole number, but is 2.5; round it.' },
    { name: 'text interval', input: { sendIntervalMs: 'soon' }, error: 'Row 1: send interval must be a whole number of milliseconds, e.g. 1000, but is "soon".' },
    { name: 'more senders than connections', input: { senders: '2000' }, error: 'Row 1: senders (2,000) cannot exceed connections (1,000); lower it or add connections.' },
    { name: 'unknown scenario', input: { scenario: 'multicast' }, error: 'Row 1: scenario must be one of echo, broadcast, smallGroup, bigGroup, sendToConnection, but is "multicast".' },
  ])('rejects $name with a message', ({ input, error }) => {
    const parsed = parseFinderRow(row(input), 0);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.errors).toContain(error);
  });

  it('lists every problem of a row at once', () => {
    const parsed = parseFinderRow(row({ connections: '0', messageBytes: '', sendIntervalMs: '1.5' }), 2);
    expect(parsed.ok ? [] : parsed.errors.map((e) => e.slice(0, 20))).toEqual(['Row 3: connections m', 'Row 3: message size ', 'Row 3: send interval']);
  });

  it('reads "1,000" as 1000 and ignores group size outside group scenarios', () => {
    const parsed = parseFinderRow(row({ connections: '1,000', groupSize: 'nonsense' }), 0);
    expect(parsed.ok && parsed.part).toMatchObject({ scenario: 'echo', connections: 1000, messageBytes: 2048, sendIntervalMs: 1000 });
  });

  it('chat plus ticker from the guide\'s mixed use cases: 10,000 connections fit Unit10 of both editions', () => {
    const result = evaluateFinder([
      row({ connections: '4000' }),
      row({ scenario: 'broadcast', connections: '6000', senders: '2', messageBytes: '100' }),
    ]);
    expect(result.error).toBeNull();
    expect(result.estimate?.totals).toMatchObject({ connections: 10_000, inboundMessagesPerSecond: 4002, outboundMessagesPerSecond: 16_000 });
    const view = result.estimate && finderEditionView(result.estimate, '2019');
    expect(view?.tier).toBe('Unit10');
    expect(view?.reason).toBe("Unit10 is the smallest tier of the 2019 edition within every limit; Unit5 does not fit: 10,000 connections exceed Unit5's 5,000.");
  });

  it('small groups on 50,000 at Unit50: the routing-cost caveats and server load under 70%', () => {
    const result = evaluateFinder([row({ scenario: 'smallGroup', connections: '50000', senders: '5000' })]);
    const view = result.estimate && finderEditionView(result.estimate, 'current');
    expect(view?.tier).toBe('Unit50');
    expect(view?.appServers).toBe('5 app servers');
    expect(view?.caveats.join('\n')).toMatch(/routing cost is not included in Server Load/);
    expect(view?.caveats.join('\n')).toMatch(/server load stays under 70%/);
    expect(view?.caveats.join('\n')).not.toMatch(/Premium_P2/);
  });

  it('echo on 150,000: Unit200 with Premium_P2 now, no 2019 tier', () => {
    const result = evaluateFinder([row({ connections: '150000' })]);
    const current = result.estimate && finderEditionView(result.estimate, 'current');
    const old = result.estimate && finderEditionView(result.estimate, '2019');
    expect(current).toMatchObject({ tier: 'Unit200', requiresPremiumP2: true });
    expect(current?.caveats.join('\n')).toMatch(/Premium_P2/);
    expect(old?.tier).toBeNull();
    expect(old?.reason).toMatch(/^No tier of the 2019 edition fits; even Unit100: 150,000 connections exceed Unit100's 100,000\./);
    expect(old?.appServers).toBe("beyond the guide's app-server tables");
  });

  it('gives no estimate while a row is bad, and says which row', () => {
    const result = evaluateFinder([row({}), row({ connections: '-1' })]);
    expect(result.estimate).toBeNull();
    expect(result.rowErrors[0]).toEqual([]);
    expect(result.rowErrors[1]).toHaveLength(1);
    expect(result.error).toBe('Fix row 2 to see a tier: the sum needs every row.');
  });

  it('asks for a row when there is none', () => {
    expect(evaluateFinder([]).error).toMatch(/^Add a row/);
  });
});
