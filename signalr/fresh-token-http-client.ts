/**
 * Fresh tokens on every request. The client library asks accessTokenFactory for a token at
 * negotiate and at each (re)connect, but its HTTP client keeps the token it got for the requests
 * that follow (long polling's polls and sends, Server-Sent Events' sends), asking again only on a
 * 401, which its fetch client throws before it can. A run whose tokens are refreshed
 * (--access-token-command, core/run-config/access-token.ts) would so send an expired one. Here each
 * request that carries one of the run's earlier tokens carries the current one instead; a token
 * the run never gave (an Azure-style negotiate redirect's own) is left alone.
 */
import type { HttpRequest, HttpResponse, ILogger } from '@microsoft/signalr';
import { ExplainingHttpClient } from './explaining-http-client.ts';

export class FreshTokenHttpClient extends ExplainingHttpClient {
  /** Tokens this connection handed out: only those are replaced. One per refresh of the run. */
  readonly #given = new Set<string>();

  constructor(logger: ILogger, private readonly current: () => string | null) {
    super(logger);
  }

  /** The connection's accessTokenFactory: the run's current token, remembered as the run's. */
  readonly factory = (): string => {
    const token = this.current() ?? '';
    this.#given.add(token);
    return token;
  };

  override send(request: HttpRequest): Promise<HttpResponse> {
    const held = /^Bearer (.+)$/.exec(request.headers?.Authorization ?? '')?.[1];
    const now = this.current();
    if (held !== undefined && now && held !== now && this.#given.has(held)) {
      this.#given.add(now);
      request.headers = { ...request.headers, Authorization: `Bearer ${now}` };
    }
    return super.send(request);
  }
}
