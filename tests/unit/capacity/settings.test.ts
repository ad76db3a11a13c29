import { describe, expect, it } from 'vitest';
import { plannedSendRate, stepConfig, validateCapacitySettings } from '../../../core/capacity/settings.ts';
import { parseCliArgs } from '../../../cli/args.ts';
import { testConfig } from '../../support/finished-run.ts';

const base = testConfig({ connections: 100, workers: 2, sendIntervalMs: 1_000 });

describe('capacity settings', () => {
  it('takes strings from forms and command lines, with the defaults for the rest', () => {
    const result = validateCapacitySettings({ ramp: 'rate', start: '100', step: '100', max: '1000' }, base);
    expect(result).toEqual({ ok: true, settings: { ramp: 'rate', start: 100, step: 100, max: 1_000, stepSec: 20, settleSec: 3, bisectSteps: 2 } });
  });

  it('lists every problem at once', () => {
    const result = validateCapacitySettings({ ramp: 'sideways', start: '0', step: 'x', max: '-5', stepSec: '1', bisectSteps: '11' }, base);
    expect(result.ok).toBe(false);
    const errors = result.ok ? [] : result.errors;
    expect(errors).toHaveLength(6);
    expect(errors[0]).toMatch(/^Ramp must be connections or rate, but is "sideways"/);
    expect(errors.join('\n')).toMatch(/Ramp start .* but is "0"/);
    expect(errors.join('\n')).toMatch(/Step duration .* from 2 to 3,600, but is "1"/);
  });

  it('refuses a start above the maximum and a settle as long as the step', () => {
    const result = validateCapacitySettings({ ramp: 'rate', start: 500, step: 1, max: 100, stepSec: 4, settleSec: 4 }, base);
    expect(result.ok ? [] : result.errors).toEqual([
      'Ramp start (500) is above the maximum (100): lower the start or raise the maximum.',
      'Settle (4 s) must be shorter than the step duration (4 s): nothing would be judged. Lower the settle or lengthen the steps.',
    ]);
  });

  it('refuses a rate the connections cannot send with a 10 ms interval, saying how many would', () => {
    const result = validateCapacitySettings({ ramp: 'rate', start: 100, step: 100, max: 20_000 }, base);
    expect(result.ok ? [] : result.errors).toEqual([expect.stringMatching(/20,000 msg\/s from 100 sending connections needs a send interval of 5\.0 ms.*at least 200/)]);
  });

  it('refuses a connection ramp the run configuration refuses, naming the load', () => {
    // 50 senders fit the base's 100 connections but not the ramp's first step of 10.
    const broadcast = testConfig({ scenario: 'broadcast', senders: 50, connections: 100, workers: 2, sendIntervalMs: 1_000 });
    const result = validateCapacitySettings({ ramp: 'connections', start: 10, step: 100, max: 1_000 }, broadcast);
    const errors = result.ok ? [] : result.errors;
    expect(errors).toEqual(['At 10 connections: Senders (50) must not outnumber connections (10). Lower the senders or raise the connections.']);
  });

  it('turns a rate into a send interval, and counts only the senders', () => {
    const settings = { ramp: 'rate' as const, start: 300, step: 100, max: 900, stepSec: 4, settleSec: 1, bisectSteps: 2 };
    expect(stepConfig(base, settings, 300).sendIntervalMs).toBe(333);
    expect(plannedSendRate(stepConfig(base, settings, 300))).toBeCloseTo(300.3, 1);
    const broadcast = testConfig({ scenario: 'broadcast', connections: 100, workers: 2 });
    expect(stepConfig(broadcast, settings, 20).sendIntervalMs).toBe(100);
  });
});

describe('a capacity search and planned drops', () => {
  it('refuses a planned drop: the step would break by the drop it planned and the search would blame the service', () => {
    const base = testConfig({ connections: 10, durationSec: 10, reconnect: true, dropAtSec: 1 });
    const checked = validateCapacitySettings({ ramp: 'connections', start: 10, step: 10, max: 50 }, base);
    expect(checked.ok).toBe(false);
    expect(!checked.ok && checked.errors).toContainEqual(expect.stringMatching(/^A capacity search cannot plan drops \(Drop at 1 s\).*Remove the drop \(--drop-at\)/));
  });
});

describe('each capacity problem names what it is about', () => {
  it('the setting, the base run or a step, so the runner drops what it already said without reading the wording', () => {
    const bad = validateCapacitySettings({ ramp: 'sideways', start: 0 }, base);
    expect(bad.ok === false && bad.problems.map((p) => p.field)).toEqual(['ramp', 'start', 'step', 'max']);
    const steps = validateCapacitySettings({ ramp: 'rate', start: 10, step: 10, max: 1_000_000 }, base);
    expect(steps.ok === false && steps.problems.map((p) => p.field)).toEqual(['steps']);
  });

  it('the runner: a ramp setting not given is said once, as the flag it needs', () => {
    const parsed = parseCliArgs(['--endpoint', 'http://127.0.0.1:5180/signalrbench', '--find-capacity', '--ramp', 'rate', '--start', '10']);
    const errors = parsed.ok === false ? parsed.errors : [];
    expect(errors).toContain('--find-capacity needs --step <n>: the ramp\'s step.');
    expect(errors.filter((e) => /Ramp step|Ramp maximum/.test(e))).toEqual([]);
  });
});
