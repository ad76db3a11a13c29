/**
 * What the recorded failures say, read once: the HTTP statuses of refused connects and the stage
 * that answered them, and the failures whose words name a cause (the hub's close reason, the
 * sticky-session refusal, a certificate). The words read are the client library's and the
 * server's own, as recorded (signalr/errors.ts keeps them after its hint). Pure.
 */
import type { FailureRecord } from './evidence.ts';

/** Where a connect was answered: the negotiate request, the WebSocket upgrade, or the transport's
 *  own requests (Server-Sent Events' stream, long polling's polls). */
export type ConnectStage = 'negotiate' | 'upgrade' | 'transport';

export interface StatusCount {
  stage: ConnectStage;
  status: number;
  count: number;
}

/** Failure kinds of a connect (core/execution/worker-messages.ts ERROR_KINDS). */
export const CONNECT_KINDS: readonly string[] = ['negotiate', 'transport', 'handshake', 'connect'];

const STATUS_PATTERNS: RegExp[] = [
  // The client library's HttpError: "Unauthorized: Status code '401'".
  /[Ss]tatus code '(\d{3})'/,
  // Node's WebSocket upgrade (the ws package): "Unexpected server response: 503".
  /Unexpected server response: (\d{3})/,
  // signalr/errors.ts's own wording: "answered the negotiate request with status 404", "(HTTP 401)".
  /with status (\d{3})\b/,
  /\(HTTP (\d{3})\)/,
];

export function statusOf(message: string): number | null {
  for (const pattern of STATUS_PATTERNS) {
    const match = pattern.exec(message);
    if (match) return Number(match[1]);
  }
  return null;
}

export function stageOf(failure: FailureRecord): ConnectStage {
  if (failure.kind === 'negotiate' || /Failed to complete negotiation|the negotiate request/i.test(failure.message)) return 'negotiate';
  if (/WebSocket|Unexpected server response/i.test(failure.message)) return 'upgrade';
  return 'transport';
}

/** Failed connects that quote an HTTP status, by stage and status, most first. */
export function connectStatuses(failures: readonly FailureRecord[]): StatusCount[] {
  const counts = new Map<string, StatusCount>();
  for (const failure of failures) {
    if (!CONNECT_KINDS.includes(failure.kind)) continue;
    const status = statusOf(failure.message);
    if (status === null) continue;
    const stage = stageOf(failure);
    const key = `${stage} ${status}`;
    const entry = counts.get(key) ?? { stage, status, count: 0 };
    entry.count += failure.count;
    counts.set(key, entry);
  }
  return [...counts.values()].sort((a, b) => b.count - a.count);
}

/** The failures whose words match, with their count. */
export function matching(failures: readonly FailureRecord[], pattern: RegExp, kinds?: readonly string[]): { count: number; first: FailureRecord | null } {
  const found = failures.filter((f) => (!kinds || kinds.includes(f.kind)) && pattern.test(f.message));
  return { count: found.reduce((sum, f) => sum + f.count, 0), first: found[0] ?? null };
}

/** The hub's own words in a failure: after "HubException: ", or a close reason the server gave. */
export function hubWords(message: string): string {
  const exception = /HubException: (.*)$/.exec(message)?.[1];
  const closed = /Server returned an error on close: (.*)$/.exec(message)?.[1];
  const words = exception ?? closed ?? message;
  // The engine's own advice follows the hub's words (workers/engine/scenario-runner.ts): cut it.
  return words.split(/\.\s+(?=This tool needs|The hub profile|With negotiation skipped|Otherwise:)/)[0]!.replace(/\.+\s*$/, '').trim();
}

/** The method a refusal names: "did not accept Echo(…)", or the client's "invoking 'Echo'". */
export function methodOf(message: string): string | undefined {
  return /did not accept (\w+)\(/.exec(message)?.[1] ?? /'(\w+)'/.exec(message)?.[1];
}

/** A REST API send's failure as the engine words it (core/serverless words.ts): the URL, then
 *  the status it answered, or no answer. */
export const REST_CALL_WORDS = /^REST API POST (\S+) (?:answered (\d{3})|got no answer)/;

/** Words of a hub that lost its backplane (hub-sample's close reason and hub errors; Redis's own exception names). */
export const BACKPLANE_WORDS = /backplane unavailable|RedisConnectionException|RedisTimeoutException|No connection is (active|available) to service this operation/i;
/** A connect whose connection id the instance does not know: negotiated on one instance, connected on another. */
export const NOT_STICKY_WORDS = /No Connection with that ID/i;
/** A certificate the client does not trust. */
export const TLS_WORDS = /certificate|self[- ]signed|CERT_|UNABLE_TO_VERIFY|ERR_TLS/i;
/** A host name that does not resolve. */
export const UNRESOLVED_WORDS = /ENOTFOUND|EAI_AGAIN|getaddrinfo|ERR_NAME_NOT_RESOLVED/i;
/** A browser's fetch that failed with no status: nothing answered, or CORS refused the page. */
export const BROWSER_FETCH_WORDS = /Failed to fetch|NetworkError when attempting to fetch/i;
/** ASP.NET Core's words for a message over its MaximumReceiveMessageSize (with detailed errors on). */
export const TOO_LARGE_WORDS = /maximum message size of/i;
/** A close the hub sent naming no exception: what it sends, detailed errors off, for a message it
 *  cannot read (one too large) and for an exception of its own alike. */
export const BARE_CLOSE_WORDS = /Connection closed with an error\.(?!\s*\w*Exception)/i;
/** SignalR's default MaximumReceiveMessageSize, bytes: a bare close over it is most likely the size. */
export const DEFAULT_MAX_RECEIVE_BYTES = 32_768;
/** The hub has no such method (the wrong hub, or the profile names another method). */
export const MISSING_METHOD_WORDS = /Method does not exist|not a method|method .* was not found/i;
/** A connection the client closed because the hub sent nothing for its server timeout (a frozen hub). */
export const SERVER_TIMEOUT_WORDS = /Server timeout elapsed|serverTimeout/i;

/** A browser's negotiate fetch failed with no status: nothing answered, or CORS refused the page. */
export function browserFetchFailed(failures: readonly FailureRecord[]): boolean {
  return matching(failures, BROWSER_FETCH_WORDS).count > 0;
}
/** A close the hub itself sent with an error (it was alive to send it): never a crash. */
export const HUB_CLOSE_WORDS = /Server returned an error on close|Connection closed with an error/i;
