import { describe, expect, it } from 'vitest';
import { parseCliArgs } from '../../cli/args.ts';
import { defaultEngineCount } from '../../cli/engine-count.ts';
import { brokenThresholds } from '../../cli/thresholds.ts';
import { aliasThreshold, checkThresholds } from '../../core/thresholds/index.ts';
import type { RunResult } from '../../core/result/result.ts';

describe('parseCliArgs', () => {
  it('takes the dashboard defaults', () => {
    const parsed = parseCliArgs(['--endpoint', 'http://h/signalrbench']);
    expect(parsed.ok === true && parsed.options.config).toMatchObject({ scenario: 'echo', messageBytes: 2_048, sendIntervalMs: 1_000, transport: 'WebSockets' });
  });

  it('maps every option onto the run configuration and thresholds', () => {
    const parsed = parseCliArgs(['--endpoint', 'http://h/x', '--scenario', 'bigGroup', '--transport', 'LongPolling', '--protocol', 'messagepack',
      '--connections', '200', '--workers', '4', '--message-bytes', '512', '--interval-ms', '250', '--duration', '60', '--warmup', '5',
      '--senders', '20', '--group-size', '20', '--group-count', '10', '--max-p99-ms', '250', '--min-delivery', '0.999', '--guide-rule', '--json', '-', '--html', 'report.html']);
    expect(parsed.ok).toBe(true);
    if (parsed.ok !== true) return;
    expect(parsed.options.config).toMatchObject({ scenario: 'bigGroup', transport: 'LongPolling', protocol: 'messagepack', connections: 200, workers: 4,
      messageBytes: 512, sendIntervalMs: 250, durationSec: 60, warmupSec: 5, senders: 20, groupSize: 20, groupCount: 10 });
    // The old flags are thresholds of the one grammar (core/thresholds), said as the aliases they are.
    expect(parsed.options.thresholds).toEqual({ checks: [aliasThreshold('max-p99-ms', 250), aliasThreshold('min-delivery', 0.999)], guideRule: true });
    expect(parsed.options.thresholds.checks.map((t) => [t.expression, t.alias])).toEqual([['p99<=250ms', '--max-p99-ms 250'], ['delivery>=99.9%', '--min-delivery 0.999']]);
    expect(parsed.options.jsonPath).toBe('-');
    expect(parsed.options.htmlPath).toBe('report.html');
  });

  it('refuses options that would be ignored or overwritten without a word, saying what to add', () => {
    const errorsOf = (...args: string[]) => {
      const parsed = parseCliArgs(['--endpoint', 'http://h/signalrbench', ...args]);
      return parsed.ok === false ? parsed.errors : [];
    };
    expect(errorsOf('--drop-share', '50')).toEqual(['--drop-share needs --drop-at (the second of the sends at which connections drop: without it nothing is dropped). Add --drop-at, or drop --drop-share.']);
    expect(errorsOf('--drop-kind', 'server')[0]).toMatch(/^--drop-kind needs --drop-at/);
    expect(errorsOf('--reconnect-policy', 'jittered')[0]).toMatch(/^--reconnect-policy needs --reconnect \(without it a lost connection does not come back/);
    expect(errorsOf('--json', 'out/r.txt', '--html', './out/r.txt')).toEqual(['--json and --html both write out/r.txt: the second would overwrite the first. Give each its own file.']);
    expect(errorsOf('--html', 'a.html', '--memory-log', 'a.html')[0]).toMatch(/^--html and --memory-log both write a\.html/);
    expect(errorsOf('--endpoint', 'http://h/signalrbench')).toEqual(['Endpoint lists http://h/signalrbench more than once: list each hub instance once (the connections are spread evenly over the list).']);
    // With what they need, they mean something.
    expect(parseCliArgs(['--endpoint', 'http://h/x', '--duration', '10', '--reconnect', '--reconnect-policy', 'jittered', '--drop-at', '2', '--drop-share', '50', '--drop-kind', 'server', '--json', '-', '--html', 'r.html']).ok).toBe(true);
  });

  it('takes the instances of a scaled-out hub, --endpoint repeated or a list, and one --server-metrics per instance in their order', () => {
    const a = 'http://127.0.0.1:5181/signalrbench';
    const b = 'http://127.0.0.1:5182/signalrbench';
    const repeated = parseCliArgs(['--endpoint', a, '--endpoint', b, '--server-metrics', 'http://127.0.0.1:5181/metrics', '--server-metrics', 'http://127.0.0.1:5182/metrics']);
    expect(repeated.ok === true && [repeated.options.config.endpointUrl, repeated.options.config.endpointUrls, repeated.options.serverMetricsUrls]).toEqual([a, [a, b], ['http://127.0.0.1:5181/metrics', 'http://127.0.0.1:5182/metrics']]);
    const listed = parseCliArgs(['--endpoint', `${a},${b}`]);
    expect(listed.ok === true && listed.options.config.endpointUrls).toEqual([a, b]);
    const one = parseCliArgs(['--endpoint', a, '--endpoint', b, '--server-metrics', 'http://127.0.0.1:5181/metrics']);
    expect(one.ok === false && one.errors).toEqual(['--server-metrics is given 1 time, but the run has 2 hub instances (--endpoint): give one /metrics address per instance, in the same order as the endpoints.']);
    const search = parseCliArgs(['--endpoint', a, '--endpoint', b, '--server-metrics', 'http://x/metrics,http://y/metrics', '--find-capacity', '--ramp', 'connections', '--start', '10', '--step', '10', '--max', '20']);
    expect(search.ok === false && search.errors).toContain('--find-capacity reads one server\'s metrics, but --server-metrics is given several times: give one address, the instance to watch.');
  });

  it('names an unknown option', () => {
    const parsed = parseCliArgs(['--endpoint', 'http://h/x', '--conections', '5']);
    expect(parsed.ok === false && parsed.errors[0]).toMatch(/--conections.*--help/);
  });
});

describe('brokenThresholds', () => {
  const result = {
    fates: { planned: 1_000 },
    verdict: { delivery: 0.99 },
    latency: { count: 990, p99Us: 300_000 },
  } as unknown as RunResult;

  it('reports every broken threshold in words', () => {
    expect(brokenThresholds(checkThresholds(result, [aliasThreshold('max-p99-ms', 250), aliasThreshold('min-delivery', 0.999)]))).toEqual([
      'p99 was 300.0 ms, above the limit of 250 ms.',
      'Delivery was 99.00% of 1,000 planned receptions, below the minimum of 99.90%.',
    ]);
  });

  it('passes what is within the limits', () => {
    expect(brokenThresholds(checkThresholds(result, [aliasThreshold('max-p99-ms', 300), aliasThreshold('min-delivery', 0.99)]))).toEqual([]);
  });
});

describe('defaultEngineCount (--workers when not given)', () => {
  it('is one engine per 5,000 connections, at most one per core beyond the first, at least one', () => {
    expect(defaultEngineCount(255, 2)).toBe(1);
    expect(defaultEngineCount(10_000, 2)).toBe(1);
    expect(defaultEngineCount(5_000, 8)).toBe(1);
    expect(defaultEngineCount(5_001, 8)).toBe(2);
    expect(defaultEngineCount(100_000, 8)).toBe(7);
    expect(defaultEngineCount(20, 1)).toBe(1);
    expect(defaultEngineCount(Number.NaN, 8)).toBe(1);
  });

  it('is what parseCliArgs puts in the configuration, and --workers overrides it', () => {
    const parsed = parseCliArgs(['--endpoint', 'http://h/signalrbench', '--connections', '255']);
    expect(parsed.ok === true && parsed.options.config.workers).toBe(defaultEngineCount(255));
    const given = parseCliArgs(['--endpoint', 'http://h/signalrbench', '--connections', '255', '--workers', '3']);
    expect(given.ok === true && given.options.config.workers).toBe(3);
  });
});
