/** Why connects failed, by side: the client's own limits are never the service's. */
import { describe, expect, it } from 'vitest';
import { causesText, connectCauseOf, failuresOfSide, sideOfCause } from '../../core/client/connect-causes.ts';
import { clientLimitReasons } from '../../core/client/own-limits.ts';
import { classifySignalRError } from '../../signalr/errors.ts';
import { limitOfResult } from '../../core/result/limit.ts';
import { stepRun } from '../support/step-run.ts';

const ws = { endpointUrl: 'http://127.0.0.1:5000/signalrbench', transport: 'WebSockets', protocol: 'json', reconnect: false } as const;

describe('connect causes', () => {
  it.each([
    ['Failed to complete negotiation with the server: TypeError: fetch failed (EMFILE: connect EMFILE 127.0.0.1:5191 - Local (undefined:undefined))', 'EMFILE', 'client'],
    ['fetch failed (EADDRNOTAVAIL: connect EADDRNOTAVAIL 127.0.0.1:5000)', 'EADDRNOTAVAIL', 'client'],
    ['connect ENFILE', 'ENFILE', 'client'],
    ['write ENOBUFS', 'ENOBUFS', 'client'],
    ['connect EAGAIN 127.0.0.1:5000', 'EAGAIN', 'client'],
    ['fetch failed (ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:5000)', 'refused', 'service'],
    ['read ECONNRESET', 'reset', 'service'],
    ["Failed to complete negotiation with the server: Error: Service Unavailable: Status code '503'", 'httpStatus', 'service'],
    ["Failed to complete negotiation with the server: Error: Too Many Requests: Status code '429'", 'httpStatus', 'service'],
    ["Failed to complete negotiation with the server: Error: Not Found: Status code '404'", 'addressRefused', 'unknown'],
    ["Failed to complete negotiation with the server: Error: Unauthorized: Status code '401'", 'addressRefused', 'unknown'],
    ['WebSocket failed to connect. (the socket said: Unexpected server response: 503)', 'httpStatus', 'service'],
    ['WebSocket failed to connect. (the socket said: Unexpected server response: 429)', 'httpStatus', 'service'],
    ['WebSocket failed to connect. (the socket said: Unexpected server response: 404)', 'other', 'unknown'],
    // A token refused on the upgrade says nothing about load, as at negotiate.
    ['WebSocket failed to connect. (the socket said: Unexpected server response: 401)', 'addressRefused', 'unknown'],
    ['WebSocket failed to connect. The connection could not be found on the server', 'other', 'unknown'],
  ] as const)('%s → %s (%s)', (text, cause, side) => {
    expect(connectCauseOf(text)).toBe(cause);
    expect(sideOfCause(cause)).toBe(side);
  });

  it('the SignalR error classifier carries the cause, and words EMFILE as the client\'s, not a hub that accepted nothing', () => {
    const emfile = classifySignalRError(Object.assign(new Error('Failed to complete negotiation with the server: TypeError: fetch failed (EMFILE: connect EMFILE 127.0.0.1:5000 - Local (undefined:undefined))'), { errorType: 'FailedToNegotiateWithServerError' }), ws);
    expect(emfile).toMatchObject({ kind: 'negotiate', cause: 'EMFILE' });
    expect(emfile.message).toContain('This client ran out of file descriptors, not the hub: raise the limit (ulimit -n 65535)');
    expect(emfile.message).not.toContain('Nothing accepted the connection');
    expect(classifySignalRError(new Error('fetch failed (ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:5000)'), ws).cause).toBe('refused');
  });

  it('counts and words each side apart', () => {
    const counts = { EMFILE: 19, other: 8, refused: 2 };
    expect(failuresOfSide(counts, 'client')).toBe(19);
    expect(failuresOfSide(counts, 'service')).toBe(2);
    expect(causesText(counts, 'client')).toBe('19 EMFILE: this process ran out of file descriptors');
    expect(causesText(undefined)).toBe('');
  });

  it('a run whose connects failed with EMFILE is the client\'s limit in the run summary too', () => {
    expect(clientLimitReasons({ connections: 150, connectionsFailed: 27, connectCauses: { EMFILE: 19, other: 8 }, workers: [{ lost: false }], workerFailures: [] }))
      .toEqual(['could not open 19 connections for want of its own resources (19 EMFILE: this process ran out of file descriptors)']);
    const run = stepRun({ config: { connections: 150 }, totals: { connectionsFailed: 27 }, run: { connectCauses: { EMFILE: 27 } } });
    expect(limitOfResult(run)).toMatchObject({ side: 'client' });
    expect(limitOfResult(run).sentence).toMatch(/^The client could not open 27 connections for want of its own resources/);
  });
});
