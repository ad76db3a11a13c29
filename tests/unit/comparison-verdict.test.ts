import { describe, expect, it } from 'vitest';
import { comparisonVerdict } from '../../core/compare/verdict.ts';
import { comparisonTable } from '../../core/compare/comparison.ts';
import { finishedRun } from '../support/finished-run.ts';
import { seeded } from '../support/seeded-random.ts';
import { createLatencyHistogram, encodeHistogram, recordLatencyUs, summarizeLatency } from '../../core/latency/latency.ts';
import type { RunResult } from '../../core/result/result.ts';

/** `seconds` seconds of `perSecond` latencies each, uniform in [lowUs, highUs). */
function jittered(seconds: number, perSecond: number, lowUs: number, highUs: number, seed: number): number[][] {
  const random = seeded(seed);
  return Array.from({ length: seconds }, () => Array.from({ length: perSecond }, () => lowUs + Math.floor(random() * (highUs - lowUs))));
}

/** Seconds whose slowest messages differ from one second to the next (a pause here, none there):
 *  each second uniform from 2 ms to its own top, between 10 and 60 ms. */
function bursty(seconds: number, perSecond: number, seed: number): number[][] {
  const random = seeded(seed);
  return Array.from({ length: seconds }, () => {
    const topUs = 10_000 + Math.floor(random() * 50_000);
    return Array.from({ length: perSecond }, () => 2_000 + Math.floor(random() * (topUs - 2_000)));
  });
}

/** A finished run with these latencies, second by second, in place of its own (its delivery kept). */
function withSeconds(result: RunResult, seconds: readonly (readonly number[])[]): RunResult {
  const merged = createLatencyHistogram();
  const histograms = seconds.map((latencies, i) => {
    const h = createLatencyHistogram();
    for (const us of latencies) { recordLatencyUs(h, us); recordLatencyUs(merged, us); }
    return { second: i + 1, latency: encodeHistogram(h) };
  });
  return { ...result, histograms, latency: summarizeLatency(merged) };
}

describe('comparisonVerdict', () => {
  it('names the run that passed the guide\'s rule, never the faster one that lost a message', async () => {
    const lossyButFast = await finishedRun({}, { deliveryDelayMs: 2, drop: (connection, n) => connection === 0 && n === 5 });
    const wholeButSlower = await finishedRun({}, { deliveryDelayMs: 30 });
    expect(lossyButFast.latency.p99Us!).toBeLessThan(wholeButSlower.latency.p99Us!);
    const verdict = comparisonVerdict([{ label: 'stateful off', result: lossyButFast }, { label: 'stateful on', result: wholeButSlower }]);
    expect(verdict.bestIndexes).toEqual([1]);
    expect(verdict.passed).toBe(true);
    expect(verdict.sentence).toMatch(/^Best: stateful on: passed the guide's rule \(99% in under 1 s, nothing lost\), p99 30\.\d ms \(stateful off: failed the rule, delivered 99\.\d\d%\)\.$/);
  });

  it('with no run passing, prefers more delivered over a lower p99, and p99 only among equal delivery', async () => {
    // 20 connections, 10 messages a second each, for 3 s: 600 messages, enough to rank by p99.
    const load = { connections: 20, sendIntervalMs: 100, durationSec: 3 };
    const lostOne = await finishedRun(load, { deliveryDelayMs: 40, drop: (connection, n) => connection === 0 && n === 5 });
    const lostTwoFast = await finishedRun(load, { deliveryDelayMs: 2, drop: (connection, n) => connection === 0 && (n === 5 || n === 6) });
    const lostOneFaster = await finishedRun(load, { deliveryDelayMs: 10, drop: (connection, n) => connection === 1 && n === 3 });
    const verdict = comparisonVerdict([{ label: 'A', result: lostOne }, { label: 'B', result: lostTwoFast }, { label: 'C', result: lostOneFaster }]);
    expect(verdict.passed).toBe(false);
    expect(verdict.bestIndexes).toEqual([2]);
    expect(verdict.sentence).toMatch(/^Best: C: no run passed the guide's rule; it delivered the most \(99\.\d\d%\) with the lowest p99, 10\.\d ms, 95%: 10\.\d ms–10\.\d ms, below every other run's interval \(A: p99 40\.\d ms, 95%: 40\.\d ms–40\.\d ms; B: delivered 99\.\d\d%\)\.$/);
  });

  it('names no best for one run or runs without a verdict', async () => {
    const a = await finishedRun({}, { deliveryDelayMs: 5 });
    expect(comparisonVerdict([{ label: 'a', result: a }])).toMatchObject({ kind: 'none', bestIndexes: [], sentence: '', passed: false });
    const stopped = { ...a, outcome: { kind: 'stopped' as const, stoppedAtSec: 1 } };
    expect(comparisonVerdict([{ label: 'a', result: stopped }, { label: 'b', result: { ...stopped } }]).bestIndexes).toEqual([]);
  });

  it('with 20 messages a run, names nobody: too few messages to rank, and how long to run', async () => {
    // The case: 4 connections for 5 s, one message a second each; the faster p99 is one message.
    const fast = await finishedRun({ sendIntervalMs: 1_000, durationSec: 5 }, { deliveryDelayMs: 35 });
    const slow = await finishedRun({ sendIntervalMs: 1_000, durationSec: 5 }, { deliveryDelayMs: 144 });
    const verdict = comparisonVerdict([{ label: 'Server-Sent Events + JSON', result: fast }, { label: 'WebSockets + JSON', result: slow }]);
    expect(verdict).toMatchObject({ kind: 'too-few', bestIndexes: [], passed: false, runAtLeastSec: 125 });
    expect(verdict.sentence).toBe("Too few messages to rank: Server-Sent Events + JSON received 20, WebSockets + JSON received 20; a run's p99 needs 500 messages to have 5 slower than it (with 20 it is the slowest message itself). Run at least 125 s at this load.");
    expect(verdict.evidence.map((e) => e.receptions)).toEqual([20, 20]);
  });

  it('with too few messages, loss still ranks first: the run that kept every message is named', async () => {
    const lossy = await finishedRun({ sendIntervalMs: 1_000, durationSec: 5 }, { deliveryDelayMs: 2, drop: (connection, n) => connection === 0 && n === 2 });
    const whole = await finishedRun({ sendIntervalMs: 1_000, durationSec: 5 }, { deliveryDelayMs: 144 });
    const verdict = comparisonVerdict([{ label: 'fast', result: lossy }, { label: 'whole', result: whole }]);
    expect(verdict).toMatchObject({ kind: 'best', bestIndexes: [1], passed: true });
    expect(verdict.sentence).toMatch(/^Best: whole: passed the guide's rule .*, p99 144\.\d ms \(fast: failed the rule, delivered 9\d\.\d\d%\)\.$/);
  });

  it('names the faster run when enough messages put its interval below the other', async () => {
    const fast = withSeconds(await finishedRun({ connections: 20, sendIntervalMs: 100, durationSec: 3 }), jittered(10, 200, 2_000, 4_000, 1));
    const slow = withSeconds(await finishedRun({ connections: 20, sendIntervalMs: 100, durationSec: 3 }), jittered(10, 200, 9_000, 12_000, 2));
    const verdict = comparisonVerdict([{ label: 'slow', result: slow }, { label: 'fast', result: fast }]);
    expect(verdict).toMatchObject({ kind: 'best', bestIndexes: [1], passed: true });
    const [slowE, fastE] = verdict.evidence;
    expect(fastE!.interval!.highUs).toBeLessThan(slowE!.interval!.lowUs);
    expect(verdict.sentence).toMatch(/^Best: fast: passed the guide's rule \(99% in under 1 s, nothing lost\) with the lowest p99, [34]\.\d\d ms, 95%: [\d.]+ ms–[\d.]+ ms, below every other run's interval \(slow: p99 1[12]\.\d ms, 95%: [\d.]+ ms–[\d.]+ ms\)\.$/);
  });

  it('calls it too close when the intervals overlap, though one p99 is lower', async () => {
    // The same spread, one run with a slow second more: its p99 is higher, its interval overlaps.
    const calm = withSeconds(await finishedRun({ connections: 20, sendIntervalMs: 100, durationSec: 3 }), bursty(10, 200, 5));
    const rough = withSeconds(await finishedRun({ connections: 20, sendIntervalMs: 100, durationSec: 3 }), bursty(10, 200, 6));
    const verdict = comparisonVerdict([{ label: 'calm', result: calm }, { label: 'rough', result: rough }]);
    expect(calm.latency.p99Us!).toBeLessThan(rough.latency.p99Us!);
    expect(verdict).toMatchObject({ kind: 'too-close', bestIndexes: [0, 1], passed: false });
    expect(verdict.sentence).toMatch(/^Too close to call: calm \(p99 [\d.]+ ms, 95%: [\d.]+ ms–[\d.]+ ms\) and rough \(p99 [\d.]+ ms, 95%: [\d.]+ ms–[\d.]+ ms\); their intervals from resampling each run's seconds overlap\.$/);
  });

  it('calls identical runs too close to call, never a tie named best', async () => {
    const a = await finishedRun({ connections: 20, sendIntervalMs: 100, durationSec: 3 }, { deliveryDelayMs: 5 });
    const b = await finishedRun({ connections: 20, sendIntervalMs: 100, durationSec: 3 }, { deliveryDelayMs: 5 });
    const verdict = comparisonVerdict([{ label: 'a', result: a }, { label: 'b', result: b }]);
    expect(verdict.kind).toBe('too-close');
    expect(verdict.sentence).toMatch(/^Too close to call: a \(p99 5\.\d\d ms/);
  });

  it('gives a drop comparison its own columns: time to reconnect, resumed and never sent', async () => {
    const plain = comparisonTable([{ label: 'a', result: await finishedRun() }, { label: 'b', result: await finishedRun() }]);
    expect(plain.columns.map((c) => c.key)).not.toContain('resumed');
    const dropped = await finishedRun({ dropAtSec: 1, reconnect: true, durationSec: 3 }, { deliveryDelayMs: 5, reconnectAfterMs: 300 });
    const table = comparisonTable([{ label: 'off', result: dropped }, { label: 'on', result: dropped }]);
    expect(table.columns.map((c) => c.key)).toEqual(expect.arrayContaining(['reconnectP50', 'reconnectP99', 'resumed', 'neverSent']));
    const p50 = table.columns.findIndex((c) => c.key === 'reconnectP50');
    expect(table.rows[0]!.cells[p50]!.text).toMatch(/ms$/);
  });
});
