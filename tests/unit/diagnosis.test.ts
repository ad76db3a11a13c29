/**
 * The one diagnosis: from a run's evidence to one cause, its side, its sentence and what to do.
 * Table-driven over evidence shaped as the engine records it (the failure texts are those the
 * runner recorded against real faults: a closed port, a killed and a frozen hub, a hub without
 * the methods, a proxy's refusals), including `unknown` where the evidence does not decide.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CAUSE_IDS, CAUSES, diagnose, diagnosisLines, connectStatuses, docsAnchorOf, type RunEvidence, type CauseId } from '../../core/diagnosis/index.ts';
import { REPO_ROOT } from '../support/hub-process.ts';
import { silentSecondsAtEnd } from '../../core/result/run-evidence.ts';

const URL = 'http://127.0.0.1:6400/signalrbench';

function evidence(overrides: Partial<RunEvidence> = {}, settings: Partial<RunEvidence['settings']> = {}): RunEvidence {
  return {
    outcome: { kind: 'finished' },
    verdict: 'fail',
    planned: 1_000,
    lost: 0,
    notSent: 0,
    late: 0,
    connections: 20,
    connectionsOpened: 20,
    connectionsFailed: 0,
    disconnects: 0,
    reconnects: 0,
    sent: 1_000,
    received: 1_000,
    unsolicited: 0,
    connectCauses: {},
    failures: [],
    silentSecondsAtEnd: 0,
    workersLost: { client: 0, service: 0, unknown: 0 },
    stoppedAnsweringConnects: 0,
    client: { keptSchedule: true, limits: [] },
    server: null,
    limit: { side: 'unknown', sentence: 'The client kept its schedule; the server\'s load is unknown.' },
    originAnswered: null,
    health: [],
    instances: [],
    ...overrides,
    settings: { endpointUrl: URL, transport: 'WebSockets', sendIntervalMs: 1_000, messageBytes: 2_048, skipNegotiation: false, hasToken: false, reconnect: false, plannedDrop: false, receiveMethod: null, sameInstance: null, browser: false, ...settings },
  };
}

const BARE_CLOSE = `Connection closed during the run: WebSockets (json) to ${URL}: Server returned an error on close: Connection closed with an error.. A hub closes a connection that sends a message larger than its limit (SignalR's MaximumReceiveMessageSize, 32 KB unless raised) or that breaks the protocol: lower the message size or raise the hub's limit.`;

const closedPort = evidence({
  outcome: { kind: 'failed', code: 'noConnection', reason: 'no connection could be opened.' },
  planned: 0, connectionsOpened: 0, connectionsFailed: 20, received: 0, sent: 0,
  connectCauses: { refused: 20 },
  failures: [{ kind: 'negotiate', count: 20, message: `WebSockets (json) to ${URL}: Failed to complete negotiation with the server: TypeError: fetch failed (ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:6400).` }],
});

/** A ramp of 3,000 against a hub frozen after 348 opened, as the runner recorded it. */
function frozenInRamp(overrides: Partial<RunEvidence> = {}): RunEvidence {
  return evidence({
    planned: 15_000, lost: 1_740, notSent: 13_260, connections: 3_000, connectionsOpened: 348, connectionsFailed: 2_652, sent: 1_740, received: 0,
    stoppedAnsweringConnects: 2_644, connectCauses: { stoppedAnswering: 2_644, timedOut: 8 },
    health: [{ url: 'http://127.0.0.1:6400/healthz', status: null, text: 'no answer in 2 s' }],
    limit: { side: 'server', sentence: 'The server stopped answering connects mid-ramp (2,644 connections not opened for it) while the client kept its schedule: the service is the limit.' },
    ...overrides,
  });
}

interface Case {
  name: string;
  evidence: RunEvidence;
  cause: CauseId;
  /** Words the sentence must carry: the specific figure or the hub's own words. */
  says?: RegExp;
}

const CASES: Case[] = [
  { name: 'a pass', evidence: evidence({ verdict: 'pass' }), cause: 'held' },
  { name: 'a closed port', evidence: closedPort, cause: 'unreachable', says: /Nothing accepted the connection at http:\/\/127\.0\.0\.1:6400/ },
  {
    name: 'a port the client refuses outright (Node\'s fetch: bad port)',
    evidence: evidence({ outcome: { kind: 'failed', code: 'noConnection' }, planned: 0, connectionsOpened: 0, connectionsFailed: 20, received: 0, connectCauses: { other: 20 }, failures: [{ kind: 'negotiate', count: 20, message: 'http://127.0.0.1:1/signalrbench: Failed to complete negotiation with the server: TypeError: fetch failed (bad port)' }] }),
    cause: 'unreachable', says: /refuses this port outright/,
  },
  {
    name: 'no connect answered at all (a host that drops them, or a hub stalled from the start)',
    evidence: evidence({ outcome: { kind: 'failed', code: 'noConnection' }, planned: 0, connectionsOpened: 0, connectionsFailed: 20, received: 0, connectCauses: { timedOut: 8, stoppedAnswering: 12 } }),
    cause: 'unreachable', says: /no connect was answered within the connect time limit/,
  },
  {
    name: 'a hub killed mid-run, Reconnect off',
    evidence: evidence({
      outcome: { kind: 'failed', code: 'allClosed', reason: 'every connection was closed by 5 s and Reconnect is off' },
      disconnects: 20, notSent: 500, received: 400,
      failures: [{ kind: 'closed', count: 20, message: `Connection closed during the run: WebSockets (json) to ${URL}: WebSocket closed with status code: 1006 (no reason given).` }],
    }),
    cause: 'hubCrashed', says: /20 connections closed abruptly and none came back/,
  },
  {
    name: 'a hub killed mid-run, Reconnect on (nothing comes back)',
    evidence: evidence({
      disconnects: 20, notSent: 134, received: 106, silentSecondsAtEnd: 7,
      failures: [{ kind: 'send', count: 134, message: 'Echo not sent: the connection was reconnecting.' }, { kind: 'closed', count: 20, message: `Connection lost during the run, reconnecting: WebSockets (json) to ${URL}: WebSocket closed with status code: 1006 (no reason given).` }],
      server: { answered: 6, unansweredAfterAnswers: 9, peakCpuPercent: 3, restarted: false, backplaneDown: false },
    }, { reconnect: true }),
    cause: 'hubCrashed',
  },
  {
    name: 'a hub killed and restarted mid-run, Reconnect on, no metrics: every connection closed abruptly at once and came back',
    evidence: evidence({
      disconnects: 20, reconnects: 20, notSent: 165, lost: 1,
      failures: [{ kind: 'send', count: 165, message: 'Echo not sent: the connection was reconnecting.' }, { kind: 'closed', count: 20, message: `Connection lost during the run, reconnecting: WebSockets (json) to ${URL}: WebSocket closed with status code: 1006 (no reason given).` }],
    }, { reconnect: true }),
    cause: 'hubCrashed', says: /20 connections closed abruptly and 20 came back/,
  },
  {
    name: 'a few connections closed abruptly that came back are no hub gone',
    evidence: evidence({
      disconnects: 3, reconnects: 3, lost: 4,
      failures: [{ kind: 'closed', count: 3, message: `Connection lost during the run, reconnecting: WebSockets (json) to ${URL}: WebSocket closed with status code: 1006 (no reason given).` }],
    }, { reconnect: true }),
    cause: 'unknown',
  },
  {
    name: 'a hub restarted mid-run (its counters went down)',
    evidence: evidence({ lost: 40, disconnects: 20, reconnects: 20, server: { answered: 10, unansweredAfterAnswers: 2, peakCpuPercent: 5, restarted: true, backplaneDown: false } }, { reconnect: true }),
    cause: 'hubCrashed', says: /restarted during the run/,
  },
  {
    name: 'a hub frozen mid-run (SIGSTOP): open connections, nothing back, metrics unanswered',
    evidence: evidence({ lost: 184, received: 96, silentSecondsAtEnd: 9, server: { answered: 6, unansweredAfterAnswers: 8, peakCpuPercent: 4, restarted: false, backplaneDown: false } }),
    cause: 'hubStalled', says: /stopped answering mid-run \(none of the messages of its last 9 seconds of sending ever arrived\)/,
  },
  {
    name: 'a hub frozen past the client\'s server timeout',
    evidence: evidence({ lost: 600, disconnects: 20, failures: [{ kind: 'closed', count: 20, message: 'Connection closed during the run: Server timeout elapsed without receiving a message from the server.' }] }),
    cause: 'hubStalled', says: /server timeout/,
  },
  {
    // The runner against the hub-sample SIGSTOPped 1.2 s into a ramp of 3,000 (issue 44's fault tries).
    name: 'a hub frozen during the ramp: connects unanswered, nothing back on those it opened, its /healthz silent',
    evidence: frozenInRamp(),
    cause: 'hubStalled', says: /stopped answering mid-run: it stopped answering connects, nothing came back on the connections it had opened, and its \/healthz did not answer\. A frozen hub is not a capacity\./,
  },
  {
    name: 'connects unanswered mid-ramp, but its /healthz answered: a hub at its load, not a frozen one',
    evidence: frozenInRamp({ health: [{ url: 'http://127.0.0.1:6400/healthz', status: 200, text: 'Healthy' }] }),
    cause: 'load', says: /stopped answering connects mid-ramp/,
  },
  {
    name: 'connects unanswered mid-ramp and /healthz silent, but messages came back: a hub at its load',
    evidence: frozenInRamp({ received: 900, lost: 840 }),
    cause: 'load', says: /stopped answering connects mid-ramp/,
  },
  {
    name: 'a silent end shorter than three send intervals is not a stall',
    evidence: evidence({ lost: 10, silentSecondsAtEnd: 4 }, { sendIntervalMs: 2_000 }),
    cause: 'load',
  },
  {
    name: 'a hub without the methods',
    evidence: evidence({
      outcome: { kind: 'failed', code: 'hubRefused', reason: `The hub at http://127.0.0.1:6391/emptyhub did not accept Echo(…): Failed to invoke 'Echo' due to an error on the server. HubException: Method does not exist. This tool needs the benchmark contract (Echo, …).` },
      planned: 0, received: 0,
    }),
    cause: 'hubMethodRefused', says: /the method Echo: "Method does not exist"\.$/,
  },
  {
    name: 'a profile whose receive method is never called',
    evidence: evidence({ outcome: { kind: 'failed', code: 'neverCalled', reason: 'the hub never called ReceiveMessage: 50 messages were sent and none came back on it.' }, received: 0, sent: 50, lost: 50 }, { receiveMethod: 'ReceiveMessage' }),
    cause: 'profileMismatch', says: /never called ReceiveMessage: 50 messages were sent/,
  },
  {
    name: 'a profile whose receive method is called, never with the run\'s text where it reads',
    evidence: evidence({
      outcome: {
        kind: 'failed', code: 'textNotFound',
        reason: 'ReceiveMessage was called 411 times, never with this run\'s text in argument 0; the first call carried "bench-3"; it is in argument 1: set receive.arg to 1.',
        textNotFound: { method: 'ReceiveMessage', calls: 411, place: 0, sample: 'bench-3', foundAt: 1 },
      },
      received: 0, sent: 50, lost: 50, unsolicited: 411,
    }, { receiveMethod: 'ReceiveMessage' }),
    cause: 'textNotFound', says: /^ReceiveMessage was called 411 times, never with this run's text in argument 0; the first call carried "bench-3"; it is in argument 1: set receive\.arg to 1\.$/,
  },
  {
    name: 'a token refused on the upgrade with skip negotiation (Node says the status)',
    evidence: evidence({
      connectionsOpened: 0, connectionsFailed: 20, planned: 0, received: 0,
      connectCauses: { addressRefused: 20 },
      failures: [{ kind: 'transport', count: 20, message: `WebSockets (json, negotiation skipped) to ${URL}: Unable to connect to the server with any of the available transports. Error: WebSockets failed: Error: WebSocket failed to connect. Unexpected server response: 401` }],
    }, { skipNegotiation: true, hasToken: true }),
    cause: 'authRefused', says: /refused the access token with HTTP 401 on the WebSocket upgrade/,
  },
  {
    name: 'no token at negotiate',
    evidence: evidence({ connectionsOpened: 0, connectionsFailed: 20, connectCauses: { addressRefused: 20 }, failures: [{ kind: 'negotiate', count: 20, message: `${URL}: Failed to complete negotiation with the server: Error: Unauthorized: Status code '401'` }] }),
    cause: 'authRefused', says: /which gave no access token, with HTTP 401 on the negotiate request/,
  },
  {
    name: 'headers too large (431), never "not a hub"',
    evidence: evidence({ connectionsOpened: 0, connectionsFailed: 20, connectCauses: { addressRefused: 20 }, failures: [{ kind: 'negotiate', count: 20, message: `${URL}: Failed to complete negotiation with the server: Error: Request Header Fields Too Large: Status code '431'. This is not a SignalR hub at this URL: the server answered the negotiate request with status 431.` }] }),
    cause: 'headersTooLarge',
  },
  {
    name: 'half the upgrades refused with 503 by a proxy',
    evidence: evidence({ connectionsOpened: 100, connectionsFailed: 100, connections: 200, notSent: 500, connectCauses: { httpStatus: 100 }, failures: [{ kind: 'transport', count: 100, message: `${URL}: Unable to connect to the server with any of the available transports. Error: WebSockets failed: Error: WebSocket failed to connect. Unexpected server response: 503` }] }),
    cause: 'serviceRefused', says: /refused 100 connects of 200 with HTTP 503 on the WebSocket upgrade/,
  },
  {
    name: 'a path with no hub (404 at negotiate)',
    evidence: evidence({ connectionsOpened: 0, connectionsFailed: 20, connectCauses: { addressRefused: 20 }, failures: [{ kind: 'negotiate', count: 20, message: `${URL}: Failed to complete negotiation with the server: Error: Not Found: Status code '404'` }] }),
    cause: 'notAHub', says: /with HTTP 404/,
  },
  {
    name: 'a load balancer without sticky sessions',
    evidence: evidence({ connectionsOpened: 10, connectionsFailed: 10, failures: [{ kind: 'transport', count: 10, message: `${URL}: Unable to connect: Error: LongPolling failed: Error: No Connection with that ID: Status code '404'` }] }),
    cause: 'noStickySessions',
  },
  {
    name: 'a load balancer without sticky sessions, over WebSockets (the upgrade answered 404)',
    evidence: evidence({ connectionsOpened: 14, connectionsFailed: 6, notSent: 300, failures: [{ kind: 'transport', count: 6, message: `${URL}: Unable to connect to the server with any of the available transports. Error: WebSockets failed: Error: WebSocket failed to connect. The connection could not be found on the server… (the socket said: Unexpected server response: 404)` }] }),
    cause: 'noStickySessions',
  },
  {
    name: 'a proxy that does not pass WebSocket upgrades (the hub answered the bare GET with 200)',
    evidence: evidence({ connectionsOpened: 0, connectionsFailed: 20, failures: [{ kind: 'transport', count: 20, message: `${URL}: Unable to connect to the server with any of the available transports. Error: WebSockets failed: Error: WebSocket failed to connect. The connection could not be found on the server, either the endpoint may not be a SignalR endpoint, the connection ID is not present on the server, or there is a proxy … (the socket said: Unexpected server response: 200)` }] }),
    cause: 'proxyNoUpgrade', says: /WebSocket upgrade failed with HTTP 200/,
  },
  {
    name: 'a proxy that does not pass WebSocket upgrades',
    evidence: evidence({ connectionsOpened: 0, connectionsFailed: 20, failures: [{ kind: 'transport', count: 20, message: `${URL}: Unable to connect to the server with any of the available transports. Error: WebSockets failed: Error: WebSocket failed to connect. Unexpected server response: 400` }] }),
    cause: 'proxyNoUpgrade',
  },
  {
    name: 'a backplane lost (the hub\'s close reason)',
    evidence: evidence({ lost: 840, disconnects: 20, failures: [{ kind: 'closed', count: 20, message: 'Connection closed during the run: Server returned an error on close: Connection closed with an error. HubException: backplane unavailable: Redis at 127.0.0.1:6390 does not answer' }] }),
    cause: 'backplaneDown', says: /backplane unavailable: Redis at 127\.0\.0\.1:6390 does not answer/,
  },
  {
    name: 'a message over SignalR\'s default limit, closed by the hub naming no exception',
    evidence: evidence({ received: 0, lost: 40, disconnects: 2, outcome: { kind: 'failed', code: 'allClosed' }, failures: [{ kind: 'closed', count: 2, message: BARE_CLOSE }] }, { messageBytes: 65_536 }),
    cause: 'messageTooLarge',
  },
  {
    name: 'the same bare close with small messages: the hub\'s own exception as likely, so unknown, never a crash',
    evidence: evidence({ received: 0, lost: 40, disconnects: 2, outcome: { kind: 'failed', code: 'allClosed' }, failures: [{ kind: 'closed', count: 2, message: BARE_CLOSE }] }),
    cause: 'unknown', says: /Connection closed with an error/,
  },
  {
    name: 'a few connects reset during the ramp and a few closed under load: not a crash',
    evidence: evidence({ connections: 1_000, connectionsOpened: 997, connectionsFailed: 3, disconnects: 5, late: 400, connectCauses: { reset: 3 }, failures: [{ kind: 'closed', count: 5, message: 'Connection closed during the run: WebSocket closed with status code: 1006 (no reason given).' }] }),
    cause: 'unknown',
  },
  {
    name: 'one metrics reading late while messages still arrived: not a stall',
    evidence: evidence({ late: 300, server: { answered: 20, unansweredAfterAnswers: 1, peakCpuPercent: 60, restarted: false, backplaneDown: false } }),
    cause: 'load',
  },
  {
    name: 'one of two instances with nothing listening: that instance named, the set-up',
    evidence: evidence({ connectionsOpened: 10, connectionsFailed: 10, notSent: 500, connectCauses: { refused: 10 }, instances: [{ endpointUrl: URL, opened: 10, failed: 0 }, { endpointUrl: 'http://127.0.0.1:6499/signalrbench', opened: 0, failed: 10 }] }),
    cause: 'unreachable', says: /^Nothing accepted the connection at http:\/\/127\.0\.0\.1:6499\/signalrbench \(while the other instances opened theirs\)/,
  },
  {
    name: 'a restart of one hub: a poll of a forgotten connection is not a sticky-session problem',
    evidence: evidence({ lost: 40, disconnects: 10, reconnects: 10, failures: [{ kind: 'send', count: 12, message: 'Echo could not be sent: No Connection with that ID: Status code \'404\'' }], server: { answered: 10, unansweredAfterAnswers: 1, peakCpuPercent: 5, restarted: true, backplaneDown: false } }, { reconnect: true }),
    cause: 'hubCrashed', says: /restarted during the run/,
  },
  {
    name: 'a backplane lost before the run: the close names the HubException, never the message size',
    evidence: evidence({ outcome: { kind: 'failed', code: 'noConnection' }, planned: 0, connectionsOpened: 0, connectionsFailed: 20, connectCauses: { other: 20 }, failures: [{ kind: 'connect', count: 10, message: `WebSockets (json) to ${URL}: Server returned an error on close: Connection closed with an error. HubException: backplane unavailable: Redis at 127.0.0.1:37021 does not answer (SocketClosed)` }] }),
    cause: 'backplaneDown', says: /Redis at 127\.0\.0\.1:37021 does not answer \(SocketClosed\)/,
  },
  {
    name: 'a backplane lost (the hub\'s gauge only)',
    evidence: evidence({ lost: 840, server: { answered: 10, unansweredAfterAnswers: 0, peakCpuPercent: 10, restarted: false, backplaneDown: true } }),
    cause: 'backplaneDown',
  },
  {
    name: 'a backplane lost (the hub\'s /healthz, read at the end: its connections stayed open, its messages to other instances lost)',
    evidence: evidence({ lost: 840, health: [{ url: 'http://127.0.0.1:6101/healthz', status: 503, text: 'backplane unavailable: Redis at 127.0.0.1:6390 does not answer (since 4 s)' }, { url: 'http://127.0.0.1:6102/healthz', status: 200, text: 'ok' }] }),
    cause: 'backplaneDown', says: /Redis at 127\.0\.0\.1:6390 does not answer/,
  },
  {
    name: 'the hub needs negotiation',
    evidence: evidence({ connectionsOpened: 0, connectionsFailed: 20, connectCauses: { negotiationSkipped: 20 } }, { skipNegotiation: true }),
    cause: 'negotiationNeeded',
  },
  {
    name: 'a browser with no status, its origin answering: CORS',
    evidence: evidence({ connectionsOpened: 0, connectionsFailed: 4, failures: [{ kind: 'negotiate', count: 4, message: `${URL}: Failed to complete negotiation with the server: TypeError: Failed to fetch` }], originAnswered: true }, { browser: true }),
    cause: 'corsBlocked',
  },
  {
    name: 'a browser with no status, its origin silent: nothing there',
    evidence: evidence({ connectionsOpened: 0, connectionsFailed: 4, failures: [{ kind: 'negotiate', count: 4, message: `${URL}: Failed to complete negotiation with the server: TypeError: Failed to fetch` }], originAnswered: false }, { browser: true }),
    cause: 'unreachable',
  },
  {
    name: 'a browser with no status and no probe: unknown, said so',
    evidence: evidence({ connectionsOpened: 0, connectionsFailed: 4, failures: [{ kind: 'negotiate', count: 4, message: `${URL}: Failed to complete negotiation with the server: TypeError: Failed to fetch` }] }, { browser: true }),
    cause: 'unknown', says: /neither whether nothing answered nor whether CORS/,
  },
  {
    name: 'the client fell behind',
    evidence: evidence({ late: 300, client: { keptSchedule: false, limits: ['lagged 800 ms'] } }),
    cause: 'clientLimit', says: /it lagged 800 ms/,
  },
  {
    name: 'both sides saturated',
    evidence: evidence({ late: 300, client: { keptSchedule: false, limits: ['lagged 800 ms'] }, limit: { side: 'both', sentence: 'Both sides were saturated: the server was at 97% CPU and the client lagged 800 ms.' } }),
    cause: 'bothLimits',
  },
  {
    name: 'the server saturated while the client kept its schedule: load',
    evidence: evidence({ late: 300, limit: { side: 'server', sentence: 'The server was at 97% CPU while the client kept its schedule: the service is the limit.' } }),
    cause: 'load', says: /97% CPU/,
  },
  {
    name: 'late messages, client on schedule, nothing closed: load',
    evidence: evidence({ late: 300 }),
    cause: 'load',
  },
  {
    name: 'late messages, the client\'s schedule never measured: unknown',
    evidence: evidence({ late: 300, client: { keptSchedule: null, limits: [] } }),
    cause: 'unknown', says: /schedule was never measured/,
  },
  {
    // As the runner recorded it against the hub-sample's REST API with another key: the probe's refusal, and the client tokens' 401s.
    name: 'a REST scenario with another key: the REST API\'s 401 before the connects it also refused',
    evidence: evidence({
      outcome: { kind: 'failed', code: 'hubRefused' }, planned: 0, connectionsOpened: 0, connectionsFailed: 4, received: 0, sent: 0,
      failures: [
        { kind: 'negotiate', count: 4, message: `WebSockets (json) to http://127.0.0.1:6400/client/?hub=benchhub: Failed to complete negotiation with the server: Error: 401: the client token is not signed HS256 with this hub's access key (--RestApiKey, the connection string's AccessKey).: Status code '401'.` },
        { kind: 'protocol', count: 1, message: `REST API POST http://127.0.0.1:6400/api/v1/hubs/benchhub/users/{user} answered 401: the service did not take the token signed with the connection string's AccessKey (another key, or a key rotated in the portal). Copy the connection string again from the Keys blade. It said: 401: the token is not signed HS256 with this hub's REST API key.` },
      ],
    }, { hasToken: true }),
    cause: 'restRefused', says: /refused the run's sends with HTTP 401 \(1 call\): it did not take the tokens signed with the connection string's AccessKey: "401: the token is not signed HS256 with this hub's REST API key"\.$/,
  },
  {
    name: 'serverless clients whose minted tokens are refused at negotiate (a ClientEndpoint behind another address)',
    evidence: evidence({
      outcome: { kind: 'failed', code: 'noConnection' }, planned: 0, connectionsOpened: 0, connectionsFailed: 4, received: 0, sent: 0,
      failures: [{ kind: 'negotiate', count: 4, message: `WebSockets (json) to https://clients.example/client/?hub=benchhub: Failed to complete negotiation with the server: Error: Unauthorized: Status code '401'.` }],
    }, { hasToken: true, endpointUrl: 'https://clients.example/client/?hub=benchhub' }),
    cause: 'authRefused', says: /^The hub refused the client tokens minted with the connection string's AccessKey with HTTP 401 on the negotiate request \(4 connects\)\.$/,
  },
  {
    name: 'REST sends throttled with 429 at a load',
    evidence: evidence({ lost: 0, notSent: 300, failures: [{ kind: 'send', count: 300, message: 'REST API POST https://x.service.signalr.net/api/v1/hubs/benchhub answered 429: the service throttles the REST calls (too many a second for the tier). Lower the senders or the rate, or raise the tier.' }] }),
    cause: 'restFailed', says: /throttled 300 REST API sends with HTTP 429/,
  },
  { name: 'stopped early with nothing wrong', evidence: evidence({ outcome: { kind: 'stopped' }, verdict: 'none' }), cause: 'incomplete' },
  {
    name: 'a planned drop that cost messages',
    evidence: evidence({ lost: 12, disconnects: 20, reconnects: 20, failures: [{ kind: 'closed', count: 20, message: 'Connection lost during the run, reconnecting: WebSocket closed with status code: 1006 (no reason given).' }] }, { plannedDrop: true, reconnect: true }),
    cause: 'plannedDrop',
  },
  { name: 'an instance listed twice', evidence: evidence({}, { sameInstance: ['http://127.0.0.1:5180/signalrbench', 'http://localhost:5180/signalrbench'] }), cause: 'sameInstance' },
];

describe('diagnose', () => {
  for (const c of CASES) {
    it(`${c.name}: ${c.cause} (${CAUSES[c.cause]})`, () => {
      const d = diagnose(c.evidence);
      expect(d.cause).toBe(c.cause);
      expect(d.side).toBe(CAUSES[c.cause]);
      if (c.says) expect(d.sentence).toMatch(c.says);
      expect(d.advice.length).toBeGreaterThan(10);
      expect(d.docs).toMatch(/^docs\/diagnosis\.md#[a-z-]+$/);
    });
  }

  it('has a case for every cause of the catalog', () => {
    const tested = new Set(CASES.map((c) => c.cause));
    expect(CAUSE_IDS.filter((cause) => !tested.has(cause)).sort()).toEqual(['tlsUntrusted']);
  });

  it('puts the evidence that named the cause first', () => {
    const d = diagnose(CASES.find((c) => c.cause === 'serviceRefused')!.evidence);
    expect(d.evidence[0]).toBe('100 connects answered HTTP 503 on the WebSocket upgrade');
    expect(new Set(d.evidence).size).toBe(d.evidence.length);
  });

  it('names only load as a capacity-making cause of a failing run', () => {
    const loadCauses = CASES.filter((c) => c.evidence.verdict === 'fail' && diagnose(c.evidence).cause === 'load');
    expect(loadCauses.length).toBeGreaterThan(0);
    for (const c of loadCauses) expect(c.evidence.client.keptSchedule).toBe(true);
  });

  it('renders as lines with the side, the sentence and what to do', () => {
    const lines = diagnosisLines(diagnose(closedPort));
    expect(lines[0]).toMatch(/^Why \(the set-up\): Nothing accepted the connection/);
    expect(lines[1]).toMatch(/^What to do: Check the URL/);
    expect(lines[2]).toMatch(/^Evidence: failed connects: 20 refused with ECONNREFUSED/);
    expect(diagnosisLines(diagnose(evidence({ verdict: 'pass' })))[0]).toMatch(/^Why: Nothing failed/);
  });
});

describe('connectStatuses', () => {
  it('reads statuses by stage from the client library\'s and Node\'s words, summed', () => {
    expect(connectStatuses([
      { kind: 'negotiate', count: 3, message: 'Failed to complete negotiation with the server: Error: Unauthorized: Status code \'401\'' },
      { kind: 'transport', count: 2, message: 'WebSockets failed: Error: WebSocket failed to connect. Unexpected server response: 503' },
      { kind: 'transport', count: 4, message: 'WebSockets failed: Error: WebSocket failed to connect. Unexpected server response: 503' },
      { kind: 'closed', count: 9, message: 'Status code \'500\' on a connection already open' },
      { kind: 'transport', count: 1, message: 'ServerSentEvents failed: Error: EventSource failed to connect. Status code \'502\'' },
    ])).toEqual([
      { stage: 'upgrade', status: 503, count: 6 },
      { stage: 'negotiate', status: 401, count: 3 },
      { stage: 'transport', status: 502, count: 1 },
    ]);
  });
});

describe('the docs', () => {
  it('explain every cause under the anchor its diagnosis links to', () => {
    const text = readFileSync(path.join(REPO_ROOT, 'docs/diagnosis.md'), 'utf8');
    const anchors = new Set([...text.matchAll(/^### (.+)$/gm)].map((m) => m[1]!.toLowerCase().replace(/[^a-z0-9 -]/g, '').replace(/ /g, '-')));
    for (const cause of CAUSE_IDS) expect(anchors.has(docsAnchorOf(cause).split('#')[1]!), cause).toBe(true);
  });
});

describe('silentSecondsAtEnd', () => {
  const second = (n: number, planned: number, arrived: number, late = 0, received = arrived) => ({ second: n, received, fates: { planned, underOneSecond: arrived, late, afterDrain: 0, notSent: {} as never, lost: null } });

  it('counts the last sending seconds none of whose messages ever arrived, after some had', () => {
    expect(silentSecondsAtEnd([second(1, 10, 10), second(2, 10, 10), second(3, 10, 0), second(4, 10, 0), second(5, 0, 0)])).toBe(2);
  });

  it('a late arrival is an arrival: a slow hub is not silent', () => {
    expect(silentSecondsAtEnd([second(1, 10, 10), second(2, 10, 0, 10), second(3, 10, 0, 3)])).toBe(0);
  });

  it('a hub at its load still delivering older messages while the last ones never arrive is not silent', () => {
    expect(silentSecondsAtEnd([second(1, 10, 10), second(2, 10, 0, 0, 8), second(3, 10, 0, 0, 9)])).toBe(0);
  });

  it('a run that never delivered anything is not a hub that stopped (other evidence names it)', () => {
    expect(silentSecondsAtEnd([second(1, 10, 0), second(2, 10, 0)])).toBe(0);
  });
});
