import { describe, expect, it } from 'vitest';
import { defaultRunName } from '../../core/run-config/display-names.ts';
import { verdictReason } from '../../src/lib/history-text.ts';
import { finishedRun, testConfig } from '../support/finished-run.ts';

describe('history names and reasons', () => {
  it('names what differs: the drop and whether stateful reconnect was on', () => {
    expect(defaultRunName(testConfig())).toBe('Echo · WebSockets + JSON · 4 connections');
    const drop = testConfig({ durationSec: 10, reconnect: true, dropAtSec: 3, dropKind: 'server', statefulReconnect: true });
    expect(defaultRunName(drop)).toBe('Echo · WebSockets + JSON · 4 connections · server drop at 3 s · stateful reconnect on');
    expect(defaultRunName({ ...drop, dropKind: 'network', dropEverySec: 4, statefulReconnect: false })).toBe('Echo · WebSockets + JSON · 4 connections · network drop at 3 s and every 4 s · stateful reconnect off');
  });

  it("gives the verdict's reason in a few words, from the verdict's own figures", async () => {
    expect(verdictReason(await finishedRun())).toBe('');
    expect(verdictReason(await finishedRun({}, { deliveryDelayMs: 5, drop: (connection, n) => connection === 0 && n === 5 }))).toBe('1 lost');
    expect(verdictReason(await finishedRun({}, { deliveryDelayMs: 1_500 }))).toMatch(/^\d+\.\d\d% under 1 s$/);
    const run = await finishedRun();
    expect(verdictReason({ ...run, outcome: { kind: 'failed', reason: 'no connection could be opened. WebSockets (json) to http://x: Failed to fetch.' }, verdict: { ...run.verdict, status: 'fail' } })).toBe('no connection could be opened.');
    expect(verdictReason({ ...run, outcome: { kind: 'stopped', stoppedAtSec: 1 }, verdict: { ...run.verdict, status: 'none' } })).toBe('stopped at 1 of 3 s');
  });
});
