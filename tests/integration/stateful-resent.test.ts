/**
 * Figures the wire agrees with across a stateful reconnect, against the real hub-sample: the
 * messages both sides write a second time after a resumed transport are counted apart (resent),
 * never in the message and byte figures; "stateful reconnect on" is said only when the hub
 * granted it, and a hub that never does is named and not offered as the fix.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { arrivedOf } from '../../core/accounting/fates.ts';
import { parseRunResult, type RunResult } from '../../core/result/result.ts';
import { startHub, type RunningHub } from '../support/hub-process.ts';
import { liveBench, type CliRun } from '../support/live-bench.ts';

const CONNECTIONS = 20;
const dropRun = ['--connections', String(CONNECTIONS), '--workers', '1', '--interval-ms', '100', '--duration', '6', '--drain-s', '5',
  '--reconnect', '--drop-at', '3', '--drop-kind', 'network', '--stateful-reconnect', '--quiet'];

async function runDrop(endpoint: string): Promise<{ run: CliRun; result: RunResult }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'live-bench-resent-'));
  const jsonPath = path.join(dir, 'result.json');
  const run = await liveBench(['--endpoint', endpoint, ...dropRun, '--json', jsonPath]);
  return { run, result: parseRunResult(await readFile(jsonPath, 'utf8')) };
}

describe('stateful reconnect granted by the hub', () => {
  it('counts what each side wrote again apart from the figures, which hold each message once', async () => {
    const { run, result } = await runDrop(`${inject('hubHttpUrl')}/signalrbench`);
    const t = result.totals;
    expect(t.statefulGranted).toBe(CONNECTIONS);
    expect(result.drops!.stateful).toEqual({ granted: CONNECTIONS, opened: CONNECTIONS });
    expect(result.drops!.totals.resumed).toBe(CONNECTIONS);
    expect(run.stdout).toMatch(/Drops: network drop .*; stateful reconnect on \(granted by the hub\)/);
    // The client writes again every send the hub had not acknowledged (acks come once a second),
    // and the hub writes again every delivery the client had not acknowledged: copies the client
    // had, it discards.
    expect(t.resentSent).toBeGreaterThan(0);
    expect(t.resentReceived).toBeGreaterThan(0);
    // Each resent message is the size of the ones the figures count (the same encoded call).
    const sentEach = t.sentBytes / t.sent;
    expect(t.resentSentBytes / t.resentSent).toBeGreaterThan(sentEach * 0.8);
    expect(t.resentSentBytes / t.resentSent).toBeLessThan(sentEach * 1.2);
    expect(t.resentReceivedBytes / t.resentReceived).toBeGreaterThan((t.receivedBytes / t.received) * 0.8);
    // The figures count each message once: every planned echo arrived once, none twice.
    expect(t.duplicated).toBe(0);
    expect(t.received).toBe(arrivedOf(result.fates));
    expect(arrivedOf(result.fates)).toBe(result.fates.planned);
    expect(run.stdout).toMatch(/Resent: stateful reconnect resent [\d,]+ message\(s\) \([^)]+\) from this client and [\d,]+ \([^)]+\) from the hub, which the client discarded as copies/);
  }, 90_000);
});

describe('a hub that never grants stateful reconnect', () => {
  let hub: RunningHub;
  beforeAll(async () => {
    hub = await startHub({ extraArgs: ['--AllowStatefulReconnects', 'false'] });
  });
  afterAll(async () => {
    await hub?.stop();
  });

  it('is named, the run does not say stateful reconnect was on, and it is not offered as the fix', async () => {
    const endpoint = `${hub.httpUrl}/signalrbench`;
    const { run, result } = await runDrop(endpoint);
    expect(result.totals.statefulGranted).toBe(0);
    expect(result.drops!.stateful).toEqual({ granted: 0, opened: CONNECTIONS });
    // Nothing bridged the gap: every connection came back by an ordinary reconnect.
    expect(result.drops!.totals.resumed).toBe(0);
    expect(result.totals.resentSent + result.totals.resentReceived).toBe(0);
    expect(run.stdout).not.toMatch(/stateful reconnect on/);
    expect(run.stdout).toContain(`stateful reconnect asked for, never granted by the hub at ${endpoint}`);
    expect(run.code).toBe(1);
    expect(result.verdict.sentence).toMatch(/^Fail: the planned drop cost messages/);
    expect(result.verdict.sentence).toContain(`The hub at ${endpoint} never granted stateful reconnect`);
    expect(result.verdict.sentence).not.toMatch(/Stateful reconnect, or a shorter reconnect/);
  }, 90_000);
});
