/**
 * The engine's words (besides its streams', stream-words.ts): what a worker records as an error
 * of a connection, a connect, a send, a join or the hub's methods, and its own refusals of a
 * misuse. The engine (bench-engine.ts, connection-pool.ts, scenario-runner.ts, worker-stats.ts,
 * reception-ledger.ts) and the scenarios count and decide; only this file writes prose, and the
 * diagnosis quotes what it says. Pure.
 */
import { formatCount } from '../../core/format.ts';

/** An error's own message, or the thrown value as text. */
const said = (error: unknown) => (error instanceof Error ? error.message : String(error));

export const ENGINE_WORDS = {
  /** A worker is started once per run. */
  startedTwice: () => 'This worker has already started a run; start a new worker for the next run.',
  probeSkipped: () => 'The method check and group joins were skipped: the hub had stopped answering connects.',
  rejoinFailed: (p: { error: unknown }) => `Rejoining its group after a reconnect failed: ${said(p.error)}. Its group's messages to it count as lost.`,

  /** Why the pool stopped connecting: no first answer in time. */
  noFirstAnswer: (p: { seconds: number }) =>
    `no connect answered within ${p.seconds} s and none opened: the hub is stalled or not answering (check that it is running and responsive)`,
  /** Why the pool stopped connecting: answers that stopped after some opened. */
  stoppedAnswering: (p: { silentSec: number; opened: number; connections: number }) =>
    `the hub stopped answering connects: none answered for ${p.silentSec} s (a whole connect time limit) after ${p.opened} of this worker's ${p.connections} had opened, ` +
    'so the rest were not waited for and the run went on with those open; what the others were to send or receive still counts',
  /** Why the pool stopped connecting: the first connects all failed. */
  firstFailed: (p: { failed: number; allRefused: boolean }) =>
    `the first ${p.failed} connects ${p.allRefused ? 'were all refused (nothing accepts connections there)' : 'all failed'} and none opened, so the others would fail the same way`,
  /** Connections the pool gave up on before trying them (`reason`: why it stopped connecting). */
  notTried: (p: { untried: number; connections: number; reason: string }) => `${p.untried} of this worker's ${p.connections} connections were not tried: ${p.reason}.`,
  serverDropNotMade: (p: { error: unknown }) => `Server drop not made: DropMe could not be sent (${said(p.error)}).`,
  /** A connection that closed under the run (not a planned drop); `reason` as the classifier says it. */
  lostReconnecting: (p: { reason: string }) => `Connection lost during the run, reconnecting: ${p.reason}`,
  notSentReconnecting: (p: { method: string }) => `${p.method} not sent: the connection was reconnecting.`,
  networkDropNotMade: (p: { transport: string }) =>
    `Network drop not made: the ${p.transport} transport of a connection could not be cut (this version of @microsoft/signalr hides it).`,
  /** A connect that timed out (`where`: "connection 3 to <url>: did not open within 15 s"), by whose limit. */
  timedOutStarved: (p: { where: string; stalledMs: number }) =>
    `${p.where}, timed out while this client's own event loop was stalled ${formatCount(Math.round(p.stalledMs))} ms of that time: ` +
    'an answer may have come in time and sat unread, so this is the client\'s limit, not the hub\'s. Open fewer connections per engine, or spread them over more workers or agents.',
  timedOut: (p: { where: string; inBrowser: boolean }) =>
    `${p.where}. ` +
    (p.inBrowser
      ? 'The server is not answering (stalled or overloaded), or the browser is holding the connection in its queue (6 connections per origin over HTTP/1.1 for Server-Sent Events and long polling).'
      : 'The server accepted nothing in that time: it may be stalled or overloaded. Check that the hub is running and responsive.'),
  /** A connection the server closed without an error; with a token, why that may be. */
  closedWithoutError: (p: { hasToken: boolean }) =>
    (p.hasToken
      ? 'the server closed it without an error. It has an access token: a hub closes a connection whose token expires (ASP.NET Core\'s CloseOnAuthenticationExpiration), and reconnecting then needs a fresh token; give tokens that outlast the run'
      : 'the server closed it without an error'),
  backedUp: () =>
    'Slot not sent: the connection already held its limit of unsent messages (64 sends or 1 MiB). The hub or the network is not taking messages as fast as they are planned.',

  /** The hub refused a method of the scenario: what it said, then what to check. */
  methodRefused: (p: { endpointUrl: string; method: string; said: string; unnegotiated: string; advice: string }) =>
    `The hub at ${p.endpointUrl} did not accept ${p.method}(…): ${p.said}. ${p.unnegotiated}${p.advice}`,
  needsContract: () =>
    'This tool needs the benchmark contract (Echo, Broadcast, GroupBroadcast, SendToConnection, JoinGroup, LeaveGroup, delivering Measure(ts, payload)): point the endpoint at the hub-sample or a hub with the same methods, or give a hub profile that maps the scenario onto this hub\'s own methods.',
  checkProfileMethod: (p: { profile: string; role: 'join' | 'send'; method: string; args: string }) =>
    `The hub profile "${p.profile}" ${p.role === 'join' ? 'joins' : 'sends'} with ${p.method}: check the hub's method names and their arguments (${p.method}(${p.args})) against the profile.`,
  /** Before the advice, when negotiation was skipped: `needsNegotiation` says why it matters. */
  unnegotiated: (p: { needsNegotiation: string }) =>
    `With negotiation skipped, a hub that runs through Azure SignalR Service accepts the WebSocket on its app server but cannot send over it: ${p.needsNegotiation}. Otherwise: `,
  noServerDrops: (p: { endpointUrl: string; error: unknown }) =>
    `The hub at ${p.endpointUrl} cannot drop connections on request (${said(p.error)}). ` +
    'Server drops need the hub-sample started with --EnableServerDrops true; for any other hub choose a network drop.',
  /** A profile's group join the hub refused (`what`: `JoinRoom("g-3")`). */
  joinFailed: (p: { what: string; error: unknown; method: string; profile: string }) =>
    `${p.what} failed: ${said(p.error)}. Check that the hub has the method ${p.method} the profile "${p.profile}" joins with.`,

  /** The engine's one send schedule (open-loop.ts LaneSchedule), misused. */
  laneAfterStart: () => 'A lane was added to the send schedule after it started; add every lane before start().',
  lanesTooFarApart: () => 'The lanes of one send schedule must have their first slots within one interval of each other; spread them over the interval.',

  /** The reception ledger's refusals of a misuse (the tool's own bugs). */
  badWindow: (p: { windowSeqs: string; max: number; defaultSeqs: number }) =>
    `windowSeqs must be a whole multiple of 32 from 32 to ${p.max}, but is ${p.windowSeqs}. ` +
    `Leave it out for the default of ${p.defaultSeqs}.`,
  badSenders: (p: { senders: string; defaultSenders: number }) =>
    `expectedSenders must be a whole number from 0 to 1,000,000, but is ${p.senders}. ` +
    `Leave it out for the default of ${p.defaultSenders}.`,
  badReception: (p: { sender: string; seq: string }) =>
    `Cannot record sender ${p.sender}, seq ${p.seq}: both must be whole numbers >= 0 ` +
    '(a foreign or corrupted payload?). Drop such messages before recording them.',
};
