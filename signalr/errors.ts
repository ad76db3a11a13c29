/**
 * SignalR client failures sorted into the engine's failure kinds and worded for people: what
 * failed, the likely cause and the next step. By the client's own error types and status codes
 * first, its wording second.
 */
import { NEEDS_NEGOTIATION, scrubSecrets, connectingText } from '../core/run-config/index.ts';
import { connectCauseOf } from '../core/client/index.ts';
import type { ClassifiedError, ConnectionOptions } from '../workers/engine/connection.ts';
import { SIGNALR_WORDS } from './words.ts';

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
    return { kind: 'handshake', message: `${where}: ${text}${SIGNALR_WORDS.handshake({ protocol: context.protocol })}` };
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
 * authorization refusal or a busy or unreachable hub, or a body that is not negotiate JSON (an HTML page).
 */
function notAHubReason(err: Error, text: string, context: ConnectionOptions): string | null {
  const status = (err as { statusCode?: number }).statusCode ?? Number(/Status code '(\d{3})'/i.exec(text)?.[1] ?? NaN);
  if (status === 401 || status === 403) return authRefusal(status, context);
  if (status === 431) return SIGNALR_WORDS.headersTooLarge();
  // The Azure SignalR SDK answers the app's negotiate while it has no connection to the service.
  if (/Azure SignalR Service is not connected/i.test(text)) return SIGNALR_WORDS.azureNotConnected();
  // A hub that is there but says no for now, or a proxy that could not reach it, is no wrong URL.
  if (status === 429 || status === 503) return SIGNALR_WORDS.busyRefused({ status });
  if (status === 502 || status === 504) return SIGNALR_WORDS.gatewayNoHub({ status });
  if (status >= 400) return SIGNALR_WORDS.notAHubStatus({ status });
  if (/Unexpected token|not valid JSON|JSON\.parse|Unexpected end of JSON/i.test(text)) return SIGNALR_WORDS.notAHubBody();
  return null;
}

/** A 401 or 403 at negotiate, worded for what to do: with a token or without one. */
function authRefusal(status: 401 | 403, context: ConnectionOptions): string {
  const hasToken = Boolean(context.credentials?.accessToken);
  return status === 403 ? SIGNALR_WORDS.authForbidden({ hasToken }) : SIGNALR_WORDS.authRefused({ hasToken });
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
  return { sentence: SIGNALR_WORDS.negotiationNeeded({ status, needs: NEEDS_NEGOTIATION }), sure: status !== undefined };
}

/** A token accepted at negotiate, then refused on the WebSocket upgrade (Node says the status; browsers do not). */
function upgradeRefusal(text: string, context: ConnectionOptions): string | null {
  if (/Unexpected server response: 40[13]/i.test(text)) {
    return SIGNALR_WORDS.upgradeRefused();
  }
  if (context.credentials?.accessToken && context.transport !== 'LongPolling' && /WebSocket failed to connect|EventSource failed to connect/i.test(text)) {
    return SIGNALR_WORDS.transportRefused({ transport: context.transport });
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
  [/\bE[MN]FILE\b/, SIGNALR_WORDS.outOfFiles()],
  [/\bEADDRNOTAVAIL\b/, SIGNALR_WORDS.outOfPorts()],
  [/\bENOBUFS\b|\bENOMEM\b|\bEAGAIN\b/, SIGNALR_WORDS.outOfSockets()],
  [/ENOTFOUND|EAI_AGAIN|getaddrinfo|ERR_NAME_NOT_RESOLVED/i, SIGNALR_WORDS.unresolved()],
  [/certificate|self[- ]signed|CERT_|SSL|TLS/i, SIGNALR_WORDS.tlsUntrusted()],
  // A Web Worker has WorkerGlobalScope: only there can CORS be the cause, and only there is a page's origin.
  [/ECONNREFUSED|ECONNRESET|failed to fetch|fetch failed|NetworkError/i, 'WorkerGlobalScope' in globalThis
    ? SIGNALR_WORDS.corsBlocked()
    : SIGNALR_WORDS.unreachable()],
  // Negotiated with one instance, connected to another: before the transport hint, whose words it shares.
  [/No Connection with that ID/i, SIGNALR_WORDS.noStickySessions()],
  [/disabled by the (server|client)|not enabled by the server|does not support/i, SIGNALR_WORDS.transportNotOffered()],
  // A close with an error the hub named (a HubException: its backplane lost, a refusal) is not about size.
  [/closed with an error(?!.*Exception)|MaximumReceiveMessageSize|message size/i, SIGNALR_WORDS.messageTooLarge()],
];

function hintFor(text: string): string {
  const hint = HINTS.find(([pattern]) => pattern.test(text));
  return hint ? `. ${hint[1]}` : '';
}
