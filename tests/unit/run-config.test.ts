import { describe, expect, it } from 'vitest';
import { defaultEndpointUrl, DEFAULTS, drainPlan, validateRunConfig } from '../../core/run-config/config.ts';

const endpointUrl = 'http://127.0.0.1:5180/signalrbench';

describe('validateRunConfig', () => {
  it('fills the guide defaults: 2,048 B every 1,000 ms over WebSockets', () => {
    const result = validateRunConfig({ endpointUrl });
    expect(result).toEqual({ ok: true, config: { ...DEFAULTS, endpointUrl } });
    expect(DEFAULTS).toMatchObject({ messageBytes: 2_048, sendIntervalMs: 1_000, transport: 'WebSockets' });
  });

  it('accepts numbers typed as text', () => {
    const result = validateRunConfig({ endpointUrl, connections: '255', workers: ' 4 ', durationSec: '10' });
    expect(result.ok && result.config).toMatchObject({ connections: 255, workers: 4, durationSec: 10 });
  });

  const bad: [string, Record<string, unknown>, RegExp][] = [
    ['empty endpoint', { endpointUrl: '' }, /Endpoint is empty/],
    ['endpoint not a URL', { endpointUrl: 'localhost:5180' }, /not a URL|uses localhost/],
    ['ws:// endpoint', { endpointUrl: 'ws://127.0.0.1:5180/signalrbench' }, /uses ws; SignalR negotiates over http/],
    ['zero connections', { connections: 0 }, /Connections must be a whole number from 1 to 1,000,000, but is 0/],
    ['negative workers', { workers: -1 }, /Workers must be a whole number from 1 to 64, but is -1/],
    ['fractional bytes', { messageBytes: '2.5' }, /Message size .* but is "2.5"/],
    ['absurd interval', { sendIntervalMs: 1e12 }, /Send interval must be .* 3,600,000 ms/],
    ['text duration', { durationSec: 'ten' }, /Duration .* but is "ten"/],
    ['unknown transport', { transport: 'Carrier pigeon' }, /Transport must be one of WebSockets, ServerSentEvents, LongPolling/],
    ['SSE with MessagePack', { transport: 'ServerSentEvents', protocol: 'messagepack' }, /text only/],
    ['more workers than connections', { connections: 2, workers: 3 }, /Workers \(3\) must not outnumber connections \(2\)/],
  ];
  for (const [name, input, message] of bad) {
    it(`rejects ${name}`, () => {
      const result = validateRunConfig({ endpointUrl, ...input });
      expect(result.ok).toBe(false);
      expect(result.ok ? '' : result.errors.join('\n')).toMatch(message);
    });
  }

  it('lists group problems along with the others', () => {
    const result = validateRunConfig({ endpointUrl, scenario: 'smallGroup', connections: 30, groupSize: 1, durationSec: 0 });
    const errors = result.ok ? [] : result.errors;
    expect(errors.some((e) => e.startsWith('Duration must be'))).toBe(true);
    expect(errors.some((e) => /Group size must be .* at least 2, but is 1/.test(e))).toBe(true);
  });

  it('lists every problem at once', () => {
    const result = validateRunConfig({ endpointUrl: 'nope', connections: 0, messageBytes: 1, durationSec: -5 });
    expect(result.ok ? [] : result.errors).toHaveLength(4);
  });
});

describe('each problem names its fields', () => {
  const problemsOf = (input: Record<string, unknown>) => {
    const result = validateRunConfig({ endpointUrl, ...input });
    return result.ok ? [] : result.problems;
  };

  it('one field per setting, in the order the messages are said', () => {
    const problems = problemsOf({ endpointUrl: 'nope', connections: 0, messageBytes: 1, transport: 'Pigeon' });
    expect(problems.map((p) => p.fields)).toEqual([['endpointUrl'], ['transport'], ['connections'], ['messageBytes']]);
    const result = validateRunConfig({ endpointUrl: 'nope', connections: 0, messageBytes: 1, transport: 'Pigeon' });
    expect(result.ok ? [] : result.errors).toEqual(problems.map((p) => p.message));
  });

  it('a problem of two settings names both: Server-Sent Events with MessagePack, more workers than connections', () => {
    expect(problemsOf({ transport: 'ServerSentEvents', protocol: 'messagepack' }).map((p) => p.fields)).toEqual([['transport', 'protocol']]);
    expect(problemsOf({ connections: 2, workers: 4 }).map((p) => p.fields)).toEqual([['workers', 'connections']]);
  });

  it('the plan is checked only when the counts it is made from are valid, whatever the wording', () => {
    // Valid counts: the group plan's own problem is said, naming the group fields.
    expect(problemsOf({ scenario: 'smallGroup', connections: 30, groupSize: 20, groupCount: 2 }).map((p) => p.fields)).toEqual([['groupSize', 'groupCount', 'connections']]);
    // An invalid count: its own problem only, no plan computed from a number that is not one.
    expect(problemsOf({ scenario: 'smallGroup', connections: 'many', groupSize: 20, groupCount: 2 }).map((p) => p.fields)).toEqual([['connections']]);
    // An invalid setting the plan does not read: the plan is still checked beside it.
    expect(problemsOf({ scenario: 'smallGroup', connections: 30, groupSize: 20, groupCount: 2, durationSec: 0 }).map((p) => p.fields)).toEqual([['durationSec'], ['groupSize', 'groupCount', 'connections']]);
  });

  it('drop problems name the setting to change', () => {
    expect(problemsOf({ durationSec: 10, dropAtSec: 20, reconnect: true }).map((p) => p.fields)).toEqual([['dropAtSec']]);
    expect(problemsOf({ durationSec: 10, dropAtSec: 5, reconnect: false }).map((p) => p.fields)).toEqual([['reconnect']]);
  });
});

describe('defaults derived from the page and the interval', () => {
  it('points the endpoint at the hub-sample path of the serving origin', () => {
    expect(defaultEndpointUrl('https://127.0.0.1:5181')).toBe('https://127.0.0.1:5181/signalrbench');
  });

  it('drains up to the set cap, giving up after a quiet period of two intervals (at least 3 s, at most the cap)', () => {
    expect(drainPlan({ sendIntervalMs: 100, drainSec: 30 })).toEqual({ capMs: 30_000, quietMs: 3_000 });
    expect(drainPlan({ sendIntervalMs: 3_000, drainSec: 30 })).toEqual({ capMs: 30_000, quietMs: 6_000 });
    expect(drainPlan({ sendIntervalMs: 60_000, drainSec: 30 })).toEqual({ capMs: 30_000, quietMs: 30_000 });
    expect(drainPlan({ sendIntervalMs: 1_000, drainSec: 2 })).toEqual({ capMs: 2_000, quietMs: 2_000 });
  });

  it('refuses a drain cap outside 1 to 600 s, saying what it is for', () => {
    const result = validateRunConfig({ endpointUrl: 'http://h/signalrbench', drainSec: '0' });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.errors.join(' ')).toMatch(/Drain must be a whole number from 1 to 600 s, but is "0"\. It is the longest wait/);
  });

  it('says a group size or count that cannot fit with the values typed, never a derived 0', () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ scenario: 'smallGroup', connections: '20', groupSize: '50' }, '50 members per group but only 20 connections: not one group fits. Lower the group size to at most 20, or raise the connections to at least 50.'],
      [{ scenario: 'bigGroup', connections: '20', groupSize: '50' }, '50 members per group but only 20 connections'],
      [{ scenario: 'bigGroup', connections: '20', groupCount: '50' }, '50 groups but only 20 connections: each group needs at least 2 members, so 50 groups need 100. Lower the group count to at most 10, or raise the connections to at least 100.'],
      [{ scenario: 'smallGroup', connections: '20', groupCount: '15' }, '15 groups but only 20 connections'],
    ];
    for (const [given, expected] of cases) {
      const result = validateRunConfig({ endpointUrl, ...given });
      expect(result.ok, JSON.stringify(given)).toBe(false);
      const errors = result.ok ? [] : result.errors;
      expect(errors).toHaveLength(1);
      expect(errors[0]).toContain(expected);
      expect(errors.join(' ')).not.toMatch(/but is 0|but is 1\b/);
    }
    // What fits still runs: 20 connections in groups of 20, or 10 groups of 2.
    expect(validateRunConfig({ endpointUrl, scenario: 'smallGroup', connections: '20', groupSize: '20' }).ok).toBe(true);
    expect(validateRunConfig({ endpointUrl, scenario: 'bigGroup', connections: '20', groupCount: '10' }).ok).toBe(true);
  });
});

describe('a planned drop and the warm-up', () => {
  it('a run that would drop inside its warm-up is refused', () => {
    const result = validateRunConfig({ endpointUrl: 'http://h/hub', durationSec: 10, warmupSec: 5, reconnect: true, dropAtSec: 2 });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.errors).toEqual([expect.stringMatching(/^Drop at \(2 s\) falls inside the warm-up \(5 s\)/)]);
  });
});
