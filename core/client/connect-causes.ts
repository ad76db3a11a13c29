/**
 * Why a connection failed to open, by cause, and which side each cause belongs to. Pure.
 *
 * The engine counts every failed connect by cause (workers/engine/worker-stats.ts), so a run and
 * a capacity step can tell a service that refused connections from a client that ran out of its
 * own resources: file descriptors (EMFILE per process, ENFILE for the whole system), ephemeral
 * ports (EADDRNOTAVAIL: about 28,000 per destination on Linux's default range), socket buffers
 * (ENOBUFS, ENOMEM) or a full local queue (EAGAIN), or a browser that held the connection in its
 * own queue until it timed out. Those are the client's limits, never the service's. So is a connect
 * that timed out while the client's own event loop was stalled for much of its time limit: the
 * hub's answer may have come in time and sat unread (timeOutCause).
 */
import { formatCount } from '../format.ts';
import { CLIENT_WORDS } from './words.ts';

/** errno codes of a client out of its own resources. */
export const CLIENT_ERRNOS = ['EMFILE', 'ENFILE', 'EADDRNOTAVAIL', 'ENOBUFS', 'ENOMEM', 'EAGAIN'] as const;

/**
 * - the client's errno codes above, and `browserQueue` (a browser held the connection in its
 *   queue past the connect time limit: Server-Sent Events and long polling share 6 per origin),
 *   and `clientStarved` (no answer within the connect time limit while the client's own event
 *   loop was stalled for more than STARVED_SHARE of it: timeOutCause);
 * - the client's settings: `negotiationSkipped` (the hub refused the WebSocket a client opened
 *   without negotiate: it needs negotiation, and the run asked to skip it);
 * - the service's: `refused` (ECONNREFUSED), `reset` (ECONNRESET, EPIPE), `timedOut` (no answer in
 *   the connect time limit, ETIMEDOUT), `stoppedAnswering` (not tried, or given up in flight, once
 *   the hub had answered no connect for a whole connect time limit: workers/engine/connection-pool.ts), `unreachable` (EHOSTUNREACH, ENETUNREACH), `httpStatus`
 *   (the server answered negotiate, or Node's WebSocket upgrade, with an error status: 5xx, 408 or 429);
 * - `addressRefused`: the server answered negotiate 4xx otherwise (404: no hub at that path, 401
 *   or 403: it wants a token): a wrong address or missing credentials, which say nothing about
 *   load, so a step whose every connect failed this way measured nothing;
 * - `other`: nothing in the error says which side it was.
 */
export const CONNECT_CAUSES = [...CLIENT_ERRNOS, 'browserQueue', 'clientStarved', 'negotiationSkipped', 'refused', 'reset', 'timedOut', 'stoppedAnswering', 'unreachable', 'httpStatus', 'addressRefused', 'other'] as const;
export type ConnectCause = (typeof CONNECT_CAUSES)[number];

/** Failed connects by cause; absent causes are 0 (and runs kept before causes were counted have none). */
export type ConnectCauseCounts = Partial<Record<ConnectCause, number>>;

export type CauseSide = 'client' | 'service' | 'unknown';

export function sideOfCause(cause: ConnectCause): CauseSide {
  if ((CLIENT_ERRNOS as readonly string[]).includes(cause) || cause === 'browserQueue' || cause === 'clientStarved' || cause === 'negotiationSkipped') return 'client';
  return cause === 'other' || cause === 'addressRefused' ? 'unknown' : 'service';
}

/**
 * A connect time-out is the client's when its own event loop was stalled for more than this share
 * of the time limit while it waited: an answer that came in time may have sat unread that long,
 * so the time-out says nothing of the hub. Below it, the hub had most of the limit to answer.
 */
export const STARVED_SHARE = 0.5;

/** The cause of a connect that got no answer within `limitMs`, given how long the client's own
 *  event loop was stalled meanwhile (ms): `clientStarved` past STARVED_SHARE of it, else `timedOut`. */
export function timeOutCause(stalledMs: number, limitMs: number): 'clientStarved' | 'timedOut' {
  return stalledMs > limitMs * STARVED_SHARE ? 'clientStarved' : 'timedOut';
}

const SERVICE_PATTERNS: [RegExp, ConnectCause][] = [
  // Worded by signalr/errors.ts from the run's setting (core/run-config/skip-negotiation.ts NEEDS_NEGOTIATION).
  [/this hub needs negotiation/, 'negotiationSkipped'],
  [/ECONNREFUSED/, 'refused'],
  [/ECONNRESET|EPIPE|socket hang up/i, 'reset'],
  [/ETIMEDOUT/, 'timedOut'],
  [/EHOSTUNREACH|ENETUNREACH/, 'unreachable'],
  [/[Ss]tatus code '4(?!08|29)\d\d'|status 4(?!08|29)\d\d\b|Unexpected server response: 40[13]\b/, 'addressRefused'],
  [/[Ss]tatus code '\d{3}'|status \d{3}\b/, 'httpStatus'],
  // Node's WebSocket upgrade answered with a busy or failing server's status (the ws package's words).
  [/Unexpected server response: (5\d\d|408|429)\b/, 'httpStatus'],
];

/** The cause a failure's wording names: a client errno first (it is the more specific), else the service's, else `other`. */
export function connectCauseOf(text: string): ConnectCause {
  const errno = CLIENT_ERRNOS.find((code) => new RegExp(`\\b${code}\\b`).test(text));
  if (errno) return errno;
  return SERVICE_PATTERNS.find(([pattern]) => pattern.test(text))?.[1] ?? 'other';
}

export function addCauses(into: ConnectCauseCounts, delta: ConnectCauseCounts | undefined): ConnectCauseCounts {
  for (const [cause, count] of Object.entries(delta ?? {}) as [ConnectCause, number][]) into[cause] = (into[cause] ?? 0) + count;
  return into;
}

/** Failed connects whose cause belongs to `side`. */
export function failuresOfSide(counts: ConnectCauseCounts | undefined, side: CauseSide): number {
  return (Object.entries(counts ?? {}) as [ConnectCause, number][]).filter(([cause]) => sideOfCause(cause) === side).reduce((sum, [, n]) => sum + n, 0);
}

/** Each cause in words (the catalog's), checked here to name every cause. */
const CAUSE_WORDS: Record<ConnectCause, string> = CLIENT_WORDS.connectCauses({ starvedPercent: STARVED_SHARE * 100 });

/** "27 failed to open (19 EMFILE: this process ran out of file descriptors, 8 ...)", for the causes of `side` (all when omitted). */
export function causesText(counts: ConnectCauseCounts | undefined, side?: CauseSide): string {
  const parts = (Object.entries(counts ?? {}) as [ConnectCause, number][])
    .filter(([cause, n]) => n > 0 && (side === undefined || sideOfCause(cause) === side))
    .sort((a, b) => b[1] - a[1])
    .map(([cause, n]) => `${formatCount(n)} ${CAUSE_WORDS[cause]}`);
  return parts.join(', ');
}
