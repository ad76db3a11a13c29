/** The SignalR client's failures worded for people: one line, a server's page summarised, never printed whole. */
import { describe, expect, it } from 'vitest';
import { classifySignalRError } from '../../signalr/errors.ts';

const context = { endpointUrl: 'http://127.0.0.1:8000/signalrbench', transport: 'WebSockets', protocol: 'json', reconnect: false } as const;
const negotiateError = (body: string) => Object.assign(new Error(`Failed to complete negotiation with the server: Error: ${body}: Status code '501'`), { errorType: 'FailedToNegotiateWithServerError' });

describe('classifySignalRError', () => {
  it('summarises an HTML page by its title, on one line, and still says it is not a hub', () => {
    const page = '<!DOCTYPE HTML>\n<html lang="en">\n  <head>\n    <title>Error response</title>\n  </head>\n  <body><p>Error code: 501</p></body>\n</html>\n';
    const { kind, message } = classifySignalRError(negotiateError(page), context);
    expect(kind).toBe('negotiate');
    expect(message).toBe(`WebSockets (json) to ${context.endpointUrl}: Failed to complete negotiation with the server: Error: an HTML page titled 'Error response': Status code '501'. This is not a SignalR hub at this URL: the server answered the negotiate request with status 501. Check the URL and the hub path (the hub-sample maps /signalrbench).`);
  });

  it('cuts a long answer short, and judges the status on the whole of it', () => {
    const { message } = classifySignalRError(negotiateError('x'.repeat(5_000)), context);
    expect(message.length).toBeLessThan(700);
    expect(message).toContain('x…');
    expect(message).toContain('answered the negotiate request with status 501');
  });

  it('keeps a JSON parser\'s complaint that quotes a page\'s first characters', () => {
    const error = new Error('Failed to complete negotiation with the server: SyntaxError: Unexpected token \'<\', "<!DOCTYPE "... is not valid JSON');
    expect(classifySignalRError(error, context).message).toMatch(/is not valid JSON\. This is not a SignalR hub at this URL: the server answered the negotiate request, but not with SignalR's negotiate JSON/);
  });

  it('a hub at a limit (503, 429) or a proxy without its hub (502, 504) is named so, not as a wrong URL', () => {
    const refused = (status: number, body: string) => Object.assign(new Error(`Failed to complete negotiation with the server: Error: ${body}: Status code '${status}'`), { errorType: 'FailedToNegotiateWithServerError', statusCode: status });
    const busy = classifySignalRError(refused(503, 'The hub is at its open-files limit (1024): raise it with ulimit -n'), context).message;
    expect(busy).toContain('open-files limit (1024)');
    expect(busy).toContain('refused the connection for now (HTTP 503): it is up but at a limit');
    expect(busy).not.toContain('not a SignalR hub');
    expect(classifySignalRError(refused(429, 'Too Many Requests'), context).message).toContain('(HTTP 429): it is up but at a limit');
    for (const status of [502, 504]) {
      const message = classifySignalRError(refused(status, 'Bad Gateway'), context).message;
      expect(message).toContain(`answered the negotiate request with HTTP ${status}: the hub behind it did not answer`);
      expect(message).not.toContain('not a SignalR hub');
    }
  });
});
