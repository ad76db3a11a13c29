/**
 * Typed errors: the code a failure carries decides the runner's exit code and the page's wording;
 * nothing tells kinds apart by the message's words.
 */
import { describe, expect, it } from 'vitest';
import { BenchError, errorCodeOf, type BenchErrorCode } from '../../core/errors/index.ts';
import { EXIT, exitCodeOf, runCli, type Output } from '../../cli/output.ts';
import { parseRunResult } from '../../core/run/result.ts';
import { parseCapacityResult } from '../../core/capacity/capacity-result.ts';
import { importRuns } from '../../core/history/kept-run.ts';
import { MemoryRunDb } from '../../core/history/db.ts';
import { RunHistory } from '../../core/history/history.ts';
import { importFailure, problemText } from '../../src/lib/problem-text.ts';

function captured(): Output & { lines: string[] } {
  const lines: string[] = [];
  return { lines, out: (line) => lines.push(line), err: (line) => lines.push(line) };
}

function thrown(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('the runner\'s exit code of an error', () => {
  it('maps every code: what a person gave is bad input (2), a hub that did not answer or said no measured nothing (3), the rest is the runner\'s own failure (4)', () => {
    const expected: Record<BenchErrorCode, number> = { badInput: 2, parse: 2, notFound: 2, couldNotConnect: 3, refused: 3, internal: 4 };
    for (const [code, exit] of Object.entries(expected) as [BenchErrorCode, number][]) expect(exitCodeOf(new BenchError(code, 'x')), code).toBe(exit);
    expect(exitCodeOf(new Error('an invariant broke'))).toBe(EXIT.crashed);
    expect(exitCodeOf('a thrown string')).toBe(EXIT.crashed);
  });

  it('an error escaping the runner\'s main exits by its code, worded plainly unless it is internal', async () => {
    const io = captured();
    expect(await runCli(async () => { throw new BenchError('couldNotConnect', 'Cannot reach the control hub: connection refused.'); }, [], io)).toBe(EXIT.nothingMeasured);
    expect(io.lines).toEqual(['live-bench: Cannot reach the control hub: connection refused.']);
    const crash = captured();
    expect(await runCli(async () => { throw new Error('a bug'); }, [], crash)).toBe(EXIT.crashed);
    expect(crash.lines[0]).toMatch(/^live-bench: internal error \(exit 4, not a verdict on the service\): a bug/);
  });
});

describe('where the errors come from', () => {
  it('a file that is not a run or a search is a parse error, whatever its wording', () => {
    expect(errorCodeOf(thrown(() => parseRunResult('not json')))).toBe('parse');
    expect(errorCodeOf(thrown(() => parseRunResult('{"format":"other"}')))).toBe('parse');
    expect(errorCodeOf(thrown(() => parseRunResult('{"format":"signalr-live-bench/run","version":3}')))).toBe('parse');
    expect(errorCodeOf(thrown(() => parseCapacityResult('{"format":"signalr-live-bench/capacity","version":7}')))).toBe('parse');
    expect(errorCodeOf(thrown(() => importRuns('{"format":"signalr-live-bench/comparison","version":1,"runs":[]}', new Date())))).toBe('parse');
  });

  it('the history: an empty name is bad input, a run deleted meanwhile is not found', async () => {
    const history = new RunHistory(new MemoryRunDb());
    await expect(history.rename('gone', 'a name')).rejects.toMatchObject({ code: 'notFound' });
    await expect(history.rename('gone', '   ')).rejects.toMatchObject({ code: 'badInput' });
  });
});

describe('the page\'s wording of an error', () => {
  it('says a coded error\'s message as it is, and an uncoded one as the page\'s own failure', () => {
    expect(problemText(new BenchError('notFound', 'That run is no longer kept. Press Reload list.'))).toBe('That run is no longer kept. Press Reload list.');
    expect(problemText(new Error('QuotaExceededError.'))).toBe('QuotaExceededError (the page\'s own failure, not the service\'s).');
  });

  it('an import names the file and keeps the code: a file that is not a run was not imported, a store that failed did not keep it', () => {
    const parse = importFailure('notes.json', thrown(() => parseRunResult('{"format":"other"}')));
    expect(parse.code).toBe('parse');
    expect(parse.message).toMatch(/^notes\.json could not be imported: This JSON is not a SignalR Live Bench run/);
    const store = importFailure('run.json', new Error('QuotaExceededError'));
    expect(store.code).toBe('internal');
    expect(store.message).toBe('run.json could not be kept: QuotaExceededError');
  });
});
