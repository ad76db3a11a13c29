/**
 * The hub-sample takes clients as Azure SignalR Service does in serverless mode (--EnableRestApi):
 * real @microsoft/signalr clients connect to `{origin}/client/?hub=benchhub` with client tokens
 * signed by signalr/rest-tokens.ts (the claims of core/serverless: aud the client URL, exp,
 * nameid the user), no --RequireAuth, and REST API sends signed the same way reach them: a
 * broadcast every client, a send to a user only that user's. A token for another hub is a 401
 * naming the URL it must be for, a hub it does not have a 404 naming its hubs, and no token is
 * ever printed by the hub.
 */
import { HttpTransportType, type HubConnection } from '@microsoft/signalr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signClientToken } from '../../signalr/rest-tokens.ts';
import { restPost, restReceiver, until } from '../support/rest-calls.ts';
import { startHub, type RunningHub } from '../support/hub-process.ts';

const KEY = 'serverless-clients-integration-key-0123456789';
let hub: RunningHub;
const connections: HubConnection[] = [];
const tokens: string[] = [];

beforeAll(async () => {
  hub = await startHub({ extraArgs: ['--EnableRestApi', 'true', '--RestApiKey', KEY] });
}, 60_000);

afterAll(async () => {
  await Promise.all(connections.map((c) => c.stop()));
  await hub?.stop();
});

function clientUrl(hubName: string): string {
  return `${hub.httpUrl}/client/?hub=${hubName}`;
}

const post = (path: string, body: unknown) => restPost(hub.httpUrl, path, body, KEY);

/** A serverless client of benchhub as `user`, over `transport`. */
async function client(user: string, transport = HttpTransportType.WebSockets, audienceHub = 'benchhub'): Promise<{ received: unknown[][]; connection: HubConnection }> {
  const token = await signClientToken(clientUrl(audienceHub), KEY, user);
  tokens.push(token);
  const client = await restReceiver(clientUrl('benchhub'), token, transport);
  connections.push(client.connection);
  return client;
}

describe("the hub-sample's serverless clients: /client/?hub= with a client token, as Azure SignalR Service", () => {
  it('clients connect by the client URL and REST sends reach them: the broadcast all, a send to a user only its own', async () => {
    const alice = await client('alice');
    // Long polling sends the token in the header of every poll, WebSockets in the query or header.
    const bob = await client('bob', HttpTransportType.LongPolling);
    expect((await post('/api/v1/hubs/benchhub', { target: 'restMessage', arguments: ['to all', 1] })).status).toBe(202);
    expect((await post('/api/v1/hubs/benchhub/users/bob', { target: 'restMessage', arguments: ['to bob', 2] })).status).toBe(202);
    expect((await post('/api/v1/hubs/benchhub/users/alice', { target: 'restMessage', arguments: ['to alice', 3] })).status).toBe(202);
    await until(() => bob.received.length >= 2 && alice.received.length >= 2);
    // Give a wrong delivery time to arrive.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(alice.received).toEqual([['to all', 1], ['to alice', 3]]);
    expect(bob.received).toEqual([['to all', 1], ['to bob', 2]]);
  });

  it("a token for another hub's client URL: 401 naming the URL it must be for, within seconds", async () => {
    const started = Date.now();
    await expect(client('carol', HttpTransportType.WebSockets, 'chathub')).rejects.toThrow(/401/);
    const token = await signClientToken(clientUrl('chathub'), KEY, 'carol');
    const answer = await fetch(`${hub.httpUrl}/client/negotiate?hub=benchhub&negotiateVersion=1`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(answer.status).toBe(401);
    expect(await answer.text()).toBe(`401: the client token's aud is not this client URL: it must be ${clientUrl('benchhub')}.\n`);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('a hub it does not have: 404 naming its hubs', async () => {
    const token = await signClientToken(clientUrl('nosuchhub'), KEY, 'dave');
    const answer = await fetch(`${hub.httpUrl}/client/negotiate?hub=nosuchhub&negotiateVersion=1`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(answer.status).toBe(404);
    expect(await answer.text()).toBe("404: this hub-sample has no hub 'nosuchhub'. Its hubs are: benchhub.\n");
  });

  it('says where its serverless clients connect, and prints neither the key nor a token', () => {
    expect(hub.output()).toContain('serverless clients (as Azure SignalR Service\'s): /client/?hub={hub}');
    expect(hub.output()).not.toContain(KEY);
    for (const token of tokens) expect(hub.output()).not.toContain(token.split('.')[1]);
  });
});
