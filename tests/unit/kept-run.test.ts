import { describe, expect, it } from 'vitest';
import { COMPARISON_FORMAT, exportComparison, exportRun, importRuns, interruptedResult, keptRunOf, settleCutOff, STALE_RUNNING_MS, type KeptRun } from '../../core/history/kept-run.ts';
import { parseRunResult } from '../../core/result/result.ts';
import { finishedRun } from '../support/finished-run.ts';

const now = new Date('2026-03-04T05:06:07.000Z');

async function keptRun(overrides: Partial<KeptRun> = {}): Promise<KeptRun> {
  const result = await finishedRun();
  return {
    id: 'run-1',
    name: 'Echo over WebSockets',
    status: 'finished',
    savedAt: '2026-01-02T03:04:40.000Z',
    toolVersion: '0.1.0',
    signalrClientVersion: '10.0.11',
    comparisonId: null,
    result,
    ...overrides,
  };
}

describe('kept runs in files', () => {
  it('export then import gives the same run, through JSON text', async () => {
    const finished = await keptRun({ comparisonId: 'cmp-1' });
    const run = { ...finished, status: 'interrupted' as const, result: interruptedResult(finished.result) };
    const [back, ...more] = importRuns(JSON.stringify(exportRun(run)), now);
    expect(more).toEqual([]);
    expect(back).toEqual(run);
    // The histograms survive too: the merged latency can be rebuilt from them.
    expect(back!.result.histograms.length).toBeGreaterThan(0);
  });

  it('an exported run is still a plain run document for every reader of the run format', async () => {
    const run = await keptRun();
    const doc = parseRunResult(JSON.stringify(exportRun(run)));
    expect(doc.totals).toEqual(run.result.totals);
    expect(doc.points).toEqual(run.result.points);
  });

  it('a comparison exports and imports with every run in order', async () => {
    const a = await keptRun({ id: 'a', name: 'A', comparisonId: 'c' });
    const b = await keptRun({ id: 'b', name: 'B', comparisonId: 'c' });
    const doc = exportComparison('WS vs LP', [a, b], now);
    expect(doc.format).toBe(COMPARISON_FORMAT);
    expect(importRuns(JSON.stringify(doc), now)).toEqual([a, b]);
  });

  it('reads the headless runner\'s output (no history fields): fresh id, default name, its own outcome', async () => {
    const result = await finishedRun({ transport: 'LongPolling', protocol: 'messagepack' });
    const [run] = importRuns(JSON.stringify(result), now, () => 0.5);
    expect(run).toMatchObject({ name: 'Echo · Long Polling + MessagePack · 4 connections', status: 'finished', toolVersion: 'unknown', comparisonId: null });
    expect(run!.id).toMatch(/^20260304T050607000Z-/);
    expect(run!.result.verdict.status).toBe('pass');
    expect(run!.result).toEqual(result);
  });

  it('reads the versions the runner writes beside the figures, and keeps them out of the run', async () => {
    const result = await finishedRun();
    const [run] = importRuns(JSON.stringify({ ...result, toolVersion: '0.2.0', signalrClientVersion: '10.0.11' }), now, () => 0.5);
    expect(run).toMatchObject({ toolVersion: '0.2.0', signalrClientVersion: '10.0.11' });
    expect(run!.result).toEqual(result);
  });

  it('a run exported while still being written comes back as interrupted, with no verdict and losses not counted', async () => {
    const [run] = importRuns(JSON.stringify(exportRun(await keptRun({ status: 'running' }))), now);
    expect(run!.status).toBe('interrupted');
    expect(run!.result.outcome.kind).toBe('interrupted');
    expect(run!.result.verdict.status).toBe('none');
    expect(run!.result.fates.lost).toBeNull();
  });

  it.each([
    ['not JSON', '{"format":', /This is not JSON .*Choose a \.json file/],
    ['another JSON', '{"hello":1}', /is not a SignalR Live Bench run \(its "format" is undefined/],
    ['a newer run version', '{"format":"signalr-live-bench/run","version":9}', /format version 9; this version of the tool reads versions 2, 3 and 4/],
    ['a run of the first format, judged by the old rule', '{"format":"signalr-live-bench/run","version":1}', /earlier version \(format 1\).*run it again/],
    ['an empty comparison', `{"format":"${COMPARISON_FORMAT}","version":1,"runs":[]}`, /holds no runs/],
    ['a comparison with a broken run', `{"format":"${COMPARISON_FORMAT}","version":1,"runs":[{"format":"signalr-live-bench/run","version":2}]}`, /Run 1 of this comparison cannot be read: This run file has no "config"/],
  ])('refuses %s and says why', (_name, text, message) => {
    expect(() => importRuns(text, now)).toThrow(message);
  });

  it('imports a run with its server metrics, and refuses damaged ones saying how to keep the rest', async () => {
    const result = await finishedRun();
    const server = { url: 'http://fake/metrics', problem: null, failedScrapes: 0, deliveries: 12, points: [] };
    const [run] = importRuns(JSON.stringify({ ...result, server }), now);
    expect(run!.result.server).toEqual(server);
    expect(() => importRuns(JSON.stringify({ ...result, server: { url: 'x' } }), now)).toThrow(/"server" metrics have no list of points: it is damaged\. Remove its "server" field/);
  });
});

describe('keptRunOf', () => {
  it('keeps a finished run document with its versions, default name and verdict', async () => {
    const result = await finishedRun({ transport: 'LongPolling' });
    const run = keptRunOf(result, { toolVersion: '1.2.3', signalrClientVersion: '10.0.11' }, now, () => 0);
    expect(run).toMatchObject({ id: '20260304T050607000Z-000000', name: 'Echo · Long Polling + JSON · 4 connections', status: 'finished', toolVersion: '1.2.3', signalrClientVersion: '10.0.11', comparisonId: null });
    expect(run.result.verdict.status).toBe('pass');
    expect(run.result).toBe(result);
  });
});

describe('settleCutOff', () => {
  const saved = Date.parse('2026-01-02T03:04:40.000Z');

  it('marks a running record as interrupted at once when no page holds it, however fresh', async () => {
    const running = await keptRun({ status: 'running' });
    const settled = settleCutOff(running, saved + 1, false);
    expect(settled.status).toBe('interrupted');
    expect(settled.result.outcome.kind).toBe('interrupted');
    expect(settled.result.verdict.status).toBe('none');
  });

  it('leaves a running record alone while its page holds it, however old its last write', async () => {
    const running = await keptRun({ status: 'running' });
    expect(settleCutOff(running, saved + 100 * STALE_RUNNING_MS, true)).toBe(running);
  });

  it('without Web Locks, falls back to the time since the last write', async () => {
    const running = await keptRun({ status: 'running' });
    expect(settleCutOff(running, saved + STALE_RUNNING_MS, null).status).toBe('interrupted');
    expect(settleCutOff(running, saved + STALE_RUNNING_MS - 1, null)).toBe(running);
    const finished = await keptRun();
    expect(settleCutOff(finished, saved + 10 * STALE_RUNNING_MS, false)).toBe(finished);
  });
});
