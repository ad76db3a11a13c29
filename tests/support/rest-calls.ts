/**
 * The REST API's calls as the integration tests make them against a hub-sample started with
 * --EnableRestApi: a POST signed by signalr/rest-tokens.ts (the runner's own signer), and a wait
 * for what a client received.
 */
import { HubConnectionBuilder, HttpTransportType, LogLevel, type HubConnection } from '@microsoft/signalr';
import { signRestToken } from '../../signalr/rest-tokens.ts';

/** POSTs `body` as JSON to `{origin}{path}` with a REST token signed by `key` for that URL. */
export async function restPost(origin: string, path: string, body: unknown, key: string): Promise<Response> {
  const url = `${origin}${path}`;
  return fetch(url, { method: 'POST', headers: { authorization: `Bearer ${await signRestToken(url, key)}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

/** Resolves once `check` holds, or after `timeoutMs` (the test's own expectation then fails). */
export async function until(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A started client of `url` with `token`, keeping what the REST sends deliver on `restMessage`. */
export async function restReceiver(url: string, token: string, transport = HttpTransportType.WebSockets): Promise<{ received: unknown[][]; connection: HubConnection }> {
  const connection = new HubConnectionBuilder().withUrl(url, { transport, accessTokenFactory: () => token }).configureLogging(LogLevel.None).build();
  const received: unknown[][] = [];
  connection.on('restMessage', (...args: unknown[]) => received.push(args));
  await connection.start();
  return { received, connection };
}
