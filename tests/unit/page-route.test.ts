import { describe, expect, it } from 'vitest';
import { hashOf, routeOf } from '../../src/lib/page-route.ts';

describe('the page and the kept run in the address', () => {
  it('reads back what it writes, for every page and a kept run', () => {
    for (const route of [{ page: 'run', runId: null }, { page: 'finder', runId: null }, { page: 'history', runId: null }, { page: 'history', runId: 'r-2026-12-06T03:00:00Z/7 b' }] as const) {
      expect(routeOf(hashOf(route))).toEqual(route);
    }
    expect(hashOf({ page: 'history', runId: 'abc' })).toBe('#history/run/abc');
    expect(hashOf({ page: 'run', runId: null })).toBe('');
  });

  it('takes an unknown or empty fragment as the Live page, and a bare "run/" as the list', () => {
    expect(routeOf('')).toEqual({ page: 'run', runId: null });
    expect(routeOf('#nonsense')).toEqual({ page: 'run', runId: null });
    expect(routeOf('#history/run/')).toEqual({ page: 'history', runId: null });
  });
});
