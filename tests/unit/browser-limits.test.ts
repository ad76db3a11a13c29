import { describe, expect, it } from 'vitest';
import { browserLimitWarnings, planLimitWarnings } from '../../core/run-config/browser-limits.ts';

describe('browserLimitWarnings', () => {
  const cases: [string, Parameters<typeof browserLimitWarnings>, 'none' | 'warning' | 'error', RegExp?][] = [
    ['255 WebSockets fit', ['WebSockets', 'http://h/hub', 255], 'none'],
    ['256 WebSockets do not', ['WebSockets', 'http://h/hub', 256], 'error', /255 WebSockets per browser profile; 1 of the 256/],
    ['4 long-polling connections over HTTP/1.1 fit', ['LongPolling', 'http://h/hub', 4], 'none'],
    ['5 SSE connections over HTTP/1.1 queue', ['ServerSentEvents', 'http://h/hub', 5], 'error', /6 connections per origin.*https:\/\//],
    ['20 long-polling connections over HTTP/2 fit', ['LongPolling', 'https://h/hub', 20], 'none'],
    ['60 long-polling connections over HTTP/2 pass the usual stream limit', ['LongPolling', 'https://h/hub', 60], 'warning', /120 concurrent streams/],
  ];
  for (const [name, args, severity, message] of cases) {
    it(name, () => {
      const warnings = browserLimitWarnings(...args);
      if (severity === 'none') expect(warnings).toEqual([]);
      else {
        expect(warnings).toHaveLength(1);
        expect(warnings[0]!.severity).toBe(severity);
        expect(warnings[0]!.message).toMatch(message!);
      }
    });
  }
});

describe('planLimitWarnings: the browser and its agents together', () => {
  it('counts browser agents as one more browser each, and leaves a headless runner\'s engines to the fleet\'s plan (core/fleet/fleet-run.ts)', () => {
    // 300 WebSockets with a second browser: 510 can be held, no warning.
    expect(planLimitWarnings('WebSockets', 'http://h/hub', 300, [{ kind: 'browser', threads: 2 }], true)).toEqual([]);
    expect(planLimitWarnings('WebSockets', 'http://h/hub', 100_000, [{ kind: 'node', threads: 4 }], true)).toEqual([]);
    const over = planLimitWarnings('WebSockets', 'http://h/hub', 600, [{ kind: 'browser', threads: 1 }], true);
    expect(over.map((w) => w.severity)).toEqual(['error']);
    expect(over[0]!.message).toContain('can hold 510 WebSockets connections (a browser 255), not 600');
  });

  it('without agents, is this browser\'s own limits: 100,000 connections and SSE over http:// are errors', () => {
    expect(planLimitWarnings('WebSockets', 'http://h/hub', 100_000, [], true)[0]!.severity).toBe('error');
    expect(planLimitWarnings('ServerSentEvents', 'http://h/hub', 50, [], true)[0]!.severity).toBe('error');
    expect(planLimitWarnings('WebSockets', 'http://h/hub', 20, [], true)).toEqual([]);
  });
});
