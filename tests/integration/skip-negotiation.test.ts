/**
 * The built runner with --skip-negotiation against the real hub-sample (its test hubs on): an
 * echo run whose clients open their WebSockets without one negotiate request (the hub's record of
 * what reached /signalrbench says so), exact counts and a pass; a combination that needs the
 * negotiate answer refused with exit 2 in seconds; and a hub that serves only connections that
 * negotiated, as Azure SignalR Service's app servers do, failing in seconds with the sentence.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRunResult } from '../../core/result/index.ts';
import { startHub, type RunningHub } from '../support/hub-process.ts';
import { liveBench } from '../support/live-bench.ts';
import { expectAccounting } from '../support/accounting.ts';

let hub: RunningHub;
let dir: string;

beforeAll(async () => {
  hub = await startHub({ extraArgs: ['--EnableTestHubs', 'true'] });
  dir = await mkdtemp(path.join(os.tmpdir(), 'live-bench-skip-'));
}, 60_000);

afterAll(async () => {
  await hub?.stop();
});

const seenKinds = async () => ((await (await fetch(`${hub.httpUrl}/testhubs/seen`)).json()) as { kind: string }[]).map((request) => request.kind);

describe('--skip-negotiation', () => {
  it('an echo run: every WebSocket opened without negotiate, exact counts, a pass, named so', async () => {
    const before = (await seenKinds()).length;
    const jsonPath = path.join(dir, 'echo.json');
    // 6 connections, one send every 250 ms for 2 s: 8 sends each, each echoed to its sender.
    const run = await liveBench(['--endpoint', `${hub.httpUrl}/signalrbench`, '--skip-negotiation', '--connections', '6', '--workers', '2',
      '--interval-ms', '250', '--duration', '2', '--warmup', '0', '--drain-s', '10', '--json', jsonPath]);
    expect(run.code, run.stderr).toBe(0);
    const result = parseRunResult(await readFile(jsonPath, 'utf8'));
    expectAccounting(result, 6 * 8);
    expect(result.totals).toMatchObject({ connectionsOpened: 6, connectionsFailed: 0, sent: 48, received: 48, duplicated: 0 });
    expect(result.fates.lost).toBe(0);
    expect(result.verdict.status).toBe('pass');
    expect(result.config.skipNegotiation).toBe(true);
    expect(run.stderr).toContain('6 connections over WebSockets (json, negotiation skipped) to');
    expect(run.stdout).toContain('echo over WebSockets (json, negotiation skipped) to');
    expect((await seenKinds()).slice(before)).toEqual(new Array(6).fill('websocket'));
  });

  it('with another transport, stateful reconnect or send to connection: exit 2 in seconds, each said', async () => {
    const endpoint = ['--endpoint', `${hub.httpUrl}/signalrbench`, '--skip-negotiation', '--duration', '10'];
    const runs = await Promise.all([
      liveBench([...endpoint, '--transport', 'ServerSentEvents']),
      liveBench([...endpoint, '--reconnect', '--stateful-reconnect']),
      liveBench([...endpoint, '--scenario', 'sendToConnection']),
    ]);
    const said = [/Skip negotiation works over WebSockets only/, /Stateful reconnect is granted in the negotiate answer/, /a client learns its id only from the negotiate answer: without negotiation it stays unknown/];
    runs.forEach((run, i) => {
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toMatch(said[i]!);
      expect(run.stderr).toContain('nothing was run');
      expect(run.elapsedMs).toBeLessThan(10_000);
    });
  });

  it('a hub that serves only connections that negotiated: fails in seconds with the sentence, the client\'s setting', async () => {
    const jsonPath = path.join(dir, 'refused.json');
    const run = await liveBench(['--endpoint', `${hub.httpUrl}/negotiateonlyhub`, '--skip-negotiation', '--connections', '4', '--workers', '1',
      '--duration', '10', '--warmup', '0', '--json', jsonPath]);
    expect(run.code, run.stderr).not.toBe(0);
    expect(run.elapsedMs).toBeLessThan(10_000);
    expect(run.stderr).toContain('the hub refused the WebSocket opened without negotiate (HTTP 404): this hub needs negotiation: leave --skip-negotiation off');
    const result = parseRunResult(await readFile(jsonPath, 'utf8'));
    expect(result.totals).toMatchObject({ connectionsOpened: 0, connectionsFailed: 4 });
    expect(result.verdict.status).not.toBe('pass');
    expect(result.connectCauses).toEqual({ negotiationSkipped: 4 });
    expect(run.stdout).toContain('Limit: The client could not open 4 connections with its own settings');
    // The diagnosis names the setting, with the hub's status.
    expect(result.diagnosis).toMatchObject({ cause: 'negotiationNeeded', side: 'setup' });
    expect(run.stdout).toContain(`Why (the set-up): ${result.diagnosis!.sentence}`);
    expect(result.diagnosis!.sentence).toBe('The hub refused the WebSocket opened without negotiate (HTTP 404): it needs negotiation.');
    // The same hub negotiating is a hub like any other.
    const negotiating = await liveBench(['--endpoint', `${hub.httpUrl}/negotiateonlyhub`, '--connections', '2', '--workers', '1', '--interval-ms', '500', '--duration', '1', '--warmup', '0', '--quiet']);
    expect(negotiating.code, negotiating.stderr).toBe(0);
  });
});
