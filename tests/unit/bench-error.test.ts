/**
 * Typed errors: the code a failure carries decides the runner's exit code and the page's wording;
 * nothing tells kinds apart by the message's words.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BenchError, errorCodeOf, type BenchErrorCode } from '../../core/errors/index.ts';
import { EXIT, exitCodeOf, runCli, type Output } from '../../cli/output.ts';
import { parseRunResult } from '../../core/result/result.ts';
import { parseCapacityResult } from '../../core/capacity/capacity-result.ts';
import { importRuns } from '../../core/history/kept-run.ts';
import { MemoryRunDb } from '../../core/history/db.ts';
import { RunHistory } from '../../core/history/history.ts';
import { importFailure, problemText } from '../../src/lib/problem-text.ts';
import { platformFetchText, readMetrics } from '../../core/server-metrics/index.ts';
import { estimateWorkload, expectedTraffic, formatBytesPerSecond, parsePublishedBandwidth, tier } from '../../core/guide/index.ts';
import { derangement } from '../../core/plan/derangement.ts';
import { hubExceptionText, isMissingHubMethod } from '../../signalr/errors.ts';

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

describe('the codes of the server metrics, the guide and the hub\'s refusals', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('a metrics answer that is not metrics is a parse error', () => {
    expect(errorCodeOf(thrown(() => readMetrics('<!doctype html><html><title>Home</title></html>', 0)))).toBe('parse');
    expect(errorCodeOf(thrown(() => readMetrics('# TYPE x counter\nx{ 1', 0)))).toBe('parse');
  });

  it('a metrics page that does not answer could not be reached; an error status is a refusal; an answer too large is not metrics', async () => {
    const answer = (response: Response | Error) => vi.stubGlobal('fetch', async () => {
      if (response instanceof Error) throw response;
      return response;
    });
    const fetchText = platformFetchText(1_000, 1_024);
    answer(new TypeError('fetch failed'));
    await expect(fetchText('http://127.0.0.1:9/metrics')).rejects.toMatchObject({ code: 'couldNotConnect' });
    for (const status of [404, 403, 500]) {
      answer(new Response('no', { status }));
      await expect(fetchText('http://127.0.0.1:9/metrics'), String(status)).rejects.toMatchObject({ code: 'refused' });
    }
    answer(new Response('x'.repeat(2_048), { headers: { 'content-length': '2048' } }));
    await expect(fetchText('http://127.0.0.1:9/metrics')).rejects.toMatchObject({ code: 'parse' });
  });

  it('what a person typed into the tier finder is bad input; a guide cell that is not a bandwidth is a parse error', () => {
    expect(errorCodeOf(thrown(() => expectedTraffic({ scenario: 'echo', connections: 10, senders: 11, messageBytes: 2_048, sendIntervalMs: 1_000 })))).toBe('badInput');
    expect(errorCodeOf(thrown(() => expectedTraffic({ scenario: 'smallGroup', connections: 10, groupSize: 20, messageBytes: 2_048, sendIntervalMs: 1_000 })))).toBe('badInput');
    expect(errorCodeOf(thrown(() => expectedTraffic({ scenario: 'echo', connections: 0, messageBytes: 2_048, sendIntervalMs: 1_000 })))).toBe('badInput');
    expect(errorCodeOf(thrown(() => estimateWorkload([])))).toBe('badInput');
    expect(errorCodeOf(thrown(() => parsePublishedBandwidth('2 Mbps')))).toBe('parse');
  });

  it('a broken invariant of the tool stays uncoded, so it reads as the tool\'s own failure (exit 4)', () => {
    for (const invariant of [() => derangement(1, Math.random), () => formatBytesPerSecond(-1), () => tier('current', 'Unit3')]) {
      const error = thrown(invariant);
      expect(errorCodeOf(error)).toBe('internal');
      expect(exitCodeOf(error)).toBe(EXIT.crashed);
    }
  });

  it('a hub\'s refusal of an invocation is read in one place: its own words, and whether the method is missing', () => {
    const missing = "An unexpected error occurred invoking 'JoinSession' on the server. HubException: Method does not exist.";
    expect(hubExceptionText(missing)).toBe('Method does not exist.');
    expect(isMissingHubMethod(missing)).toBe(true);
    expect(isMissingHubMethod("An unexpected error occurred invoking 'JoinSession' on the server. HubException: No session ABCD.")).toBe(false);
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
