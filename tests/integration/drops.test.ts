/**
 * Planned drops through the headless runner against the real hub-sample: 100 connections, all
 * dropped at 3 s of 6 by each kind (3 s after the drop: a reconnect takes 1 to 2 s here). Every one must come back with its time to reconnect measured;
 * with stateful reconnect a network drop loses and duplicates nothing, and without it what the
 * gap cost is counted, bounded by the gap each connection was away.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { slotsInWindow } from '../support/drop-slots.ts';
import { arrivedOf, notSentOf } from '../../core/accounting/fates.ts';
import { parseRunResult, type RunResult } from '../../core/result/result.ts';
import { startHub, type RunningHub } from '../support/hub-process.ts';
import { expectAccounting } from '../support/accounting.ts';
import { liveBench, type CliRun } from '../support/live-bench.ts';

const CONNECTIONS = 100;
const INTERVAL_MS = 200;
const INTERVAL_US = INTERVAL_MS * 1_000;
const DURATION_S = 6;
const dropRun = ['--connections', String(CONNECTIONS), '--workers', '2', '--interval-ms', String(INTERVAL_MS), '--duration', String(DURATION_S), '--drain-s', '2', '--reconnect', '--drop-at', '3', '--quiet'];

async function runDrop(endpoint: string, args: string[]): Promise<{ run: CliRun; result: RunResult }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'live-bench-drop-'));
  const jsonPath = path.join(dir, 'result.json');
  const run = await liveBench(['--endpoint', endpoint, ...dropRun, ...args, '--json', jsonPath]);
  return { run, result: parseRunResult(await readFile(jsonPath, 'utf8')) };
}

/** Echo: every connection plans one reception per slot, 6 s at 200 ms. */
const ECHO_PLANNED = CONNECTIONS * ((DURATION_S * 1_000) / INTERVAL_MS);

function expectEveryOneBack(result: RunResult, how: 'reconnected' | 'resumed'): void {
  const drops = result.drops!;
  expect(drops.plannedPerDrop).toBe(CONNECTIONS);
  expect(drops.totals.dropped).toBe(CONNECTIONS);
  expect(drops.totals[how]).toBe(CONNECTIONS);
  expect(drops.neverBack).toBe(0);
  expect(drops.reconnectTimes.count).toBe(CONNECTIONS);
  expect(drops.reconnectTimes.p50Us).toBeGreaterThan(0);
  expect(drops.reconnectTimes.p50Us).toBeLessThanOrEqual(drops.reconnectTimes.p99Us!);
  expect(drops.reconnectTimes.p99Us).toBeLessThanOrEqual(drops.reconnectTimes.maxUs!);
  expect(drops.peakReconnectsPerSec).toBeGreaterThan(0);
  expect(result.points.reduce((sum, p) => sum + (p.reconnects ?? 0), 0)).toBe(CONNECTIONS);
}

describe('a network drop of every connection at 3 s', () => {
  const endpoint = () => `${inject('hubHttpUrl')}/signalrbench`;

  it('without stateful reconnect: every one reconnects, and what the gap cost is counted, within what the gaps can hold', async () => {
    const { run, result } = await runDrop(endpoint(), ['--drop-kind', 'network']);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toMatch(/Reconnects: 100 lost, 100 back \(100 reconnected, 0 resumed by stateful reconnect\), 0 never back; time to reconnect p50 /);
    expect(run.stdout).toMatch(/Verdict: Fail: the planned drop cost messages \(/);
    expectEveryOneBack(result, 'reconnected');
    // The fixed policy waits 1 s before its first attempt.
    expect(result.drops!.reconnectTimes.p50Us).toBeGreaterThanOrEqual(1_000_000);
    expectAccounting(result, ECHO_PLANNED);
    expect(result.verdict.status).toBe('fail');
    expect(result.totals.duplicated).toBe(0);
    // Each connection was away at least 1 s (5 slots at 200 ms) and at most the slowest time to
    // reconnect; plus at most one echo in flight at the cut.
    const missing = result.fates.planned - arrivedOf(result.fates);
    expect(missing).toBeGreaterThanOrEqual(CONNECTIONS * slotsInWindow(0, INTERVAL_US, Infinity, 0, 1_000_000));
    expect(missing).toBeLessThanOrEqual(CONNECTIONS * (slotsInWindow(0, INTERVAL_US, Infinity, 0, result.drops!.reconnectTimes.maxUs!) + 1));
    expect(result.fates.notSent.reconnecting).toBeGreaterThan(0);
  });

  it('with stateful reconnect: every one resumes on its connection, 0 lost, 0 never sent, 0 duplicated, and the run passes', async () => {
    const { run, result } = await runDrop(endpoint(), ['--drop-kind', 'network', '--stateful-reconnect']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expectEveryOneBack(result, 'resumed');
    expect(result.drops!.totals.reconnected).toBe(0);
    expectAccounting(result, ECHO_PLANNED);
    expect(result.fates.lost).toBe(0);
    expect(notSentOf(result.fates)).toBe(0);
    expect(result.totals.duplicated).toBe(0);
    expect(arrivedOf(result.fates)).toBe(result.fates.planned);
    expect(result.verdict.status).toBe('pass');
  });
});

describe('groups across a drop', () => {
  it('every reconnected member joins its group again (counted), and its group\'s messages reach it again', async () => {
    // 8 s: the last second of sends comes well after every rejoin.
    const { result } = await runDrop(`${inject('hubHttpUrl')}/signalrbench`, ['--scenario', 'smallGroup', '--connections', '20', '--duration', '8']);
    const drops = result.drops!;
    expect(drops.totals.reconnected).toBe(20);
    expect(drops.totals.rejoined).toBe(20);
    expect(drops.totals.rejoinFailed).toBe(0);
    expect(drops.totals.rejoinUs).toBeGreaterThan(0);
    // Small groups of 10, every member sends: 20 senders x 40 slots x 10 members.
    expectAccounting(result, 20 * (8_000 / INTERVAL_MS) * 10);
    // The last second of sends, well after every rejoin: each member got all its group's messages.
    const last = result.points.filter((p) => p.fates.planned > 0).at(-1)!;
    expect(arrivedOf(last.fates)).toBe(last.fates.planned);
  });
});

describe('a server drop of every connection at 3 s', () => {
  let hub: RunningHub;
  beforeAll(async () => {
    hub = await startHub({ extraArgs: ['--EnableServerDrops', 'true'] });
  });
  afterAll(async () => {
    await hub?.stop();
  });

  it('the hub resets every connection and every one reconnects, with its time to reconnect', async () => {
    const { run, result } = await runDrop(`${hub.httpUrl}/signalrbench`, ['--drop-kind', 'server', '--reconnect-policy', 'jittered']);
    expect(run.code, run.stderr).toBe(1);
    expectEveryOneBack(result, 'reconnected');
    expectAccounting(result, ECHO_PLANNED);
    expect(result.config.reconnectPolicy).toBe('jittered');
    expect(result.verdict.sentence).toMatch(/^Fail: the planned drop cost messages/);
  });

  it('a hub with server drops off is named at once, with how to turn them on', async () => {
    const run = await liveBench(['--endpoint', `${inject('hubHttpUrl')}/signalrbench`, ...dropRun, '--drop-kind', 'server']);
    expect(run.code).toBe(3);
    expect(run.stdout + run.stderr).toMatch(/Server drops are off on this hub\. Start the hub-sample with --EnableServerDrops true, or choose a network drop/);
    expect(run.elapsedMs).toBeLessThan(20_000);
  });
});
