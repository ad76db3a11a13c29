/**
 * What a run plans comes from its arguments, against the real hub-sample through the built
 * runner: with the runner out of file descriptors (`ulimit -n`), part of the receivers never
 * open, and every scenario still plans every configured receiver, owes the absent ones their
 * receptions (receiverAbsent) and fails. And two runs on one hub at once each count only their
 * own messages, the other's as foreign.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRunResult, type RunResult } from '../../core/result/result.ts';
import { expectAccounting } from '../support/accounting.ts';
import { startHub, type RunningHub } from '../support/hub-process.ts';
import { liveBench, type CliRun } from '../support/live-bench.ts';

/** Just above the 200 connections asked for, so the runner's own check before the run only warns
 *  (it refuses a run with more connections than open files), but below them plus the ~27 that Node
 *  itself holds: some receivers cannot open (EMFILE). */
const OPEN_FILES = 210;
const CONNECTIONS = 200;
const DURATION_SEC = 5;

let hub: RunningHub;
beforeAll(async () => {
  hub = await startHub();
});
afterAll(async () => {
  await hub?.stop();
});

async function run(args: string[], openFiles?: number): Promise<{ cli: CliRun; result: RunResult }> {
  const jsonPath = path.join(await mkdtemp(path.join(os.tmpdir(), 'live-bench-planned-')), 'result.json');
  // Threads, so the run stays in one process out of files: by itself the runner would spread
  // connections that do not fit one process's files over engine processes (cli/engine-kind.ts).
  const engines = openFiles === undefined ? [] : ['--engines', 'threads'];
  const cli = await liveBench(['--endpoint', `${hub.httpUrl}/signalrbench`, '--duration', String(DURATION_SEC), '--interval-ms', '1000', '--drain-s', '5', '--json', jsonPath, '--quiet', ...engines, ...args], undefined, openFiles);
  return { cli, result: parseRunResult(await readFile(jsonPath, 'utf8')) };
}

describe(`receivers that cannot open (the runner limited to ${OPEN_FILES} open files)`, () => {
  const cases = [
    // 1 sender x 5 slots x every one of the 200 configured receivers.
    { scenario: 'broadcast', args: ['--senders', '1'], planned: 1 * DURATION_SEC * CONNECTIONS },
    // The guide's big groups: 10 groups of 20, 40 senders; each slot plans the 20 configured members.
    { scenario: 'bigGroup', args: [], planned: 40 * DURATION_SEC * 20 },
    // Every configured connection sends to one other: 200 x 5 slots.
    { scenario: 'sendToConnection', args: [], planned: CONNECTIONS * DURATION_SEC },
  ];
  for (const { scenario, args, planned } of cases) {
    it(`${scenario}: planned is the figure the arguments give (${planned}), the absent receivers' share is never sent, exit 1`, async () => {
      const { cli, result } = await run(['--scenario', scenario, '--connections', String(CONNECTIONS), ...args], OPEN_FILES);
      // The limit bit: some opened, some did not.
      expect(result.totals.connectionsFailed, cli.stdout).toBeGreaterThan(0);
      expect(result.totals.connectionsOpened).toBeGreaterThan(0);
      expect(cli.code, cli.stdout + cli.stderr).toBe(1);
      expect(result.verdict.status).toBe('fail');
      expectAccounting(result, planned);
      expect(result.fates.notSent.receiverAbsent).toBeGreaterThan(0);
      expect(cli.stdout).toContain(`${planned.toLocaleString('en-US')} planned`);
      expect(cli.stdout).toMatch(/the receiver never connected or never joined its group [\d,]+/);
    });
  }
});

describe('two broadcast runs on one hub at the same time', () => {
  it('each counts exactly its own messages, and the other\'s as foreign, never as arrivals or duplicates', async () => {
    const args = ['--scenario', 'broadcast', '--connections', '20', '--senders', '1', '--workers', '1', '--interval-ms', '200'];
    const [first, second] = await Promise.all([run(args), run(args)]);
    for (const { cli, result } of [first, second]) {
      expect(cli.code, cli.stdout + cli.stderr).toBe(0);
      // 1 sender x 25 slots (5 s at 200 ms) x 20 receivers, each arrived once.
      expectAccounting(result, 1 * 25 * 20);
      expect(result.totals).toMatchObject({ received: 500, duplicated: 0 });
      expect(result.fates.lost).toBe(0);
      expect(result.verdict.status).toBe('pass');
      // The other run's sends reached this run's 20 connections while both were on the hub.
      expect(result.totals.foreign).toBeGreaterThan(0);
      expect(result.totals.foreign).toBeLessThanOrEqual(500);
      expect(cli.stdout).toMatch(/foreign [\d,]+ \(another run or client on this hub/);
    }
    expect(first.result.totals.foreign + second.result.totals.foreign).toBeGreaterThan(500);
  });
});
