/**
 * Thresholds as k6's small grammar (core/thresholds): every operator, the units of each kind of
 * metric, k6's p(N), avg and med, the old flags read as aliases, the sentence of every bad
 * expression with the form to write, and each threshold judged against a run's figures.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  aliasThreshold, checkThreshold, checkThresholds, holds, lossRuleReason, METRIC_NAMES, parseThreshold,
  THRESHOLD_WORDS, thresholdLines, thresholdProblemText, type Threshold,
} from '../../core/thresholds/index.ts';
import type { RunResult } from '../../core/result/index.ts';
import { finishedRun } from '../support/finished-run.ts';
import { parseCliArgs } from '../../cli/args.ts';

const parsed = (text: string): Threshold => {
  const result = parseThreshold(text);
  if (!result.ok) throw new Error(`${text}: ${thresholdProblemText(text, result.problem)}`);
  return result.threshold;
};
const refusal = (text: string): string => {
  const result = parseThreshold(text);
  if (result.ok) throw new Error(`${text} was read as a threshold`);
  return thresholdProblemText(text, result.problem);
};

describe('parseThreshold: the grammar', () => {
  it('reads every operator, k6\'s === as ==', () => {
    for (const operator of ['<', '<=', '>', '>=', '==', '!='] as const) {
      expect(parsed(`p99${operator}250ms`)).toMatchObject({ metric: 'p99', operator, limit: 250 });
    }
    expect(parsed('lost===0')).toMatchObject({ metric: 'lost', operator: '==', limit: 0 });
  });

  it('keeps the expression as written (trimmed), and allows spaces around the parts', () => {
    expect(parsed('  p99 < 250 ms ')).toEqual({ expression: 'p99 < 250 ms', alias: null, metric: 'p99', operator: '<', limit: 250, asShare: false });
  });

  it('reads times in ms (plain numbers too, as k6) and s', () => {
    expect(parsed('p99<250').limit).toBe(250);
    expect(parsed('p99<250ms').limit).toBe(250);
    expect(parsed('p99<0.25s').limit).toBe(250);
    expect(parsed('max<=1.5s').limit).toBe(1_500);
    expect(parsed('mean<.5ms').limit).toBe(0.5);
  });

  it('reads k6\'s p(N), avg and med as the run\'s own figures, in any case', () => {
    expect(parsed('p(99)<250').metric).toBe('p99');
    expect(parsed('p(99.9)<500').metric).toBe('p99.9');
    expect(parsed('p(99.90)<500').metric).toBe('p99.9');
    expect(parsed('p( 50 )<10').metric).toBe('p50');
    expect(parsed('p(90)<100').metric).toBe('p90');
    expect(parsed('avg<100').metric).toBe('mean');
    expect(parsed('med<100').metric).toBe('p50');
    expect(parsed('P99<100').metric).toBe('p99');
    expect(parsed('NotSent==0').metric).toBe('notSent');
  });

  it('reads shares as a percentage or a plain fraction (k6\'s rates), and counts plain or as a share with %', () => {
    expect(parsed('delivery>=99.9%')).toMatchObject({ metric: 'delivery', limit: 0.999, asShare: true });
    expect(parsed('delivery>=0.999')).toMatchObject({ metric: 'delivery', limit: 0.999, asShare: true });
    expect(parsed('underOneSecond>=99%')).toMatchObject({ metric: 'underOneSecond', limit: 0.99 });
    expect(parsed('lost==0')).toMatchObject({ metric: 'lost', limit: 0, asShare: false });
    expect(parsed('lost<=0.1%')).toMatchObject({ metric: 'lost', limit: 0.001, asShare: true });
    expect(parsed('connectionsFailed<5')).toMatchObject({ metric: 'connectionsFailed', limit: 5, asShare: false });
    expect(parsed('connectionsFailed<=1%')).toMatchObject({ limit: 0.01, asShare: true });
    expect(parsed('received/s>=1000')).toMatchObject({ metric: 'received/s', limit: 1_000 });
    expect(parsed('sent/s>=1000msg/s')).toMatchObject({ metric: 'sent/s', limit: 1_000 });
  });

  it('knows every metric it lists', () => {
    expect(METRIC_NAMES).toEqual(['p50', 'p90', 'p99', 'p99.9', 'max', 'mean', 'delivery', 'underOneSecond', 'lost', 'notSent', 'duplicated', 'altered', 'loss', 'connectionsFailed', 'sent/s', 'received/s']);
    for (const metric of METRIC_NAMES) expect(parseThreshold(`${metric}>=0`).ok, metric).toBe(true);
  });
});

describe('parseThreshold: bad expressions, refused with what is wrong and the form to write', () => {
  it('says what is wrong with the value, by the metric\'s kind', () => {
    expect(refusal('p99<fast')).toBe('--threshold \'p99<fast\': "fast" is not a time; write p99<250ms (ms, or s; a plain number is ms)');
    expect(refusal('p99<99%')).toMatch(/^--threshold 'p99<99%': "99%" is not a time; write p99<250ms/);
    expect(refusal('p99<-5ms')).toMatch(/"-5ms" is not a time/);
    expect(refusal('delivery>=250ms')).toBe('--threshold \'delivery>=250ms\': "250ms" is not a share; write delivery>=99.9% (a percentage, or a fraction from 0 to 1)');
    expect(refusal('lost<=5ms')).toBe('--threshold \'lost<=5ms\': "5ms" is not a count or a share; write lost<=0 (a plain count, or with % a share of the planned receptions)');
    expect(refusal('received/s>fast')).toMatch(/"fast" is not a rate; write received\/s>1000 \(messages a second\)/);
    expect(refusal('p99<')).toBe('--threshold \'p99<\': there is no value after <; write p99<250ms (ms, or s; a plain number is ms)');
  });

  it('refuses a share beyond the whole', () => {
    expect(refusal('delivery>=150%')).toBe('--threshold \'delivery>=150%\': "150%" is more than the whole: a share is 0 to 100%, or a fraction from 0 to 1; write delivery>=99.9%');
    expect(refusal('delivery>=99.9')).toMatch(/"99\.9" is more than the whole/);
    expect(refusal('lost<=101%')).toMatch(/write lost<=0\.1%$/);
  });

  it('names a metric the run lacks, and lists the ones it has', () => {
    expect(refusal('p(95)<200')).toBe('--threshold \'p(95)<200\': the run does not record p95 ("p(95)"): its latency percentiles are p50, p90, p99 and p99.9, with max and mean; write e.g. p99<250ms or p(99)<250');
    expect(refusal('p95<200ms')).toMatch(/does not record p95/);
    expect(refusal('min>0')).toMatch(/does not record the least latency \("min"\)/);
    expect(refusal('p98<250ms')).toBe('--threshold \'p98<250ms\': the run does not record p98 ("p98"): its latency percentiles are p50, p90, p99 and p99.9, with max and mean; write e.g. p99<250ms or p(99)<250');
    expect(refusal('http_req_duration<250')).toBe('--threshold \'http_req_duration<250\': "http_req_duration" is not a metric of the run (latency in ms p50, p90, p99, p99.9, max, mean; shares delivery, underOneSecond; counts or shares lost, notSent, duplicated, altered, loss, connectionsFailed; rates sent/s, received/s); write e.g. p99<250ms');
    expect(refusal('msg/s>100')).toMatch(/"msg\/s" does not say which messages; write sent\/s .* or received\/s/);
  });

  it('says what is missing: everything, the comparison, the metric; a lone = is not one', () => {
    expect(refusal('')).toBe('--threshold \'\': it is empty; write a metric, a comparison and a value, e.g. p99<250ms');
    expect(refusal('   ')).toMatch(/it is empty/);
    expect(refusal('p99 250ms')).toBe('--threshold \'p99 250ms\': there is no comparison; write one of < <= > >= == != between the metric and the value, e.g. p99<250ms');
    expect(refusal('<250ms')).toMatch(/^--threshold '<250ms': there is no metric before <; write e\.g\. p99<250ms/);
    expect(refusal('lost=0')).toBe('--threshold \'lost=0\': = is not a comparison; write lost==0 for equal, or <= and >= with the < or > first');
    expect(refusal('p99=<250')).toMatch(/= is not a comparison/);
  });
});

describe('aliases: the old flags are thresholds too', () => {
  it('--max-p99-ms, --min-delivery and --allow-loss are read by the same grammar', () => {
    expect(aliasThreshold('max-p99-ms', 250)).toEqual({ expression: 'p99<=250ms', alias: '--max-p99-ms 250', metric: 'p99', operator: '<=', limit: 250, asShare: false });
    expect(aliasThreshold('min-delivery', 0.999)).toEqual({ expression: 'delivery>=99.9%', alias: '--min-delivery 0.999', metric: 'delivery', operator: '>=', limit: 0.999, asShare: true });
    expect(aliasThreshold('allow-loss', 0.001)).toEqual({ expression: 'loss<=0.1%', alias: '--allow-loss 0.001', metric: 'loss', operator: '<=', limit: 0.001, asShare: true });
    expect(aliasThreshold('allow-loss', 0.007).expression).toBe('loss<=0.7%');
    expect(aliasThreshold('allow-loss', 1).expression).toBe('loss<=100%');
  });
});

describe('holds', () => {
  it('compares by each operator, equal within float rounding', () => {
    expect([holds(1, '<', 2), holds(2, '<', 2), holds(2, '<=', 2), holds(3, '<=', 2)]).toEqual([true, false, true, false]);
    expect([holds(3, '>', 2), holds(2, '>', 2), holds(2, '>=', 2), holds(1, '>=', 2)]).toEqual([true, false, true, false]);
    expect([holds(0, '==', 0), holds(1, '==', 0), holds(1, '!=', 0), holds(0, '!=', 0)]).toEqual([true, false, true, false]);
    // 99.9% read as 99.9 / 100 is 0.9990000000000001: 999 of 1,000 still holds it.
    expect(holds(999 / 1_000, '>=', 99.9 / 100)).toBe(true);
    expect(holds(999 / 1_000, '<', 99.9 / 100)).toBe(false);
  });
});

describe('checkThresholds: each threshold against the run\'s figures', () => {
  let run: RunResult;
  beforeAll(async () => {
    run = await finishedRun();
  });
  /** The finished run with figures of our choosing. */
  const withFigures = (): RunResult => ({
    ...run,
    latency: { count: 990, p50Us: 2_000, p90Us: 8_000, p99Us: 300_000, p999Us: 400_000, maxUs: 410_000, meanUs: 5_000 },
    fates: { ...run.fates, planned: 1_000, underOneSecond: 985, late: 5, afterDrain: 0, lost: 8, notSent: { ...run.fates.notSent, disconnected: 2 } },
    verdict: { ...run.verdict, delivery: 0.99, share: 0.985 },
    totals: { ...run.totals, duplicated: 1, altered: 0, connectionsFailed: 1 },
    config: { ...run.config, connections: 4 },
  });

  it('measures each metric in its unit and says whether it held', () => {
    const result = withFigures();
    const checks = checkThresholds(result, ['p99<250ms', 'p50<10', 'p(99.9)<=0.4s', 'max<1s', 'avg<5ms', 'delivery>=99%', 'underOneSecond>=99%', 'lost==0', 'lost<=1%', 'notSent<=2', 'duplicated!=0', 'altered==0', 'loss<=1.1%', 'connectionsFailed<=25%', 'connectionsFailed==0'].map(parsed));
    expect(checks.map((c) => [c.expression, c.measured, c.unit, c.passed])).toEqual([
      ['p99<250ms', 300, 'ms', false],
      ['p50<10', 2, 'ms', true],
      ['p(99.9)<=0.4s', 400, 'ms', true],
      ['max<1s', 410, 'ms', true],
      ['avg<5ms', 5, 'ms', false],
      ['delivery>=99%', 99, '%', true],
      ['underOneSecond>=99%', 98.5, '%', false],
      ['lost==0', 8, 'receptions', false],
      ['lost<=1%', 0.8, '%', true],
      ['notSent<=2', 2, 'receptions', true],
      ['duplicated!=0', 1, 'receptions', true],
      ['altered==0', 0, 'receptions', true],
      ['loss<=1.1%', 1.1, '%', true],
      ['connectionsFailed<=25%', 25, '%', true],
      ['connectionsFailed==0', 1, 'connections', false],
    ]);
    expect(checks[0]).toEqual({ expression: 'p99<250ms', metric: 'p99', operator: '<', limit: 250, measured: 300, unit: 'ms', passed: false });
    expect(checks[8]).toEqual({ expression: 'lost<=1%', metric: 'lost', operator: '<=', limit: 1, measured: 0.8, unit: '%', of: 1_000, passed: true });
  });

  it('reads the rates over the run\'s seconds of sending', () => {
    const [sent, received] = checkThresholds(run, [parsed('sent/s>0'), parsed('received/s>=1000000')]);
    expect(sent).toMatchObject({ unit: 'msg/s', passed: true });
    expect(sent!.measured).toBeGreaterThan(0);
    expect(received).toMatchObject({ unit: 'msg/s', passed: false });
  });

  it('fails a threshold whose figure the run does not know, and says why', () => {
    const silent: RunResult = { ...run, latency: { count: 0, p50Us: null, p90Us: null, p99Us: null, p999Us: null, maxUs: null, meanUs: null } };
    const [p99] = checkThresholds(silent, [parsed('p99<250ms')]);
    expect(p99).toMatchObject({ measured: null, unmeasured: 'noneReceived', passed: false });
    expect(THRESHOLD_WORDS.broken(p99!)).toBe('\'p99<250ms\': no message was received, so the run has no p99.');
    const undrained: RunResult = { ...run, fates: { ...run.fates, lost: null } };
    const [lost] = checkThresholds(undrained, [parsed('lost==0')]);
    expect(lost).toMatchObject({ measured: null, unmeasured: 'notDrained', passed: false });
    expect(THRESHOLD_WORDS.line(lost!)).toBe('  ✗ \'lost==0\' lost=– (unknown: the run never drained)');
  });

  it('words a broken threshold the way the old flags did, and every operator', () => {
    const result = withFigures();
    const broken = (text: string) => THRESHOLD_WORDS.broken(checkThreshold(result, parsed(text)));
    expect(THRESHOLD_WORDS.broken(checkThreshold(result, aliasThreshold('max-p99-ms', 250)))).toBe('p99 was 300.0 ms, above the limit of 250 ms.');
    expect(THRESHOLD_WORDS.broken(checkThreshold(result, aliasThreshold('min-delivery', 0.999)))).toBe('Delivery was 99.00% of 1,000 planned receptions, below the minimum of 99.90%.');
    expect(broken('p99<300ms')).toBe('p99 was 300.0 ms, not below 300 ms.');
    expect(broken('p50>2ms')).toBe('p50 was 2.00 ms, not above 2 ms.');
    expect(broken('lost==0')).toBe('Receptions lost: 8 of 1,000 planned, not 0.');
    expect(broken('duplicated!=1')).toBe('Receptions duplicated: 1 of 1,000 planned, which \'duplicated!=1\' excludes.');
    expect(broken('loss<=0.5%')).toBe('Receptions lost, never sent or duplicated: 1.10% of 1,000 planned, above the limit of 0.50%.');
    expect(broken('max<400ms')).toBe('Max latency was 410.0 ms, not below 400 ms.');
    expect(broken('received/s>=1000000')).toMatch(/^The received rate was [\d.,]+ msg\/s, below the minimum of 1,000,000 msg\/s\.$/);
  });

  it('prints each check with a check mark, as k6 does, and the alias it stands for', () => {
    const result = withFigures();
    const checks = checkThresholds(result, [parsed('p99<500ms'), parsed('lost==0'), parsed('lost<=1%'), aliasThreshold('min-delivery', 0.98)]);
    expect(thresholdLines(checks)).toEqual([
      'Thresholds:',
      '  ✓ \'p99<500ms\' p99=300.0 ms',
      '  ✗ \'lost==0\' lost=8',
      '  ✓ \'lost<=1%\' lost=0.80% (of 1,000 planned)',
      '  ✓ \'delivery>=98%\' delivery=99.00% (--min-delivery 0.98)',
    ]);
    expect(THRESHOLD_WORDS.line(checkThreshold(result, aliasThreshold('allow-loss', 0.02)))).toBe('  ✓ \'loss<=2%\' loss=1.10% (of 1,000 planned; --allow-loss 0.02)');
    expect(thresholdLines([])).toEqual([]);
  });
});

describe('the loss rule', () => {
  let run: RunResult;
  beforeAll(async () => {
    run = await finishedRun();
  });

  it('fails any loss unless a threshold caps the loss (--allow-loss is one)', () => {
    const lossy: RunResult = { ...run, fates: { ...run.fates, lost: 3 } };
    expect(lossRuleReason(run, [])).toBeNull();
    expect(lossRuleReason(lossy, [])).toMatch(/^3 lost: .* did not arrive exactly once, and no loss was allowed\./);
    // A cap stands in for the rule; it is judged as a threshold (and may break as one).
    expect(lossRuleReason(lossy, [aliasThreshold('allow-loss', 0.5)])).toBeNull();
    expect(lossRuleReason(lossy, [parsed('loss<1%')])).toBeNull();
    expect(lossRuleReason(lossy, [parsed('loss==0')])).toBeNull();
    // A threshold that does not cap the loss leaves the rule as it is.
    expect(lossRuleReason(lossy, [parsed('loss>=0')])).toMatch(/no loss was allowed/);
    expect(lossRuleReason(lossy, [parsed('lost<=5')])).toMatch(/no loss was allowed/);
  });
});

describe('the runner\'s --threshold (cli/args.ts)', () => {
  it('takes it repeated, in order, before the old flags\' aliases', () => {
    const parsed = parseCliArgs(['--endpoint', 'http://h/x', '--threshold', 'p99<250ms', '--max-p99-ms', '300', '--threshold', 'lost==0']);
    expect(parsed.ok === true && parsed.options.thresholds.checks.map((t) => [t.expression, t.alias])).toEqual([['p99<250ms', null], ['lost==0', null], ['p99<=300ms', '--max-p99-ms 300']]);
  });

  it('says every bad one with the other problems, and nothing runs', () => {
    const parsed = parseCliArgs(['--endpoint', 'http://h/x', '--threshold', 'p99<fast', '--threshold', 'lost=0', '--connections', '0']);
    expect(parsed.ok).toBe(false);
    const errors = parsed.ok === false ? parsed.errors : [];
    expect(errors).toContain('--threshold \'p99<fast\': "fast" is not a time; write p99<250ms (ms, or s; a plain number is ms)');
    expect(errors.some((e) => e.startsWith('--threshold \'lost=0\': = is not a comparison'))).toBe(true);
    expect(errors.some((e) => e.startsWith('Connections must be'))).toBe(true);
  });

  it('is refused in a capacity search, whose steps the guide\'s rule judges', () => {
    const parsed = parseCliArgs(['--endpoint', 'http://h/x', '--find-capacity', '--ramp', 'rate', '--start', '10', '--step', '10', '--max', '30', '--threshold', 'p99<250ms']);
    expect(parsed.ok === false && parsed.errors).toContain('--threshold does not apply to a capacity search (each step is judged by the guide\'s rule): drop --threshold.');
  });
});
