/**
 * A planned drop as the runner's options and the verdict see it: every option checked with an
 * error that says what to do, and a drop that cost any message never passes.
 */
import { describe, expect, it } from 'vitest';
import { parseCliArgs } from '../../cli/args.ts';
import { configToQuery, queryToFields } from '../../core/run-config/config-url.ts';
import { emptyFates, type Fates } from '../../core/accounting/fates.ts';
import { runVerdict } from '../../core/outcome/outcome.ts';
import { DEFAULTS, validateRunConfig } from '../../core/run-config/config.ts';
import { planDropComparison } from '../../core/compare/drop-comparison.ts';

const endpoint = ['--endpoint', 'http://127.0.0.1:5180/signalrbench'];

function errorsOf(args: string[]): string[] {
  const parsed = parseCliArgs([...endpoint, ...args]);
  if (parsed.ok !== false) throw new Error(`expected errors for ${args.join(' ')}`);
  return parsed.errors;
}

describe('the runner\'s drop options', () => {
  it('reads every drop option into the configuration', () => {
    const parsed = parseCliArgs([...endpoint, '--reconnect', '--drop-at', '5', '--drop-every', '10', '--drop-share', '25%', '--drop-kind', 'server', '--reconnect-policy', 'jittered', '--stateful-reconnect']);
    if (parsed.ok !== true) throw new Error(JSON.stringify(parsed));
    expect(parsed.options.config).toMatchObject({ dropAtSec: 5, dropEverySec: 10, dropSharePercent: 25, dropKind: 'server', reconnectPolicy: 'jittered', statefulReconnect: true, reconnect: true });
  });

  it('defaults to no drop, the fixed policy and stateful reconnect off', () => {
    const parsed = parseCliArgs(endpoint);
    if (parsed.ok !== true) throw new Error('expected ok');
    expect(parsed.options.config).toMatchObject({ dropAtSec: null, dropEverySec: null, dropSharePercent: 100, dropKind: 'network', reconnectPolicy: 'fixed', statefulReconnect: false });
  });

  it('refuses a drop without --reconnect, saying to add it', () => {
    expect(errorsOf(['--drop-at', '5'])).toEqual([expect.stringMatching(/needs Reconnect on.*--reconnect/)]);
  });

  it('refuses bad values, each with what is allowed', () => {
    const errors = errorsOf(['--reconnect', '--drop-at', 'soon', '--drop-share', '0', '--drop-kind', 'power', '--reconnect-policy', 'eager']);
    expect(errors).toEqual([
      expect.stringMatching(/^Drop at must be a whole number of seconds from 0 to 86,400, or empty for no drop, but is "soon"/),
      expect.stringMatching(/^Drop share must be a percentage above 0 and at most 100, but is "0"/),
      expect.stringMatching(/^Drop kind must be one of network, server, but is "power"/),
      expect.stringMatching(/^Reconnect policy must be one of default, fixed, jittered, but is "eager"/),
    ]);
  });

  it('refuses a drop after the sends end and stateful reconnect off WebSockets', () => {
    expect(errorsOf(['--reconnect', '--duration', '5', '--drop-at', '5'])[0]).toMatch(/Drop at \(5 s\) must be within the sends \(duration 5 s\)/);
    expect(errorsOf(['--reconnect', '--transport', 'ServerSentEvents', '--stateful-reconnect'])[0]).toMatch(/Stateful reconnect works over WebSockets only/);
  });

  it('a link carries the drop fields and reads them back', () => {
    const result = validateRunConfig({ ...DEFAULTS, endpointUrl: 'http://h/signalrbench', reconnect: true, dropAtSec: 5, dropSharePercent: 50, reconnectPolicy: 'default', statefulReconnect: true });
    if (!result.ok) throw new Error(result.errors.join(' '));
    const fields = queryToFields(configToQuery(result.config));
    expect(fields).toMatchObject({ dropAtSec: '5', dropSharePercent: '50', reconnectPolicy: 'default', statefulReconnect: 'true' });
    const again = validateRunConfig({ ...fields, endpointUrl: 'http://h/signalrbench' });
    expect(again.ok && again.config).toMatchObject({ dropAtSec: 5, dropSharePercent: 50, reconnectPolicy: 'default', statefulReconnect: true });
  });
});

function fates(parts: Partial<Fates>): Fates {
  return { ...emptyFates(), ...parts, notSent: { ...emptyFates().notSent, ...parts.notSent } };
}

describe('the verdict of a run with a planned drop', () => {
  const base = { outcome: { kind: 'finished' as const }, durationSec: 30, p99Us: 5_000, lostWorkers: 0 };

  it('passes when the drop cost nothing (stateful reconnect bridged it)', () => {
    const verdict = runVerdict({ ...base, fates: fates({ planned: 1_000, underOneSecond: 1_000 }), plannedDrop: { duplicated: 0 } });
    expect(verdict.status).toBe('pass');
  });

  it('fails on 1 lost reception of 1,000, which the guide\'s 99% alone would pass, saying what saves them', () => {
    const lostOne = fates({ planned: 1_000, underOneSecond: 999 });
    const verdict = runVerdict({ ...base, fates: lostOne, plannedDrop: { duplicated: 0 } });
    expect(verdict.status).toBe('fail');
    expect(verdict.sentence).toMatch(/^Fail: the planned drop cost messages \(1 lost\); 99\.90% of 1,000 planned receptions/);
  });

  it('fails on receptions never sent while reconnecting, and on duplicates', () => {
    const notSent = runVerdict({ ...base, fates: fates({ planned: 1_000, underOneSecond: 995, notSent: { reconnecting: 5, backedUp: 0, writeFailed: 0, disconnected: 0, clientBehind: 0, receiverAbsent: 0, workerLost: 0, runStopped: 0 } }), plannedDrop: { duplicated: 0 } });
    expect(notSent.sentence).toMatch(/\(5 never sent\)/);
    const duplicated = runVerdict({ ...base, fates: fates({ planned: 1_000, underOneSecond: 1_000 }), plannedDrop: { duplicated: 3 } });
    expect(duplicated.status).toBe('fail');
    expect(duplicated.sentence).toMatch(/\(3 duplicated\)/);
  });
});

describe('comparing one drop under each variant', () => {
  const base = () => {
    const checked = validateRunConfig({ ...DEFAULTS, endpointUrl: 'http://h/signalrbench', reconnect: true, dropAtSec: 5 });
    if (!checked.ok) throw new Error(checked.errors.join(' '));
    return checked.config;
  };

  it('policies: the same drop under SignalR\'s default, fixed and jittered', () => {
    const plan = planDropComparison(base(), 'policies');
    expect(plan.problem).toBeNull();
    expect(plan.variants.map((v) => v.config?.reconnectPolicy)).toEqual(['default', 'fixed', 'jittered']);
    expect(plan.variants.every((v) => v.config?.dropAtSec === 5)).toBe(true);
  });

  it('stateful reconnect off, then on', () => {
    const plan = planDropComparison(base(), 'stateful');
    expect(plan.variants.map((v) => [v.label, v.config?.statefulReconnect])).toEqual([['stateful reconnect off', false], ['stateful reconnect on', true]]);
  });

  it('needs a drop, and says what stops a variant', () => {
    expect(planDropComparison({ ...base(), dropAtSec: null }, 'stateful').problem).toMatch(/^Set Drop at first/);
    expect(planDropComparison({ ...base(), transport: 'LongPolling' }, 'stateful').problem).toMatch(/^stateful reconnect on cannot run: Stateful reconnect works over WebSockets only/);
  });
});
