/**
 * Azure SignalR Service's connection string (core/serverless): read as the portal writes it,
 * Port= and ClientEndpoint= applied, and every bad string refused naming the part, never echoing
 * the access key, not even when a malformed part is the key itself.
 */
import { describe, expect, it } from 'vitest';
import { connectionStringProblemText, parseConnectionString, type AzureConnection } from '../../core/serverless/index.ts';

const KEY = 'Zm9vYmFyLXNlY3JldC1hY2Nlc3Mta2V5LTEyMzQ1Njc4OTA=';

function connection(text: string): AzureConnection {
  const parsed = parseConnectionString(text);
  if (!('connection' in parsed)) throw new Error(`refused: ${connectionStringProblemText(parsed.problem)}`);
  return parsed.connection;
}

function refusal(text: string): string {
  const parsed = parseConnectionString(text);
  if (!('problem' in parsed)) throw new Error('accepted a bad connection string');
  return connectionStringProblemText(parsed.problem);
}

describe('an Azure SignalR connection string', () => {
  it("reads the portal's string: endpoint, key, the client endpoint the same", () => {
    expect(connection(`Endpoint=https://bench.service.signalr.net;AccessKey=${KEY};Version=1.0;`)).toEqual({
      endpoint: 'https://bench.service.signalr.net', clientEndpoint: 'https://bench.service.signalr.net', accessKey: KEY,
    });
  });

  it('takes names in any case, spaces around parts, a trailing slash, and a key that ends in =', () => {
    expect(connection(` endpoint=https://bench.service.signalr.net/ ; ACCESSKEY=${KEY} ;version=1.0`).accessKey).toBe(KEY);
  });

  it('applies Port= to the endpoint, and ClientEndpoint= for the clients only', () => {
    const c = connection(`Endpoint=http://localhost;Port=8080;AccessKey=${KEY};Version=1.0;ClientEndpoint=https://clients.example.com`);
    expect(c.endpoint).toBe('http://localhost:8080');
    expect(c.clientEndpoint).toBe('https://clients.example.com');
  });

  const bad: [string, string][] = [
    ['', 'The Azure SignalR connection string is empty.'],
    [`Endpoint=https://bench.service.signalr.net;${KEY.replace(/=+$/, '')}`, 'Part 2 of the Azure SignalR connection string is not Name=value'],
    [`Endpoint=https://bench.service.signalr.net;${KEY}`, 'Part 2 of the Azure SignalR connection string has a name this tool does not know'],
    [`Endpoint=https://bench.service.signalr.net;AccessKey=${KEY};Colour=blue`, 'Part 3 of the Azure SignalR connection string has a name this tool does not know'],
    [`Endpoint=https://bench.service.signalr.net;AccessKey=${KEY};ServerEndpoint=https://s.example`, "has a part 'ServerEndpoint' this tool does not know"],
    [`Endpoint=https://a.service.signalr.net;Endpoint=https://b.service.signalr.net;AccessKey=${KEY}`, 'gives Endpoint twice'],
    [`AccessKey=${KEY};Version=1.0`, 'has no Endpoint.'],
    [`Endpoint=bench.service.signalr.net;AccessKey=${KEY}`, "connection string's Endpoint is not an http:// or https:// address"],
    [`Endpoint=https://bench.service.signalr.net/api?x=1;AccessKey=${KEY}`, "connection string's Endpoint is not an http:// or https:// address"],
    [`Endpoint=https://bench.service.signalr.net;AccessKey=${KEY};ClientEndpoint=ftp://x`, "connection string's ClientEndpoint is not"],
    ['Endpoint=https://bench.service.signalr.net;Version=1.0', 'has no AccessKey'],
    ['Endpoint=https://bench.service.signalr.net;AuthType=azure.msi;ClientId=abc;Version=1.0', 'names an AuthType'],
    [`Endpoint=https://bench.service.signalr.net;AccessKey=${KEY};Version=2.0`, "Version is not 1.0"],
    [`Endpoint=https://bench.service.signalr.net;AccessKey=${KEY};Port=70000`, "Port is not a whole number from 1 to 65535"],
  ];

  it.each(bad)('refuses %j naming the part: %s', (text, expected) => {
    expect(refusal(text)).toContain(expected);
  });

  it('never echoes the key in any refusal, not even a part that is the key alone or a key-shaped name', () => {
    const keyLike = 'c2VjcmV0LWtleS1hcy1hLW5hbWU';
    const texts = [...bad.map(([text]) => text), `Endpoint=https://x.service.signalr.net;${keyLike}=abc;AccessKey=${KEY}`, `Endpoint=https://x.service.signalr.net;AccessKey=${KEY};${KEY}`,
      // A key pasted without its name, cut at its base64 padding: a "name" that must not be quoted.
      `Endpoint=https://x.service.signalr.net;${KEY}`];
    for (const text of texts) {
      const words = refusal(text);
      expect(words).not.toContain(KEY);
      expect(words).not.toContain(KEY.slice(0, 12));
      expect(words).not.toContain(keyLike);
    }
  });
});
