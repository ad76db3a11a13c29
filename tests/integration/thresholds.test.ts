/**
 * Thresholds as a user writes them in CI: `node bin/live-bench.js --threshold …` against the real
 * hub-sample, each threshold's result in the JSON and in the summary with its check mark, and the
 * exit code: 1 when one breaks, 0 when all hold, 2 for a threshold the grammar refuses.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { liveBench } from '../support/live-bench.ts';

const endpoint = () => `${inject('hubHttpUrl')}/signalrbench`;
/** 20 echo connections, 4 sends each in 2 s: 80 planned receptions. */
const small = ['--connections', '20', '--workers', '1', '--interval-ms', '500', '--duration', '2', '--quiet'];

describe('--threshold, k6\'s grammar in the runner', () => {
  it('one threshold broken: exit 1, ✗ beside it and ✓ beside the others, each one\'s figure in the JSON', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'live-bench-'));
    const jsonPath = path.join(dir, 'result.json');
    const run = await liveBench(['--endpoint', endpoint(), ...small, '--json', jsonPath,
      '--threshold', 'p99<30s', '--threshold', 'p(99)<0.001', '--threshold', 'lost==0', '--threshold', 'delivery>=99%', '--max-p99-ms', '60000']);
    expect(run.code, run.stderr).toBe(1);
    // The run itself passed: the broken threshold alone fails it.
    expect(run.stdout).toMatch(/Verdict: Pass/);
    expect(run.stderr).not.toMatch(/verdict is not a pass|did not arrive exactly once/);
    expect(run.stderr).toMatch(/live-bench: threshold broken: p99 was [\d.]+ (ms|s), not below 0\.001 ms\./);
    expect(run.stderr.match(/threshold broken/g)).toHaveLength(1);
    // The summary's block, as k6 prints them.
    const block = run.stdout.slice(run.stdout.indexOf('Thresholds:')).split('\n');
    expect(block[0]).toBe('Thresholds:');
    expect(block[1]).toMatch(/^ {2}✓ 'p99<30s' p99=[\d.]+ ms$/);
    expect(block[2]).toMatch(/^ {2}✗ 'p\(99\)<0\.001' p99=[\d.]+ ms$/);
    expect(block[3]).toBe('  ✓ \'lost==0\' lost=0');
    expect(block[4]).toBe('  ✓ \'delivery>=99%\' delivery=100.00%');
    expect(block[5]).toMatch(/^ {2}✓ 'p99<=60000ms' p99=[\d.]+ ms \(--max-p99-ms 60000\)$/);
    // The JSON: each threshold's expression, its figure with its unit, pass or fail.
    const document = JSON.parse(await readFile(jsonPath, 'utf8'));
    expect(document.format).toBe('signalr-live-bench/run');
    const [p99, tight, lost, delivery, alias] = document.thresholds;
    expect(p99).toMatchObject({ expression: 'p99<30s', metric: 'p99', operator: '<', limit: 30_000, unit: 'ms', passed: true });
    expect(p99.measured).toBeGreaterThan(0);
    expect(p99.measured).toBe(document.latency.p99Us / 1_000);
    expect(tight).toMatchObject({ expression: 'p(99)<0.001', metric: 'p99', operator: '<', limit: 0.001, unit: 'ms', measured: p99.measured, passed: false });
    expect(lost).toEqual({ expression: 'lost==0', metric: 'lost', operator: '==', limit: 0, measured: 0, unit: 'receptions', of: 80, passed: true });
    expect(delivery).toEqual({ expression: 'delivery>=99%', metric: 'delivery', operator: '>=', limit: 99, measured: 100, unit: '%', of: 80, passed: true });
    expect(alias).toMatchObject({ expression: 'p99<=60000ms', alias: '--max-p99-ms 60000', passed: true });
  });

  it('every threshold holds: exit 0, and `--json -` carries them', async () => {
    const run = await liveBench(['--endpoint', endpoint(), ...small, '--json', '-', '--threshold', 'delivery>=99.9%', '--threshold', 'loss<=0.1%', '--threshold', 'connectionsFailed==0']);
    expect(run.code, run.stderr).toBe(0);
    const document = JSON.parse(run.stdout);
    expect(document.thresholds.map((t: { expression: string; passed: boolean }) => [t.expression, t.passed])).toEqual([['delivery>=99.9%', true], ['loss<=0.1%', true], ['connectionsFailed==0', true]]);
    // With `--json -` the summary, its thresholds too, goes to stderr.
    expect(run.stderr).toContain('  ✓ \'connectionsFailed==0\' connectionsFailed=0');
  });

  it('a threshold the grammar refuses: exit 2 within seconds, what is wrong and the form to write, nothing run', async () => {
    const run = await liveBench(['--endpoint', endpoint(), ...small, '--threshold', 'p99<fast', '--threshold', 'p(95)<200']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('live-bench: --threshold \'p99<fast\': "fast" is not a time; write p99<250ms');
    expect(run.stderr).toContain('live-bench: --threshold \'p(95)<200\': the run does not record p95');
    expect(run.stderr).toContain('nothing was run');
    expect(run.stdout).toBe('');
    expect(run.elapsedMs).toBeLessThan(10_000);
  });
});
