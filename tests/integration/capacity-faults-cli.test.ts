/**
 * `live-bench --find-capacity` searches that end at a fault, not at a capacity, against real
 * hub-samples: one that lacks the methods (exit 3 at once); bad options (every problem at once,
 * exit 2); one killed mid-search (the step that lost messages breaks, and no step that lost any is
 * ever said to have held); one frozen for a moment (the stall is the cause, said as it happens).
 * Small loads that wait on the fault, so this file runs beside others; the searches that measure
 * a capacity are in capacity-cli.test.ts.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCapacityResult } from '../../core/capacity/capacity-result.ts';
import { readMetrics } from '../../core/server-metrics/reading.ts';
import { startHub, type RunningHub } from '../support/hub-process.ts';
import { liveBench } from '../support/live-bench.ts';

const short = ['--step-duration', '3', '--settle', '1', '--workers', '2', '--quiet'];

async function tempFile(name: string): Promise<string> {
  return path.join(await mkdtemp(path.join(os.tmpdir(), 'live-bench-capacity-')), name);
}

/**
 * Calls `act` `afterMs` after the hub's /metrics first count `connections` open on its hubs: a
 * step's sends begin as its connections open, however long a busy machine took to open them (a
 * fixed time from the step before would land in the connects).
 */
async function onceHubHolds(hub: RunningHub, connections: number, afterMs: number, act: () => void): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const text = await fetch(`${hub.httpUrl}/metrics`).then((r) => r.text(), () => '');
    if ((readMetrics(text, Date.now() * 1_000).hubConnections ?? 0) >= connections) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await new Promise((resolve) => setTimeout(resolve, afterMs));
  act();
}

describe('live-bench --find-capacity at a fault', () => {
  let plain: RunningHub;
  beforeAll(async () => {
    plain = await startHub({ extraArgs: ['--EnableTestHubs', 'true'] });
  });
  afterAll(async () => {
    await plain?.stop();
  });

  it('a hub without the methods: exit 3 in seconds, nothing called a capacity', async () => {
    const run = await liveBench(['--find-capacity', '--endpoint', `${plain.httpUrl}/emptyhub`, '--connections', '10', '--ramp', 'rate', '--start', '10', '--step', '10', '--max', '50', ...short]);
    expect(run.code).toBe(3);
    expect(run.elapsedMs).toBeLessThan(15_000);
    expect(run.stderr).toMatch(/step 1 .*not judged: The hub refused the method Echo: "Method does not exist"/);
    expect(run.stderr).toMatch(/live-bench: no capacity: step 1 failed for a cause other than load \(hubMethodRefused\)/);
    expect(run.stdout).toMatch(/^No capacity: the search stopped at step 1 /m);
    expect(run.stdout).not.toMatch(/^Held/m);
  });

  it('bad input: every problem at once, exit 2, nothing run', async () => {
    const run = await liveBench(['--find-capacity', '--endpoint', 'ftp://x', '--ramp', 'sideways', '--start', '0', '--max', '10', '--duration', '5']);
    expect(run.code).toBe(2);
    const lines = run.stderr.split('\n').filter((line) => line.startsWith('live-bench: ') && !/nothing was run/.test(line));
    expect(lines.length).toBe(5);
    expect(run.stderr).toMatch(/Endpoint "ftp:\/\/x" uses ftp/);
    expect(run.stderr).toMatch(/--duration does not apply to a capacity search/);
    expect(run.stderr).toMatch(/--find-capacity needs --step/);
    expect(run.stderr).toMatch(/Ramp must be connections or rate, but is "sideways"/);
    expect(run.stderr).toMatch(/Ramp start .* but is "0"/);
  });

  it('a hub killed mid-search: the search stops at that step with the crash as its cause, never a capacity, exit 1', async () => {
    const victim = await startHub();
    const jsonPath = await tempFile('killed.json');
    let killed = false;
    const run = await liveBench(['--find-capacity', '--endpoint', `${victim.httpUrl}/signalrbench`, '--interval-ms', '250', '--ramp', 'connections',
      '--start', '10', '--step', '10', '--max', '100', ...short, '--json', jsonPath], (child) => {
      child.stderr!.on('data', (chunk: Buffer) => {
        // Kill it during the second step's 3 s of sends: once its 20 connections are open.
        if (!killed && /^step 1 /m.test(String(chunk))) {
          killed = true;
          void onceHubHolds(victim, 20, 1_000, () => victim.process.kill('SIGKILL'));
        }
      });
    });
    await victim.stop();
    const result = parseCapacityResult(await readFile(jsonPath, 'utf8'));
    expect(result.steps[0]!.judgement.passed).toBe(true);
    // The crash ends the search where it happened: no step after it, no capacity.
    expect(result.steps).toHaveLength(2);
    expect(result.steps[1]!.judgement).toMatchObject({ passed: false, limitedBy: 'service', diagnosis: { cause: 'hubCrashed', side: 'service' } });
    expect(result.finding).toMatchObject({ kind: 'fault', cause: 'hubCrashed', limitedBy: 'service', heldStep: 1, brokeStep: 2 });
    expect(run.stdout).toMatch(/^No capacity: the search stopped at step 2 \(20 connections every 250 ms\)\. The hub at .* went away mid-run/m);
    expect(run.stdout).not.toMatch(/^Held/m);
    expect(run.stderr).toContain(`live-bench: no capacity: step 2 failed for a cause other than load (hubCrashed): ${result.steps[1]!.judgement.diagnosis!.sentence}`);
    expect(run.code).toBe(1);
  });

  it('a hub frozen (SIGSTOP) during a step: the search stops at that step with the stall as its cause, never a capacity, exit 1', async () => {
    const jsonPath = await tempFile('frozen.json');
    let frozen = false;
    const run = await liveBench(['--find-capacity', '--endpoint', `${plain.httpUrl}/signalrbench`, '--interval-ms', '250', '--ramp', 'connections',
      '--start', '10', '--step', '10', '--max', '100', '--bisect', '0', ...short, '--step-duration', '5', '--server-metrics', `${plain.httpUrl}/metrics`, '--json', jsonPath], (child) => {
      child.stderr!.on('data', (chunk: Buffer) => {
        // Frozen early in the second step's 5 s of sends: once its 20 connections are open.
        if (!frozen && /^step 1 /m.test(String(chunk))) {
          frozen = true;
          void onceHubHolds(plain, 20, 1_000, () => plain.process.kill('SIGSTOP'));
        }
        // Thawed once the frozen step has been judged (its drain gave up by itself).
        if (/^step 2 /m.test(String(chunk))) plain.process.kill('SIGCONT');
      });
    });
    plain.process.kill('SIGCONT');
    expect(run.code, run.stderr).toBe(1);
    const result = parseCapacityResult(await readFile(jsonPath, 'utf8'));
    expect(result.steps).toHaveLength(2);
    expect(result.steps[1]!.judgement).toMatchObject({ passed: false, limitedBy: 'service', diagnosis: { cause: 'hubStalled', side: 'service' } });
    expect(result.steps[1]!.verdict.share).toBeLessThan(0.99);
    expect(result.finding).toMatchObject({ kind: 'fault', cause: 'hubStalled', heldStep: 1, brokeStep: 2 });
    expect(run.stdout).toMatch(/^No capacity: the search stopped at step 2 .*stopped answering mid-run/m);
    // The search says so as the hub stops answering, not only at the step's end.
    expect(run.stderr).toMatch(/Server metrics at .*\/metrics could not be read: no answer within 2 s/);
  });
});
