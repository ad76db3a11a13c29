/**
 * The client's limits are the client's, against a real hub-sample and the built runner run as a
 * user would, under real limits of its own process:
 * - out of file descriptors (`ulimit -n 150`): a connections ramp whose first step fits is warned
 *   about before it connects and its later steps are judged client-limited by their EMFILE (exit
 *   1), never the service's; a single run in engine threads that cannot fit is refused before
 *   connecting (exit 2);
 * - out of heap (`node --max-old-space-size`, which V8 applies to each engine thread too): the
 *   engine threads die in the step (ERR_WORKER_OUT_OF_MEMORY) and the step is the client's;
 * - planned drops a verdict could not count are refused before anything runs (exit 2).
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCapacityResult } from '../../core/capacity/capacity-result.ts';
import { failuresOfSide } from '../../core/client/connect-causes.ts';
import { startHub, type RunningHub } from '../support/hub-process.ts';
import { liveBench } from '../support/live-bench.ts';

/** Steps of 2 s (1 s judged): what breaks these steps is the client's resources, not their length. */
const short = ['--step-duration', '2', '--settle', '1', '--quiet'];

async function tempFile(name: string): Promise<string> {
  return path.join(await mkdtemp(path.join(os.tmpdir(), 'live-bench-limits-')), name);
}

describe('the client\'s limits are the client\'s', () => {
  let hub: RunningHub;
  beforeAll(async () => {
    hub = await startHub();
  });
  afterAll(async () => {
    await hub?.stop();
  });

  it('a connections ramp out of file descriptors: warned before it connects, then limited by the client, exit 1', async () => {
    // The JSON is written to stdout: at the limit, a file could not be opened either.
    const run = await liveBench(['--find-capacity', '--endpoint', `${hub.httpUrl}/signalrbench`, '--ramp', 'connections',
      '--start', '50', '--step', '100', '--max', '350', '--bisect', '0', ...short, '--json', '-'], undefined, 150);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toMatch(/^live-bench: warning: Steps above about \d+ connections will run out of this runner's 150 open files \(EMFILE\): they will be judged client-limited/m);
    // With --json - standard output is the capacity document alone; the summary goes to standard error.
    const result = parseCapacityResult(run.stdout);
    expect(result.steps[0]!.judgement.passed).toBe(true);
    const broke = result.steps[1]!;
    expect(broke.judgement).toMatchObject({ passed: false, limitedBy: 'client' });
    // Failed connects name EMFILE, and none is put down to the service. Some WebSocket failures
    // reach the SignalR client without their socket's error, so they read 'other' (unknown), never
    // the service's: the judgement rests on the EMFILE ones.
    const causes = broke.health.connectCauses ?? {};
    expect(causes.EMFILE ?? 0).toBeGreaterThan(0);
    expect(failuresOfSide(causes, 'service')).toBe(0);
    expect(failuresOfSide(causes, 'client') + failuresOfSide(causes, 'unknown')).toBe(broke.health.connectionsFailed);
    expect(broke.health.connectionsFailed).toBeGreaterThan(0);
    expect(broke.judgement.reasons[0]).toMatch(/^the client could not open [\d,]+ connections? for want of its own resources \([\d,]+ EMFILE: this process ran out of file descriptors/);
    expect(result.finding).toMatchObject({ kind: 'found', limitedBy: 'client', heldStep: 1, brokeStep: 2, confirmed: true });
    expect(run.stderr).toMatch(/^Client-limited: this client held/m);
    expect(run.stderr).toMatch(/Broke at step 2 \(150 connections every 1,000 ms\), because of the client: the client could not open/);
    expect(run.stderr).not.toMatch(/because of the service/);
  });

  it('a single run in engine threads that cannot fit in the open files is refused before it connects, saying what to type', async () => {
    // Not given --engines, the run would be split over engine processes (tests/integration/engine-processes.test.ts).
    const run = await liveBench(['--endpoint', `${hub.httpUrl}/signalrbench`, '--connections', '400', '--engines', 'threads', '--duration', '3', '--quiet'], undefined, 150);
    expect(run.code).toBe(2);
    expect(run.elapsedMs).toBeLessThan(10_000);
    expect(run.stderr).toMatch(/400 connections need at least as many open files, but this runner may open 150 .*ulimit -n.*--engines processes --workers n/);
    expect(run.stderr).toMatch(/nothing was run/);
    expect(run.stdout).toBe('');
  });

  it('engine threads that run out of heap in a step: that step is the client\'s, exit 1', async () => {
    const jsonPath = await tempFile('heap.json');
    // A 20 MB heap holds the first step's 20 connections per thread, not 1,000: the threads die
    // while the second step opens them. Measured here: 16 MB lost both threads before 50 per
    // thread had opened; 20 MB held 50, and 500 per thread in three runs, and died at about 360
    // per thread in another (the larger the heap, the longer the threads thrash before dying).
    const run = await liveBench(['--find-capacity', '--endpoint', `${hub.httpUrl}/signalrbench`, '--ramp', 'connections',
      '--start', '40', '--step', '1960', '--max', '2000', '--workers', '2', '--bisect', '0', ...short, '--json', jsonPath], undefined, undefined, ['--max-old-space-size=20']);
    expect(run.code, run.stderr).toBe(1);
    const result = parseCapacityResult(await readFile(jsonPath, 'utf8'));
    expect(result.steps[0]!.judgement.passed).toBe(true);
    const broke = result.steps[1]!;
    expect(broke.health.workersLost).toBeGreaterThan(0);
    expect(broke.judgement).toMatchObject({ passed: false, limitedBy: 'client' });
    expect(broke.judgement.reasons[0]).toMatch(/^the client lost [12] of its 2 engines mid-run \(.*memory limit/);
    expect(result.finding).toMatchObject({ kind: 'found', limitedBy: 'client', heldStep: 1, brokeStep: 2 });
  });

  it('a planned drop inside the warm-up is refused: exit 2, nothing run', async () => {
    const run = await liveBench(['--endpoint', `${hub.httpUrl}/signalrbench`, '--connections', '10', '--duration', '10', '--warmup', '5', '--reconnect', '--drop-at', '2']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/Drop at \(2 s\) falls inside the warm-up \(5 s\).*Set Drop at to 5 s or later/);
    expect(run.stdout).toBe('');
  });

  it('a capacity search with a planned drop is refused: exit 2, saying why', async () => {
    const run = await liveBench(['--find-capacity', '--endpoint', `${hub.httpUrl}/signalrbench`, '--connections', '10', '--reconnect', '--drop-at', '1',
      '--ramp', 'rate', '--start', '10', '--step', '10', '--max', '50', ...short]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/A capacity search cannot plan drops \(Drop at 1 s\): each step would break by the drop it planned/);
    expect(run.stdout).toBe('');
  });
});
