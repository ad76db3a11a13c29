import { describe, expect, it } from 'vitest';
import { benchRequest } from '../../src/lib/bench-hook.ts';

const ORIGIN = 'http://127.0.0.1:5180';

describe('benchRequest', () => {
  it('asks for nothing without autostart=1', () => {
    expect(benchRequest('?connections=10&report=http://127.0.0.1:5312/report', ORIGIN)).toBeNull();
    expect(benchRequest('?autostart=0&report=http://127.0.0.1:5312/report', ORIGIN)).toBeNull();
  });

  it('reads the run from the query, with the hub of the page when no endpoint is given', () => {
    const request = benchRequest('?autostart=1&report=http%3A%2F%2F127.0.0.1%3A5312%2Freport%3Fid%3D3&connections=255&sendIntervalMs=40&workers=4&connectConcurrency=255', ORIGIN);
    expect(request).toMatchObject({
      reportUrl: 'http://127.0.0.1:5312/report?id=3',
      config: { endpointUrl: 'http://127.0.0.1:5180/signalrbench', connections: 255, sendIntervalMs: 40, workers: 4, connectConcurrency: 255, transport: 'WebSockets' },
    });
  });

  it('passes every validation problem on, to be reported', () => {
    const request = benchRequest('?autostart=1&report=http://127.0.0.1:5312/report&connections=0&sendIntervalMs=1', ORIGIN);
    expect(request && 'errors' in request ? request.errors : []).toEqual([
      expect.stringMatching(/^Connections must be a whole number/),
      expect.stringMatching(/^Send interval must be a whole number/),
    ]);
  });

  it('refuses a report address that is not an http(s) URL', () => {
    const request = benchRequest('?autostart=1&report=collector&connections=10', ORIGIN);
    expect(request).toEqual({ reportUrl: '', errors: [expect.stringContaining('report must be an absolute http(s) URL')] });
  });
});
