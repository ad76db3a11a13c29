/** The SignalR client's HTTP client, with the reason a request failed kept in its message. */
import { DefaultHttpClient, type HttpRequest, type HttpResponse } from '@microsoft/signalr';

/**
 * Node's fetch fails with just "fetch failed" and keeps the reason (ENOTFOUND, a self-signed
 * certificate, ECONNREFUSED) in `cause`, which the SignalR client drops when it rewords the
 * error: put the reason into the message while it is still there. Browsers give no reason.
 */
export class ExplainingHttpClient extends DefaultHttpClient {
  override async send(request: HttpRequest): Promise<HttpResponse> {
    try {
      return await super.send(request);
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      if (error instanceof Error && cause) error.message = `${error.message} (${[cause.code, cause.message].filter(Boolean).join(': ')})`;
      throw error;
    }
  }
}
