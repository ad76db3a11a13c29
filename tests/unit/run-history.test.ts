import { describe, expect, it } from 'vitest';
import { exportComparison, headOf, type KeptRun } from '../../core/history/kept-run.ts';
import { joinRun, MemoryRunDb, secondsOf, type RunDb } from '../../core/history/db.ts';
import { RunHistory } from '../../core/history/history.ts';
import { RunRecorder } from '../../core/history/recorder.ts';
import type { RunResult } from '../../core/result/result.ts';
import { finishedRun } from '../support/finished-run.ts';

const versions = { toolVersion: '0.1.0', signalrClientVersion: '10.0.11' };

/** A clock the test moves by hand. */
function manualClock(iso: string) {
  let ms = Date.parse(iso);
  return { now: () => new Date(ms), advance: (by: number) => (ms += by) };
}

/** A run kept as it goes, its first `seconds` seconds written; the tab could die now. */
async function recordedSeconds(seconds: number) {
  const result = await finishedRun();
  const db = new MemoryRunDb();
  const clock = manualClock('2026-01-02T03:04:05.000Z');
  const recorder = new RunRecorder(db, versions, clock.now);
  const id = recorder.begin(partial(result, 0));
  for (let second = 1; second <= seconds; second++) recorder.update(partial(result, second), false);
  await recorder.flushed();
  return { result, db, clock, recorder, id };
}

/** The run as it looked after its first `seconds` seconds: still running. */
function partial(result: RunResult, seconds: number): RunResult {
  return { ...result, outcome: { kind: 'running' }, points: result.points.slice(0, seconds), histograms: result.histograms.filter((h) => h.second <= seconds) };
}

/** A store that counts writes and the seconds they carry, and can be told to fail. */
class CountingDb extends MemoryRunDb implements RunDb {
  puts = 0;
  secondsWritten: number[] = [];
  fail = false;
  override async put(run: KeptRun, seriesFrom = 0): Promise<void> {
    this.puts++;
    this.secondsWritten.push(secondsOf(run, seriesFrom).length);
    if (this.fail) throw new Error('QuotaExceededError');
    await super.put(run, seriesFrom);
  }
}

describe('RunRecorder', () => {
  it('writes at the start, once per closed second and once at the end; the stored run is the finished one', async () => {
    const result = await finishedRun();
    const db = new CountingDb();
    const clock = manualClock('2026-01-02T03:04:05.000Z');
    const recorder = new RunRecorder(db, versions, clock.now, () => 0.25);
    const id = recorder.begin(partial(result, 0), { name: 'first', comparisonId: 'cmp' });
    await recorder.flushed();
    expect(db.puts).toBe(1);
    expect((await db.get(id))!.status).toBe('running');

    for (let second = 1; second <= result.points.length; second++) {
      clock.advance(1_000);
      // The page calls update every frame; only a new second writes.
      recorder.update(partial(result, second), false);
      recorder.update(partial(result, second), false);
      await recorder.flushed();
    }
    expect(db.puts).toBe(1 + result.points.length);
    recorder.update(result, true);
    recorder.update(result, true);
    await recorder.flushed();
    expect(db.puts).toBe(2 + result.points.length);
    // Each write carried the second that had closed and the few before it whose receptions may
    // still arrive (at most 11): the cost does not grow with the run. The last write carries all.
    expect(db.secondsWritten).toEqual([0, ...result.points.map((_, i) => Math.min(i + 1, 11)), result.points.length]);

    const kept = (await db.get(id))!;
    expect(kept).toMatchObject({ id, name: 'first', comparisonId: 'cmp', status: 'finished', ...versions });
    expect(kept.result).toEqual(result);
    expect(kept.result.verdict.status).toBe('pass');
  });

  it('amends a finished run with what came after its end (agents\' closing clock round): the head only, never a running one', async () => {
    const result = await finishedRun();
    const db = new CountingDb();
    const recorder = new RunRecorder(db, versions);
    const id = recorder.begin(partial(result, 0));
    recorder.amend({ ...result, verdict: { ...result.verdict, status: 'none' } });
    await recorder.flushed();
    expect(db.puts).toBe(1);
    recorder.update(result, true);
    await recorder.flushed();
    const closed = { ...result, clocks: { boundUs: 1_200, undecidable: 0, negative: 0, maxNegativeUs: null, rounds: 2 as const } };
    recorder.amend(closed);
    await recorder.flushed();
    expect(db.puts).toBe(3);
    // No second is written again: only the head changed.
    expect(db.secondsWritten.at(-1)).toBe(0);
    expect((await db.get(id))!.result.clocks).toEqual(closed.clocks);
  });

  it('a tab that dies mid-run leaves a record with every second written so far, listed as interrupted', async () => {
    const { result, db, clock, id } = await recordedSeconds(2);
    // The tab is gone; a new page opens the history later.
    clock.advance(60_000);
    const history = new RunHistory(db, clock.now);
    const [head] = await history.list();
    expect(head).toMatchObject({ id, status: 'interrupted', seconds: 2 });
    expect((await history.get(id))!.result.points).toEqual(result.points.slice(0, 2));
    // The change is kept, not just shown.
    expect((await db.get(id))!.status).toBe('interrupted');
  });

  it('keeps the latest state when writes queue up, and says so when the store fails', async () => {
    const result = await finishedRun();
    const db = new CountingDb();
    const recorder = new RunRecorder(db, versions);
    recorder.begin(partial(result, 0));
    // Three seconds close while the first write is in flight: only the newest waits.
    recorder.update(partial(result, 1), false);
    recorder.update(partial(result, 2), false);
    recorder.update(partial(result, 3), false);
    await recorder.flushed();
    expect(db.puts).toBe(2);
    expect((await db.get(recorder.runId!))!.result.points.length).toBe(3);
    db.fail = true;
    recorder.update(result, true);
    await recorder.flushed();
    expect(recorder.lastError).toMatch(/could not be kept in this browser: QuotaExceededError\. Download it as JSON/);
  });
});

describe('RunHistory', () => {
  async function historyWith(...names: string[]) {
    const db = new MemoryRunDb();
    const history = new RunHistory(db, () => new Date('2026-05-01T00:00:00Z'));
    const result = await finishedRun();
    const runs = names.map((name, i): KeptRun => ({
      id: `id-${i}`, name, status: 'finished', savedAt: '2026-05-01T00:00:00Z', ...versions, comparisonId: null,
      result: { ...result, startedAt: `2026-04-0${i + 1}T00:00:00.000Z` },
    }));
    for (const run of runs) await db.put(run);
    return { db, history, runs };
  }

  it('lists newest first, renames, deletes', async () => {
    const { history } = await historyWith('old', 'new');
    expect((await history.list()).map((r) => r.name)).toEqual(['new', 'old']);
    await history.rename('id-0', '  baseline  ');
    await history.remove('id-1');
    expect((await history.list()).map((r) => r.name)).toEqual(['baseline']);
  });

  it('refuses an empty name or a vanished run, saying what to do', async () => {
    const { history } = await historyWith('a');
    await expect(history.rename('id-0', '   ')).rejects.toThrow(/needs a name/);
    await expect(history.rename('nope', 'x')).rejects.toThrow(/No kept run has the id nope; it may have been deleted in another tab/);
  });

  it('imports a comparison file: storage round trip gives the same runs back', async () => {
    const { runs } = await historyWith('a', 'b');
    const target = new RunHistory(new MemoryRunDb(), () => new Date('2026-05-01T00:00:00Z'));
    const text = JSON.stringify(exportComparison('a vs b', runs, new Date()));
    expect(await target.import(text)).toEqual(runs);
    expect(await target.list()).toEqual([...runs].reverse().map(headOf));
    for (const run of runs) expect(await target.get(run.id)).toEqual(run);
    await expect(target.import('not json')).rejects.toThrow(/This is not JSON/);
  });

  it('imports a file again as nothing new: the kept runs stay as they are, renamed ones keep their name', async () => {
    const { history, runs } = await historyWith('a', 'b');
    const text = JSON.stringify(exportComparison('a vs b', runs, new Date()));
    await history.rename('id-0', 'baseline');
    const again = await history.importSorted(text);
    expect(again.added).toEqual([]);
    expect(again.alreadyKept.map((run) => run.id)).toEqual(['id-0', 'id-1']);
    expect((await history.list()).map((r) => r.name).sort()).toEqual(['b', 'baseline']);
  });
});

describe('a run split into head and seconds', () => {
  it('joins back into the same run, histograms of seconds without a point included', async () => {
    const result = await finishedRun();
    const run: KeptRun = { id: 'r', name: 'n', status: 'finished', savedAt: 'now', ...versions, comparisonId: null, result };
    expect(joinRun(headOf(run), secondsOf(run))).toEqual(run);
    const odd = { ...run, result: { ...result, histograms: [...result.histograms, { second: 999, latency: result.histograms[0]!.latency }] } };
    expect(joinRun(headOf(odd), secondsOf(odd))).toEqual(odd);
  });

  it('writes from a point on: that second and later ones only', async () => {
    const result = await finishedRun();
    const run: KeptRun = { id: 'r', name: 'n', status: 'finished', savedAt: 'now', ...versions, comparisonId: null, result };
    const from = 2;
    expect(secondsOf(run, from).map((s) => s.second)).toEqual(result.points.slice(from).map((p) => p.second));
    expect(secondsOf(run, result.points.length)).toEqual([]);
  });

  it('keeps the server\'s seconds in the rows, not the head, and joins them back', async () => {
    const result = await finishedRun();
    const serverSecond = (second: number) => ({ second, cpuPercent: second === 0 ? null : 20 + second, connections: 4, deliveriesPerSec: 40, gcPauseMsPerSec: 0, threadPoolQueue: 0, workingSetBytes: 1, kestrelConnections: 4, kestrelQueued: 0 });
    const last = result.points.at(-1)!.second;
    // One server second before the client's first and one after its last: rows of their own.
    const server = { url: 'http://fake/metrics', problem: 'once', failedScrapes: 1, deliveries: 99, points: [0, 1, 2, last + 1].map(serverSecond) };
    const run: KeptRun = { id: 'r', name: 'n', status: 'finished', savedAt: 'now', ...versions, comparisonId: null, result: { ...result, server } };
    expect(headOf(run).result.server).toEqual({ ...server, points: [] });
    expect(joinRun(headOf(run), secondsOf(run))).toEqual(run);
    const db = new MemoryRunDb();
    await db.put(run);
    expect(await db.get('r')).toEqual(run);
  });
});

describe('RunHistory and the page\'s own live run', () => {
  it('never marks the run this page is still writing as interrupted', async () => {
    const result = await finishedRun();
    const db = new MemoryRunDb();
    let ms = Date.parse('2026-01-02T03:04:05.000Z');
    const now = () => new Date(ms);
    const recorder = new RunRecorder(db, versions, now);
    const id = recorder.begin({ ...result, points: [] });
    await recorder.flushed();
    ms += 60_000;
    const history = new RunHistory(db, now);
    expect((await history.list(recorder.liveId))[0]).toMatchObject({ id, status: 'running' });
    recorder.update(result, true);
    await recorder.flushed();
    expect(recorder.liveId).toBeNull();
    expect((await history.list(recorder.liveId))[0]).toMatchObject({ id, status: 'finished' });
  });

  it('marks a run interrupted as soon as no page holds it, without waiting for its writes to go stale', async () => {
    const { db, clock, id } = await recordedSeconds(1);
    const alive = new Set([id]);
    const history = new RunHistory(db, clock.now, async (runId) => alive.has(runId));
    expect((await history.list())[0]).toMatchObject({ id, status: 'running' });
    // The page reloads: its lock is gone at once, 100 ms after its last write.
    alive.delete(id);
    clock.advance(100);
    expect((await history.list())[0]).toMatchObject({ id, status: 'interrupted' });
  });
});
