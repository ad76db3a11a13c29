/**
 * The REST API's calls and tokens (core/serverless, signalr/rest-tokens.ts) against Azure SignalR
 * Service's documented rules: the v1 paths, a hub name Azure takes, aud the request URL without
 * query or trailing slash, exp required and short, HS256 with the access key; a client's token
 * for {clientEndpoint}/client/?hub={hub} carries that URL as aud and its user in nameid.
 */
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  REST_TOKEN_SECONDS, clientHubUrl, clientTokenClaims, restAudience, restCallProblemText, restSendBody, restSendUrl, restTokenClaims,
} from '../../core/serverless/index.ts';
import { signClientToken, signRestToken } from '../../signalr/rest-tokens.ts';

const ENDPOINT = 'https://bench.service.signalr.net';
const KEY = 'an-access-key-of-at-least-thirty-two-bytes';
const NOW = 1_760_000_000;

function url(result: ReturnType<typeof restSendUrl>): string {
  if (!('url' in result)) throw new Error(restCallProblemText(result.problem));
  return result.url;
}

describe('the REST calls', () => {
  it('post to the v1 paths: the hub, a user of it, a group of it (ids encoded)', () => {
    expect(url(restSendUrl(ENDPOINT, 'benchhub', { kind: 'broadcast' }))).toBe(`${ENDPOINT}/api/v1/hubs/benchhub`);
    expect(url(restSendUrl(`${ENDPOINT}/`, 'benchhub', { kind: 'user', user: 'user 7/a' }))).toBe(`${ENDPOINT}/api/v1/hubs/benchhub/users/user%207%2Fa`);
    expect(url(restSendUrl(ENDPOINT, 'bench_Hub2', { kind: 'group', group: 'g1' }))).toBe(`${ENDPOINT}/api/v1/hubs/bench_Hub2/groups/g1`);
  });

  it("refuse a hub name Azure does not take, and an empty user or group, in words", () => {
    const refused = (r: ReturnType<typeof restSendUrl>) => ('problem' in r ? restCallProblemText(r.problem) : 'accepted');
    expect(refused(restSendUrl(ENDPOINT, '9hub', { kind: 'broadcast' }))).toContain("The hub name '9hub' is not one Azure SignalR Service takes");
    expect(refused(restSendUrl(ENDPOINT, 'bench-hub', { kind: 'broadcast' }))).toContain('must start with a letter');
    expect(refused(restSendUrl(ENDPOINT, 'benchhub', { kind: 'user', user: '' }))).toBe('A send to a user needs a user id: it was empty.');
    expect(refused(restSendUrl(ENDPOINT, 'benchhub', { kind: 'group', group: '' }))).toBe('A send to a group needs a group name: it was empty.');
  });

  it('send the body { target, arguments }', () => {
    expect(JSON.parse(restSendBody('restMessage', ['text', 12]))).toEqual({ target: 'restMessage', arguments: ['text', 12] });
  });

  it("claim aud = the request URL without query and trailing slash, and a short exp", () => {
    expect(restAudience(`${ENDPOINT}/api/v1/hubs/benchhub/?excluded=c1`)).toBe(`${ENDPOINT}/api/v1/hubs/benchhub`);
    expect(restTokenClaims(`${ENDPOINT}/api/v1/hubs/benchhub?excluded=c1`, NOW + 0.7)).toEqual({ aud: `${ENDPOINT}/api/v1/hubs/benchhub`, exp: NOW + REST_TOKEN_SECONDS });
    expect(REST_TOKEN_SECONDS).toBeLessThanOrEqual(300);
  });

  it('a client connects to {clientEndpoint}/client/?hub={hub} with that URL as aud and its user as nameid', () => {
    const client = clientHubUrl(ENDPOINT, 'benchhub');
    expect(client).toEqual({ url: `${ENDPOINT}/client/?hub=benchhub` });
    expect(clientTokenClaims(`${ENDPOINT}/client/?hub=benchhub`, NOW, 'user-3', 600)).toEqual({ aud: `${ENDPOINT}/client/?hub=benchhub`, exp: NOW + 600, nameid: 'user-3' });
    expect(clientTokenClaims(`${ENDPOINT}/client/?hub=benchhub`, NOW)).not.toHaveProperty('nameid');
  });
});

describe('the signed tokens', () => {
  const key = new TextEncoder().encode(KEY);

  it("a REST token is HS256 with the key, aud the URL, exp a minute on", async () => {
    const now = Date.now() / 1000;
    const token = await signRestToken(`${ENDPOINT}/api/v1/hubs/benchhub/users/u1?x=1`, KEY, now);
    expect(decodeProtectedHeader(token).alg).toBe('HS256');
    const { payload } = await jwtVerify(token, key, { audience: `${ENDPOINT}/api/v1/hubs/benchhub/users/u1`, algorithms: ['HS256'] });
    expect(payload.exp).toBe(Math.floor(now) + REST_TOKEN_SECONDS);
    expect(payload.iat).toBe(Math.floor(now));
    await expect(jwtVerify(token, new TextEncoder().encode('another-key-of-thirty-two-bytes-or-more'))).rejects.toThrow();
  });

  it('an expired REST token is refused by a verifier', async () => {
    const token = await signRestToken(`${ENDPOINT}/api/v1/hubs/benchhub`, KEY, Date.now() / 1000 - 3_600);
    await expect(jwtVerify(token, key)).rejects.toThrow(/exp/);
  });

  it("a client token carries its client URL as aud and the user as nameid", async () => {
    const clientUrl = `${ENDPOINT}/client/?hub=benchhub`;
    const token = await signClientToken(clientUrl, KEY, 'user-9');
    const { payload } = await jwtVerify(token, key, { audience: clientUrl });
    expect(payload.nameid).toBe('user-9');
    expect(payload.exp! - payload.iat!).toBe(3_600);
  });
});
