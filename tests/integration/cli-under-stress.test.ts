/**
 * The headless runner against hubs that stall, die or lack the methods, and against bad output
 * paths and SIGTERM: a run that lost messages never exits 0, nothing measured is lost, and a run
 * that cannot measure anything says so at once.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRunResult } from '../../core/result/result.ts';
import { expectAccounting } from '../support/accounting.ts';
import { startHub, type RunningHub } from '../support/hub-process.ts';
import { liveBench, onceSending, runWithHubFrozen } from '../support/live-bench.ts';

async function tempFile(name: string): Promise<string> {
  return path.join(await mkdtemp(path.join(os.tmpdir(), 'live-bench-stress-')), name);
}


// Both ways the runner runs its engines: worker threads, and one engine in its own thread.
for (const workers of ['2', '1']) describe(`live-bench against a hub in trouble, --workers ${workers}`, () => {
  const load = ['--connections', '20', '--workers', workers, '--interval-ms', '500', '--quiet'];
  /** For a signal sent mid-run: without --quiet, the per-second progress says when the sends begin. */
  const midRun = load.filter((a) => a !== '--quiet');
  let hub: RunningHub;
  beforeAll(async () => {
    hub = await startHub({ extraArgs: ['--EnableTestHubs', 'true'] });
  });
  afterAll(async () => {
    hub.process.kill('SIGCONT');
    await hub.stop();
  });

  it('a hub frozen (SIGSTOP) mid-run: exit 1, a failing verdict, the JSON with its outcome and every configured slot planned', async () => {
    const jsonPath = await tempFile('stalled.json');
    // Frozen 3 s into the sends until the runner has ended: its drain must give up by itself (the
    // quiet period). From the sends' start, not the spawn's: a slow start on a busy machine would
    // freeze a hub that no connection had reached yet.
    const { run } = await runWithHubFrozen(hub, ['--endpoint', `${hub.httpUrl}/signalrbench`, ...midRun, '--duration', '10', '--json', jsonPath], jsonPath, 3_000);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toMatch(/Verdict: Fail: only \d/);
    expect(run.stderr).toMatch(/the guide's verdict is not a pass/);
    const result = parseRunResult(await readFile(jsonPath, 'utf8'));
    expect(result.outcome.kind).toBe('finished');
    expect(result.verdict.status).toBe('fail');
    expect(result.fates.lost).toBeGreaterThan(0);
    // Echo, 20 connections, one send each every 500 ms for 10 s.
    expectAccounting(result, 20 * (10_000 / 500));
  });

  it('a hub killed mid-run: the run ends early as failed, exit 1, the slots after the kill count as never sent', async () => {
    const victim = await startHub();
    try {
      const jsonPath = await tempFile('killed.json');
      // Killed 3 s into the sends (not after a fixed time from the spawn, which a slow start eats).
      let sending = () => false;
      const run = await liveBench(['--endpoint', `${victim.httpUrl}/signalrbench`, ...midRun, '--duration', '8', '--json', jsonPath], (child) => {
        sending = onceSending(child, 3_000, () => victim.process.kill('SIGKILL'));
      });
      expect(sending(), run.stderr).toBe(true);
      expect(run.code, run.stderr).toBe(1);
      const result = parseRunResult(await readFile(jsonPath, 'utf8'));
      expect(result.outcome.kind).toBe('failed');
      expect(run.stderr).toMatch(/live-bench: the run failed: every connection was closed by \d s and Reconnect is off/);
      expect(result.verdict.status).toBe('fail');
      expect(result.fates.notSent.disconnected).toBeGreaterThan(0);
      // Echo, 20 connections, one send each every 500 ms for 8 s: the kill takes none out of the plan.
      expectAccounting(result, 20 * (8_000 / 500));
    } finally {
      await victim.stop();
    }
  });

  it('a hub without the benchmark methods: exit 3 at once, not after the 60 s planned', async () => {
    const run = await liveBench(['--endpoint', `${hub.httpUrl}/emptyhub`, ...load, '--duration', '60']);
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toMatch(/nothing could be measured: The hub at .*\/emptyhub did not accept Echo/);
    expect(run.stdout).toMatch(/Outcome: failed/);
    expect(run.elapsedMs).toBeLessThan(30_000);
  });

  it('a closed port: exit 3 at once with the reason, not after the 60 s planned', async () => {
    const run = await liveBench(['--endpoint', 'http://127.0.0.1:9/signalrbench', ...load, '--duration', '60']);
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toMatch(/first error \(negotiate\): WebSockets \(json\) to http:\/\/127\.0\.0\.1:9\/signalrbench/);
    expect(run.stderr).toMatch(/nothing could be measured: no connection could be opened/);
    expect(run.stderr + run.stdout).not.toMatch(/browser/i);
    expect(run.elapsedMs).toBeLessThan(30_000);
  });

  it('an output path that cannot be written: exit 2 before the run, saying which and why', async () => {
    const run = await liveBench(['--endpoint', `${hub.httpUrl}/signalrbench`, ...load, '--duration', '60', '--json', '/no-such-folder/result.json', '--html', os.tmpdir()]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--json /no-such-folder/result.json cannot be written: the folder /no-such-folder does not exist');
    expect(run.stderr).toContain(`--html ${os.tmpdir()} cannot be written: it is a directory`);
    expect(run.stderr).toContain('nothing was run');
    expect(run.stdout).toBe('');
  });

  it('SIGTERM mid-run: what was measured is drained and written, the run is stopped, never a pass', async () => {
    const jsonPath = await tempFile('terminated.json');
    // Stopped 3 s into the sends, so some were measured however long the start took.
    let sending = () => false;
    const run = await liveBench(['--endpoint', `${hub.httpUrl}/signalrbench`, ...midRun, '--duration', '30', '--json', jsonPath], (child) => {
      sending = onceSending(child, 3_000, () => child.kill('SIGTERM'));
    });
    expect(sending(), run.stderr).toBe(true);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toMatch(/terminated; stopping/);
    expect(run.stderr).toMatch(/an incomplete run is not a pass/);
    const result = parseRunResult(await readFile(jsonPath, 'utf8'));
    expect(result.outcome.kind).toBe('stopped');
    expect(result.outcome.stoppedAtSec).toBeLessThan(30);
    expect(result.verdict.status).toBe('none');
    expect(result.fates.lost).toBe(0);
    // 20 connections, 2 slots a second each, for the whole seconds before the stop and at most one more.
    const stoppedAtSec = result.outcome.stoppedAtSec!;
    expectAccounting(result, [20 * 2 * stoppedAtSec, 20 * 2 * (stoppedAtSec + 1)]);
  });
});
