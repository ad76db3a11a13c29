/**
 * The hub-sample's REST API (--EnableRestApi): Azure SignalR Service's data-plane v1 sends for its
 * own hubs, driven by HTTP POSTs signed by signalr/rest-tokens.ts (jose; HS256, aud the request
 * URL without its query, a short exp)
 * and received by real @microsoft/signalr clients on the bench hub. A broadcast reaches every
 * connection, a send to a user only that user's (the user from the client's token); a token
 * signed with another key is a 401 that says so, a hub it does not have a 404 that names its
 * hubs; the key is printed nowhere, not even when it is refused at start-up.
 */
import type { HubConnection } from '@microsoft/signalr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signRestToken } from '../../signalr/rest-tokens.ts';
import { restPost, restReceiver, until } from '../support/rest-calls.ts';
import { runHubToExit, startHub, type RunningHub } from '../support/hub-process.ts';

const KEY = 'rest-api-integration-key-0123456789abcdef';
let hub: RunningHub;
const connections: HubConnection[] = [];

beforeAll(async () => {
  hub = await startHub({ extraArgs: ['--RequireAuth', 'true', '--EnableTestHubs', 'true', '--EnableRestApi', 'true', '--RestApiKey', KEY] });
}, 60_000);

afterAll(async () => {
  await Promise.all(connections.map((c) => c.stop()));
  await hub?.stop();
});

const post = (path: string, body: unknown, key = KEY) => restPost(hub.httpUrl, path, body, key);

/** A bench-hub client whose token names `user` (the hub's test token endpoint signs its sub). */
async function client(user: string): Promise<{ received: unknown[][]; connection: HubConnection }> {
  const token = await (await fetch(`${hub.httpUrl}/testhubs/token?user=${user}`, { method: 'POST' })).text();
  const client = await restReceiver(`${hub.httpUrl}/signalrbench`, token);
  connections.push(client.connection);
  return client;
}

describe('the hub-sample speaks Azure SignalR Service REST API v1', () => {
  it('a broadcast reaches every client and a send to a user only that user, each answered 202', async () => {
    const alice = await client('alice');
    const bob = await client('bob');
    const broadcast = await post('/api/v1/hubs/benchhub', { target: 'restMessage', arguments: ['to all', 1] });
    expect(broadcast.status).toBe(202);
    const toBob = await post('/api/v1/hubs/BenchHub/users/bob', { target: 'restMessage', arguments: ['to bob', 2] });
    expect(toBob.status).toBe(202);
    await until(() => bob.received.length >= 2 && alice.received.length >= 1);
    // The user's message was sent after the broadcast; give it time to (wrongly) reach alice too.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(alice.received).toEqual([['to all', 1]]);
    expect(bob.received).toEqual([['to all', 1], ['to bob', 2]]);
  });

  it("a send to a group reaches its members, less the broadcast's excluded connection ids", async () => {
    const carol = await client('carol');
    const dave = await client('dave');
    await carol.connection.invoke('JoinGroup', 'rest-group');
    await dave.connection.invoke('JoinGroup', 'rest-group');
    expect((await post('/api/v1/hubs/benchhub/groups/rest-group', { target: 'restMessage', arguments: ['to the group'] })).status).toBe(202);
    expect((await post(`/api/v1/hubs/benchhub/groups/rest-group?excluded=${dave.connection.connectionId}`, { target: 'restMessage', arguments: ['not dave'] })).status).toBe(202);
    await until(() => carol.received.length >= 2 && dave.received.length >= 1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(carol.received).toEqual([['to the group'], ['not dave']]);
    expect(dave.received).toEqual([['to the group']]);
  });

  it('a token signed with another key: 401 within seconds, saying so without the token', async () => {
    const started = Date.now();
    const response = await post('/api/v1/hubs/benchhub', { target: 'restMessage', arguments: [] }, 'another-key-of-at-least-thirty-two-bytes');
    expect(response.status).toBe(401);
    expect(await response.text()).toBe("401: the token is not signed HS256 with this hub's REST API key.\n");
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('no token, or one for another URL: 401 naming what is missing or the URL it must be for', async () => {
    const url = `${hub.httpUrl}/api/v1/hubs/benchhub`;
    const none = await fetch(url, { method: 'POST', body: '{"target":"t"}' });
    expect(none.status).toBe(401);
    expect(await none.text()).toContain("needs 'Authorization: Bearer <JWT>'");
    const elsewhere = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${await signRestToken(`${hub.httpUrl}/api/v1/hubs/chathub`, KEY)}` }, body: '{"target":"t"}' });
    expect(elsewhere.status).toBe(401);
    expect(await elsewhere.text()).toBe(`401: the token's aud is not this request's URL: it must be ${url} (no query, no trailing slash).\n`);
  });

  it('a hub it does not have: 404 naming its hubs; a bad body: 400 saying the shape; over 1 MB: 413', async () => {
    const missing = await post('/api/v1/hubs/nosuchhub', { target: 'restMessage', arguments: [] });
    expect(missing.status).toBe(404);
    const text = await missing.text();
    expect(text).toMatch(/^404: this hub-sample has no hub 'nosuchhub'\. Its hubs are: .*benchhub.*\.\n$/);
    expect(text).toContain('chathub');
    const bad = await post('/api/v1/hubs/benchhub', { arguments: [] });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('400: the body has no target');
    const big = await post('/api/v1/hubs/benchhub', { target: 'restMessage', arguments: ['x'.repeat(1024 * 1024)] });
    expect(big.status).toBe(413);
    expect(await big.text()).toBe("413: the body is over 1,048,576 bytes, Azure's limit for a REST request.\n");
  });

  it('the key is printed nowhere by the running hub', () => {
    expect(hub.output()).toContain('REST API (Azure SignalR\'s v1, --EnableRestApi)');
    expect(hub.output()).not.toContain(KEY);
  });

  it('enabled with a short key or without one: exit 2 at start-up, one line each, never the key', async () => {
    const short = await runHubToExit(['--port', '0', '--EnableRestApi', 'true', '--RestApiKey', 'short-secret-key']);
    expect(short.code).toBe(2);
    expect(short.stderr).toContain('The REST API key has 16 bytes, but HMAC-SHA256 needs at least 32');
    expect(short.stdout + short.stderr).not.toContain('short-secret-key');
    const none = await runHubToExit(['--port', '0', '--EnableRestApi', 'true']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('--EnableRestApi true needs the access key');
  }, 60_000);
});
