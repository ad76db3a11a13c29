/**
 * SignalR client failures sorted into the engine's failure kinds and worded for people: what
 * failed, the likely cause and the next step. By the client's own error types and status codes
 * first, its wording second.
 */
import { NEEDS_NEGOTIATION, scrubSecrets, connectingText } from '../core/run/index.ts';
import { connectCauseOf } from '../core/client/index.ts';
import type { ClassifiedError, ConnectionOptions } from '../workers/engine/connection.ts';

/** Sorts a SignalR client error into a failure kind and says it with the transport and endpoint. */
export function classifySignalRError(error: unknown, context: ConnectionOptions): ClassifiedError {
  const classified = classify(error, context);
  // The cause by side (the client's errno codes, the service's refusals): read from the error's
  // whole wording, the transport's own error included (see bench-connection.ts), which the
  // message may have cut short (the WebSocket's long sentence comes before the socket's errno).
  const whole = error instanceof Error ? error.message : String(error);
  return { ...classified, cause: classified.cause ?? connectCauseOf(`${classified.message} ${whole}`) };
}

function classify(error: unknown, context: ConnectionOptions): ClassifiedError {
  const err = error instanceof Error ? error : new Error(String(error));
  const type = (err as { errorType?: string }).errorType ?? err.name;
  // Secrets first: the client puts access_token in WebSocket and SSE URLs, and errors quote URLs.
  const raw = scrubSecrets(err.message || String(error), context.credentials);
  const text = withSocketWords(oneLine(raw), raw);
  const where = `${connectingText(context)} to ${context.endpointUrl}`;
  const needsNegotiation = negotiationNeeded(raw, context);
  if (needsNegotiation) return { kind: 'transport', message: `${where}: ${needsNegotiation.sentence}`, ...(needsNegotiation.sure ? {} : { cause: 'other' as const }) };
  if (type === 'FailedToNegotiateWithServerError' || /negotiat/i.test(text)) {
    // Judged on the whole message: the quoted one may be cut short.
    const notAHub = notAHubReason(err, raw, context);
    return { kind: 'negotiate', message: `${where}: ${text}${notAHub ? `. ${notAHub}` : hintFor(text)}` };
  }
  if (/handshake/i.test(text)) {
    return { kind: 'handshake', message: `${where}: ${text}. Check that the hub accepts the ${context.protocol} protocol.` };
  }
  if (
    ['FailedToStartTransportError', 'DisabledTransportError', 'UnsupportedTransportError'].includes(type) ||
    // AggregateErrors carries no errorType: recognise its wording.
    /with any of the available transports/.test(text)
  ) {
    return { kind: 'transport', message: `${where}: ${text}${upgradeRefusal(text, context) ?? hintFor(text)}` };
  }
  return { kind: 'connect', message: `${where}: ${text}${hintFor(text)}` };
}

/**
 * Why a negotiate answer shows there is no SignalR hub at the URL, or null: an HTTP error status
 * (the client's HttpError.statusCode, or the status its negotiate error quotes) other than an
 * authorization refusal, or a body that is not negotiate JSON (an HTML page).
 */
function notAHubReason(err: Error, text: string, context: ConnectionOptions): string | null {
  const status = (err as { statusCode?: number }).statusCode ?? Number(/Status code '(\d{3})'/i.exec(text)?.[1] ?? NaN);
  const hint = 'Check the URL and the hub path (the hub-sample maps /signalrbench).';
  if (status === 401 || status === 403) return authRefusal(status, context);
  if (status === 431) return 'The server refused the request\'s headers as too large (431): send a shorter token, or fewer and shorter headers and query parameters.';
  // The Azure SignalR SDK answers the app's negotiate while it has no connection to the service.
  if (/Azure SignalR Service is not connected/i.test(text)) return 'The app runs its hubs through Azure SignalR Service and is not connected to the service: check the app\'s connection string (Endpoint, AccessKey), that the service instance is running, and the app\'s log.';
  if (status >= 400) return `This is not a SignalR hub at this URL: the server answered the negotiate request with status ${status}. ${hint}`;
  if (/Unexpected token|not valid JSON|JSON\.parse|Unexpected end of JSON/i.test(text)) return `This is not a SignalR hub at this URL: the server answered the negotiate request, but not with SignalR's negotiate JSON (an HTML page?). ${hint}`;
  return null;
}

/** Where a person gives a token, in the runner and in the dashboard. */
const WHERE_TOKENS = 'the runner\'s --access-token-file <file> (or --access-token-env <VAR>), or the dashboard\'s Advanced → Authentication';

/** A 401 or 403 at negotiate, worded for what to do: with a token or without one. */
function authRefusal(status: 401 | 403, context: ConnectionOptions): string {
  const hasToken = Boolean(context.credentials?.accessToken);
  if (status === 403) {
    return hasToken
      ? 'The hub refused this client (403 at negotiate): the token was accepted, but its user may not use this hub, or the hub refuses this origin. Check the user\'s rights and the hub\'s allowed origins.'
      : 'The hub refused this client (403 at negotiate): it may need a token whose user has the right, or refuse this origin (or an API gateway wants a header or key). Give a token with ' + WHERE_TOKENS + ', a header with --header, or check the hub\'s allowed origins.';
  }
  return hasToken
    ? 'The hub refused the access token (401 at negotiate): it is expired, wrong, or for another hub or audience (during a run: it expired, and the reconnect was refused). Give a fresh token.'
    : `The hub needs authentication (401 at negotiate) and no access token was given. Give one with ${WHERE_TOKENS}; a gateway's key goes in --header or --query.`;
}

/**
 * A hub that refused the WebSocket a client opened without negotiate, worded first (the client's
 * own text is long and gets cut): an app server that only answers negotiate (Azure SignalR
 * Service's) or routes WebSockets by the negotiate's connection token answers the upgrade with an
 * HTTP status; the client then says "WebSocket failed to connect" and, in Node, the socket says
 * "Unexpected server response: 404". 401 and 403 are a token's refusal (upgradeRefusal); 5xx, 408
 * and 429 are a busy or failing server's answer, the service's (core/client/connect-causes.ts);
 * errnos and a hung-up socket are the network's. A browser says no status, nor an errno: its
 * failure is said as this, if the hub is running, but `sure` is false: a hub too busy to take the
 * upgrade fails the same way, so the side stays unknown rather than the client's setting.
 */
function negotiationNeeded(text: string, context: ConnectionOptions): { sentence: string; sure: boolean } | null {
  if (!context.skipNegotiation || !/WebSocket failed to connect|Unexpected server response/i.test(text)) return null;
  if (/Unexpected server response: (40[13]|408|429|5\d\d)\b/i.test(text) || /\bE(CONN|ADDR|HOST|NET|M?FILE|NFILE|NOBUFS|NOMEM|AGAIN|TIMEDOUT|PIPE|NOTFOUND|AI_)/.test(text) || /socket hang up/i.test(text)) return null;
  const status = /Unexpected server response: (\d{3})/i.exec(text)?.[1];
  const refused = status ? `the hub refused the WebSocket opened without negotiate (HTTP ${status}): ` : 'the WebSocket opened without negotiate failed, and a browser does not say why: if the hub is running, ';
  return { sentence: `${refused}${NEEDS_NEGOTIATION}. Azure SignalR Service, and a hub behind a proxy that routes by the negotiate's connection token, cannot be reached without it.`, sure: status !== undefined };
}

/** A token accepted at negotiate, then refused on the WebSocket upgrade (Node says the status; browsers do not). */
function upgradeRefusal(text: string, context: ConnectionOptions): string | null {
  if (/Unexpected server response: 40[13]/i.test(text)) {
    return '. The hub refused the WebSocket upgrade with 401/403 after negotiate accepted the client: the token may have expired just then, or the hub reads the token from the header on negotiate but not from access_token on the upgrade (see JwtBearerEvents.OnMessageReceived).';
  }
  if (context.credentials?.accessToken && context.transport !== 'LongPolling' && /WebSocket failed to connect|EventSource failed to connect/i.test(text)) {
    return `. Negotiate accepted this client, then the ${context.transport} connection was refused: a hub that checks the token there may have refused it (expired just then, or read only from the Authorization header). A browser sends it as access_token in the URL on WebSockets and Server-Sent Events, and the hub must accept it there (JwtBearerEvents.OnMessageReceived).`;
  }
  return null;
}

/** The hub's own words of a failed invocation, without the client's preamble ("An unexpected error
 *  occurred invoking 'JoinSession' on the server. HubException: …"). */
export function hubExceptionText(message: string): string {
  return message.replace(/^.*HubException: /, '');
}

/** Whether a hub refused an invocation because it has no such method (the wrong hub, most often). */
export function isMissingHubMethod(message: string): boolean {
  return /Method does not exist/i.test(message);
}

/**
 * The socket's own words (bench-connection.ts adds them last: "(the socket said: Unexpected server
 * response: 401)") kept when the cut dropped them: the status or the errno is the evidence the
 * diagnosis names a cause from (core/diagnosis), and the client's long sentence comes first.
 */
function withSocketWords(text: string, raw: string): string {
  const said = /\(the socket said: ([^)]*)\)/.exec(raw)?.[1];
  return said && !text.includes(said) ? `${text} (the socket said: ${said})` : text;
}

/** Most characters of a server's answer quoted in a message. */
const QUOTED_CHARS = 300;

/**
 * The client's message on one line: an HTML page the server answered with (python's
 * http.server, a proxy's error page) summarised by its title instead of printed whole, any
 * other long answer cut short.
 */
function oneLine(text: string): string {
  const start = text.search(/<!doctype html|<html/i);
  const close = text.toLowerCase().lastIndexOf('</html>');
  // A whole page only: a JSON parser's complaint quotes a page's first characters, and keeps its diagnosis after them.
  if (start >= 0 && close > start) {
    const end = close + '</html>'.length;
    const title = /<title>([^<]*)<\/title>/i.exec(text.slice(start, end))?.[1]?.trim();
    text = `${text.slice(0, start)}an HTML page${title ? ` titled '${title.slice(0, 80)}'` : ''}${text.slice(end)}`;
  }
  const flat = text.replace(/\s*[\r\n]+\s*/g, ' ').replace(/ :/g, ':');
  return flat.length > QUOTED_CHARS ? `${flat.slice(0, QUOTED_CHARS)}…` : flat;
}

/** The likely cause and the next step, for the failures people meet most. */
const HINTS: [RegExp, string][] = [
  // The client's own limits first: "fetch failed" with EMFILE is not a hub that accepted nothing.
  [/\bE[MN]FILE\b/, 'This client ran out of file descriptors, not the hub: raise the limit (ulimit -n 65535) or spread the connections over more agents.'],
  [/\bEADDRNOTAVAIL\b/, 'This client ran out of ephemeral ports for this destination (about 28,000 on Linux\'s default range), not the hub: widen net.ipv4.ip_local_port_range or spread the connections over more agents.'],
  [/\bENOBUFS\b|\bENOMEM\b|\bEAGAIN\b/, 'This client\'s system ran out of socket resources, not the hub: open fewer connections per machine or add agents.'],
  [/ENOTFOUND|EAI_AGAIN|getaddrinfo|ERR_NAME_NOT_RESOLVED/i, 'The host name does not resolve: check its spelling, or use an IP address.'],
  [/certificate|self[- ]signed|CERT_|SSL|TLS/i, 'The server\'s TLS certificate is not trusted (self-signed, expired or for another name): trust it, or use http:// for a local hub.'],
  // A Web Worker has WorkerGlobalScope: only there can CORS be the cause, and only there is a page's origin.
  [/ECONNREFUSED|ECONNRESET|failed to fetch|fetch failed|NetworkError/i, 'WorkerGlobalScope' in globalThis
    ? 'Nothing accepted the connection, or CORS blocked it: check the URL, that the hub is running, and that it allows this page\'s origin.'
    : 'Nothing accepted the connection: check the URL and that the hub is running.'],
  // Negotiated with one instance, connected to another: before the transport hint, whose words it shares.
  [/No Connection with that ID/i, 'The connection was negotiated with one hub instance and reached another: a load balancer without sticky sessions. Turn on session affinity, use WebSockets with skip negotiation, or list each instance as its own endpoint.'],
  [/disabled by the (server|client)|not enabled by the server|does not support/i, 'The hub does not offer this transport with this protocol: choose another transport, or enable it on the hub.'],
  // A close with an error the hub named (a HubException: its backplane lost, a refusal) is not about size.
  [/closed with an error(?!.*Exception)|MaximumReceiveMessageSize|message size/i, 'A hub closes a connection that sends a message larger than its limit (SignalR\'s MaximumReceiveMessageSize, 32 KB unless raised) or that breaks the protocol: lower the message size or raise the hub\'s limit.'],
];

function hintFor(text: string): string {
  const hint = HINTS.find(([pattern]) => pattern.test(text));
  return hint ? `. ${hint[1]}` : '';
}
