import { describe, expect, it } from 'vitest';
import { comparisonVerdict } from '../../core/compare/verdict.ts';
import { comparisonTable } from '../../core/compare/comparison.ts';
import { finishedRun } from '../support/finished-run.ts';

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
    const lostOne = await finishedRun({}, { deliveryDelayMs: 40, drop: (connection, n) => connection === 0 && n === 5 });
    const lostTwoFast = await finishedRun({}, { deliveryDelayMs: 2, drop: (connection, n) => connection === 0 && (n === 5 || n === 6) });
    const lostOneFaster = await finishedRun({}, { deliveryDelayMs: 10, drop: (connection, n) => connection === 1 && n === 3 });
    const verdict = comparisonVerdict([{ label: 'A', result: lostOne }, { label: 'B', result: lostTwoFast }, { label: 'C', result: lostOneFaster }]);
    expect(verdict.passed).toBe(false);
    expect(verdict.bestIndexes).toEqual([2]);
    expect(verdict.sentence).toMatch(/^Best: C: no run passed the guide's rule; it delivered the most \(99\.\d\d%\), p99 10\.\d ms \(A: p99 40\.\d ms; B: delivered 98\.\d\d%\)\.$/);
  });

  it('calls runs within 1% on p99 a tie, and names no best for one run or runs without a verdict', async () => {
    const a = await finishedRun({}, { deliveryDelayMs: 5 });
    const b = await finishedRun({}, { deliveryDelayMs: 5 });
    expect(comparisonVerdict([{ label: 'a', result: a }, { label: 'b', result: b }]).sentence).toMatch(/^Best: a and b \(a tie within 1% on p99\): passed/);
    expect(comparisonVerdict([{ label: 'a', result: a }])).toEqual({ bestIndexes: [], sentence: '', passed: false });
    const stopped = { ...a, outcome: { kind: 'stopped' as const, stoppedAtSec: 1 } };
    expect(comparisonVerdict([{ label: 'a', result: stopped }, { label: 'b', result: { ...stopped } }]).bestIndexes).toEqual([]);
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
