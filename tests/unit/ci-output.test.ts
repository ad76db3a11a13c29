/**
 * What a CI job reads from the runner: loss fails a run whatever --no-guide-rule says (unless
 * --allow-loss), an internal error is exit 4 with its message, and unknown percentiles are null
 * in the result and "–" in the summary, never 0.
 */
import { describe, expect, it } from 'vitest';
import { parseCliArgs } from '../../cli/args.ts';
import { EXIT, runCli, type Output } from '../../cli/output.ts';
import { summaryText } from '../../cli/report.ts';
import { lossBeyondAllowance } from '../../cli/thresholds.ts';
import { createLatencyHistogram, knownLatency, summarizeLatency } from '../../core/latency/latency.ts';
import { parseRunResult } from '../../core/result/result.ts';
import { finishedRun } from '../support/finished-run.ts';

function capture(): Output & { outLines: string[]; errLines: string[] } {
  const outLines: string[] = [];
  const errLines: string[] = [];
  return { outLines, errLines, out: (line) => outLines.push(line), err: (line) => errLines.push(line) };
}

describe('--allow-loss', () => {
  it('takes a ratio from 0 to 1 and refuses anything else, saying what it means', () => {
    const ok = parseCliArgs(['--endpoint', 'http://h/x', '--no-guide-rule', '--allow-loss', '0.01']);
    expect(ok.ok === true && ok.options.thresholds).toMatchObject({ guideRule: false, checks: [{ expression: 'loss<=1%', alias: '--allow-loss 0.01', metric: 'loss', limit: 0.01 }] });
    const byDefault = parseCliArgs(['--endpoint', 'http://h/x', '--no-guide-rule']);
    expect(byDefault.ok === true && byDefault.options.thresholds.checks).toEqual([]);
    for (const bad of ['1.5', '-0.1', 'all', '']) {
      const parsed = parseCliArgs(['--endpoint', 'http://h/x', `--allow-loss=${bad}`]);
      expect(parsed.ok).toBe(false);
      expect(parsed.ok === false && parsed.errors.join('\n')).toMatch(/--allow-loss must be a fraction from 0 to 1 \(a share of the planned receptions/);
    }
  });

  it('is refused in a capacity search, whose steps count every loss', () => {
    const parsed = parseCliArgs(['--endpoint', 'http://h/x', '--find-capacity', '--ramp', 'rate', '--start', '10', '--step', '10', '--max', '30', '--allow-loss', '0.1']);
    expect(parsed.ok === false && parsed.errors.join('\n')).toMatch(/--allow-loss does not apply to a capacity search/);
  });
});

describe('lossBeyondAllowance', () => {
  it('fails a run that lost, never sent or duplicated any message, unless their share is allowed', async () => {
    // Every third send of connection 0 is dropped by the hub: lost receptions, nothing else wrong.
    const result = await finishedRun({}, { deliveryDelayMs: 5, drop: (connection, n) => connection === 0 && n % 3 === 0 });
    const lost = result.fates.lost!;
    expect(lost).toBeGreaterThan(0);
    const share = lost / result.fates.planned;
    expect(lossBeyondAllowance(result, 0)).toMatch(new RegExp(`^${lost} lost: .* did not arrive exactly once, and no loss was allowed\\. .*--allow-loss`));
    expect(lossBeyondAllowance(result, share / 2)).toMatch(/more than --allow-loss/);
    expect(lossBeyondAllowance(result, share)).toBeNull();
    expect(lossBeyondAllowance(result, 1)).toBeNull();
  });

  it('counts duplicates too, and passes a run where every message arrived once', async () => {
    const clean = await finishedRun();
    expect(lossBeyondAllowance(clean, 0)).toBeNull();
    const doubled = await finishedRun({}, { deliveryDelayMs: 5, duplicate: (connection, n) => connection === 1 && n === 2 });
    expect(doubled.totals.duplicated).toBeGreaterThan(0);
    expect(lossBeyondAllowance(doubled, 0)).toMatch(/duplicated/);
  });
});

describe('runCli (bin/live-bench.js)', () => {
  it('gives main\'s exit code', async () => {
    expect(await runCli(async () => 3, [], capture())).toBe(3);
  });

  it('turns an error escaping main into exit 4 with its message, not 1 like a failed verdict', async () => {
    const io = capture();
    const code = await runCli(async () => {
      throw new TypeError('Cannot read properties of undefined (reading \'points\')');
    }, ['--endpoint', 'x'], io);
    expect(code).toBe(EXIT.crashed);
    expect(code).toBe(4);
    expect(io.errLines).toHaveLength(1);
    expect(io.errLines[0]).toMatch(/^live-bench: internal error \(exit 4, not a verdict on the service\): Cannot read properties of undefined \(reading 'points'\)/);
    expect(io.outLines).toEqual([]);
  });
});

describe('unknown percentiles', () => {
  it('are null for an empty histogram, never 0', () => {
    expect(summarizeLatency(createLatencyHistogram())).toEqual({ count: 0, p50Us: null, p90Us: null, p99Us: null, p999Us: null, maxUs: null, meanUs: null });
  });

  it('read as null from documents that stored 0 for an empty histogram; measured ones stay', () => {
    expect(knownLatency({ count: 0, p50Us: 0, p90Us: 0, p99Us: 0, p999Us: 0, maxUs: 0, meanUs: 0 }).p99Us).toBeNull();
    const measured = { count: 3, p50Us: 10, p90Us: 20, p99Us: 30, p999Us: 30, maxUs: 30, meanUs: 15 };
    expect(knownLatency(measured)).toBe(measured);
  });

  it('are null in the result of a run where nothing arrived, "–" in its summary, and an older file with 0s still loads as null', async () => {
    const result = await finishedRun({}, { deliveryDelayMs: 5, drop: () => true });
    expect(result.latency.count).toBe(0);
    expect(result.latency.p99Us).toBeNull();
    expect(result.uncorrectedLatency.p50Us).toBeNull();
    expect(result.points.every((p) => p.latency.count > 0 || p.latency.p99Us === null)).toBe(true);
    const json = JSON.parse(JSON.stringify(result));
    expect(json.latency.p99Us).toBeNull();
    const text = summaryText(result);
    expect(text).toMatch(/Latency from planned send time: p50 –, p90 –, p99 –, p99\.9 –, max – \(no message was received\)/);
    expect(text).not.toMatch(/p99 0\.00 ms/);
    // A document written before: 0 for every figure of an empty histogram.
    const zeros = { count: 0, p50Us: 0, p90Us: 0, p99Us: 0, p999Us: 0, maxUs: 0, meanUs: 0 };
    const older = { ...json, latency: zeros, uncorrectedLatency: zeros, points: json.points.map((p: { latency: unknown }) => ({ ...p, latency: zeros })) };
    const read = parseRunResult(JSON.stringify(older));
    expect(read.latency.p99Us).toBeNull();
    expect(read.uncorrectedLatency.maxUs).toBeNull();
    expect(read.points.every((p) => p.latency.p50Us === null)).toBe(true);
  });
});
