/**
 * The words of every cause: one sentence (what happened, with its figures) and what to do. The
 * rules (diagnose.ts) name a cause and its facts; only this file writes prose, so the runner, the
 * page and the reports say the same thing. Pure.
 */
import { formatCount } from '../format.ts';
import type { CauseId } from './causes.ts';
import type { ConnectStage } from './failures.ts';
import type { TextMismatch } from './evidence.ts';

/** The facts a cause's words quote; each rule fills the ones its cause needs. */
export interface Facts {
  url: string;
  transport: string;
  /** A count of failed connects, closed connections, calls, … and of how many. */
  count?: number;
  of?: number;
  status?: number;
  stage?: ConnectStage;
  /** The hub's or the server's own words, quoted. */
  quote?: string;
  method?: string;
  hasToken?: boolean;
  /** How the client fell behind or ran out, worded to follow "the client". */
  client?: string;
  /** The server side's sentence (core/server-metrics explainLimit). */
  server?: string;
  seconds?: number;
  /** Endpoints that reach one instance. */
  endpoints?: string[];
  /** Whether the runner or a browser ran it: where a token or a header goes differs. */
  browser?: boolean;
  /** A receive method called, never with this run's text where the profile reads it. */
  mismatch?: TextMismatch;
}

interface CauseWords {
  sentence: (f: Facts) => string;
  advice: (f: Facts) => string;
}

const n = (count: number | undefined, one: string, many = `${one}s`) => `${formatCount(count ?? 0)} ${(count ?? 0) === 1 ? one : many}`;
const stageText = (stage: ConnectStage | undefined) => (stage === 'negotiate' ? 'the negotiate request' : stage === 'upgrade' ? 'the WebSocket upgrade' : 'the transport\'s requests');
const quoted = (f: Facts) => (f.quote ? `: "${f.quote}"` : '');
/** A client of a serverless hub: it connects to {endpoint}/client/?hub={hub} with a token the run minted (core/serverless). */
const serverlessClient = (f: Facts) => /\/client\/\?hub=[A-Za-z]/.test(f.url);
const tokenPlace = (f: Facts) => (f.browser ? 'Advanced → Authentication → Access token' : '--access-token-file <file> (or --access-token-env <VAR>)');

/** What a REST API refusal means, by status (core/serverless rest-run.ts names the same). */
const REST_REFUSAL: Record<number, string> = {
  400: 'it did not take the body',
  401: "it did not take the tokens signed with the connection string's AccessKey",
  403: 'it forbade the calls',
  404: 'it has no hub of that name there, or there is no REST API at that address',
  413: "the message is over its limit for a REST call",
};
const REST_ADVICE: Record<number, string> = {
  400: 'Check that the endpoint is Azure SignalR Service (or the hub-sample with --EnableRestApi true): its REST API takes { "target": ..., "arguments": [...] }.',
  401: "Copy the connection string again from the portal's Keys blade (a key rotated since, or another resource's); for the hub-sample, its AccessKey is the hub's --RestApiKey.",
  403: "Check the resource's keys and network rules: the key must be allowed to send.",
  404: 'Name the hub with --azure-hub (Azure names a hub by its class name, in any case), and check the connection string\'s Endpoint; the hub-sample answers the REST API only with --EnableRestApi true.',
  413: 'Lower the message size: Azure takes at most 1 MB in a REST call.',
};

export const WORDS: Record<CauseId, CauseWords> = {
  held: {
    sentence: () => 'Nothing failed: every planned message arrived once and the run met the guide\'s rule.',
    advice: () => 'Raise the load (connections or rate), or find the capacity with a search, to see where it breaks.',
  },
  incomplete: {
    sentence: () => 'The run ended before its planned end with nothing shown to have failed, so it has no verdict.',
    advice: () => 'Run it to its end for a verdict.',
  },
  plannedDrop: {
    sentence: (f) => `The drops the run planned cost messages${f.quote ? ` (${f.quote})` : ''}: that is what a drop costs with these reconnect settings, not a fault of either side.`,
    advice: () => 'Stateful reconnect (if the hub grants it) or a shorter reconnect policy is what saves them; the run\'s Drops lines say which was in effect.',
  },
  load: {
    sentence: (f) => `The service did not hold this load: ${f.server ?? 'messages were late or lost while the client kept its schedule and every connection stayed open'}.`,
    advice: () => 'This is the service\'s limit at this load: scale the service up or out (a larger tier, more units or instances), or lower the load. A capacity search finds the highest load it holds.',
  },
  clientLimit: {
    sentence: (f) => `This client set the limit, not the service: it ${f.client ?? 'fell behind its schedule'}.`,
    advice: (f) => (f.browser
      ? 'Carry the load from more clients: add agents (other browsers or headless runners), or run it from the headless runner.'
      : 'Spread the load: more --workers if this machine has idle cores, runner agents on other machines, or fewer connections per machine.'),
  },
  bothLimits: {
    sentence: (f) => `Both sides were at their limit, so which one set it cannot be told: the client ${f.client ?? 'fell behind'}, and ${f.server ?? 'the server was saturated'}.`,
    advice: () => 'Run the client on another machine than the hub (or add agents), then run again: the side still failing is the limit.',
  },
  hubCrashed: {
    sentence: (f) => `The hub at ${f.url} went away mid-run: ${f.quote ?? 'its connections were closed and new connects refused'}. A crashed or restarted hub is not a capacity.`,
    advice: () => 'Read the hub\'s log and its host\'s (out of memory, a crash, a restart by its orchestrator) at the time of the run, then run again.',
  },
  hubStalled: {
    sentence: (f) => `The hub at ${f.url} stopped answering mid-run${f.seconds ? ` (none of the messages of its last ${n(f.seconds, 'second')} of sending ever arrived)` : ''}: ${f.quote ?? 'connections stayed open and nothing came back'}. A frozen hub is not a capacity.`,
    advice: () => 'Look at the hub\'s process at the time (paused, stuck in a long garbage collection, starved of CPU, or blocked on a dependency), then run again.',
  },
  backplaneDown: {
    sentence: (f) => `The hub's backplane was unavailable${f.quote ? ` (the hub said: "${f.quote}")` : ''}: messages between its instances were lost, and connections it could not serve were refused.`,
    advice: () => 'Bring the backplane back (the Redis of every instance), check each instance\'s /healthz, then run again.',
  },
  serviceRefused: {
    sentence: (f) => `The service refused ${n(f.count, 'connect')}${f.of ? ` of ${formatCount(f.of)}` : ''} with HTTP ${f.status ?? '5xx'} on ${stageText(f.stage)}${quoted(f)}.`,
    advice: (f) => (f.status === 429
      ? 'The service or a gateway in front of it limits connection rates: open connections more slowly (fewer connects in flight), or raise its limit.'
      : 'The service (or a proxy or gateway in front of it) was out of capacity or failing when asked for connections: read its log for the refusals, scale it, or connect more slowly.'),
  },
  restFailed: {
    sentence: (f) => (f.status === undefined
      ? `${n(f.count, 'REST API send')} got no answer from ${f.url}${quoted(f)}: the service did not answer in time, or the connection to it was lost.`
      : f.status === 429
        ? `The service throttled ${n(f.count, 'REST API send')} with HTTP 429${quoted(f)}.`
        : `The service failed ${n(f.count, 'REST API send')} with HTTP ${f.status}${quoted(f)}.`),
    advice: (f) => (f.status === 429
      ? 'The REST API limits calls per second for the tier: send through fewer senders or at a lower rate, or raise the tier (each REST call costs far more than a WebSocket message).'
      : 'The service (or a proxy in front of it) was out of capacity or failing when it took the REST calls: read its log for the failures, lower the rate, or scale it.'),
  },
  unreachable: {
    sentence: (f) => `Nothing accepted the connection at ${f.url}${f.quote ? ` (${f.quote})` : ''}: no connection could be opened.`,
    advice: () => 'Check the URL (scheme, host, port, hub path) and that the hub is running and reachable from here.',
  },
  tlsUntrusted: {
    sentence: (f) => `The server's TLS certificate at ${f.url} was not trusted${quoted(f)}.`,
    advice: (f) => (f.browser
      ? 'Open the hub\'s address once in this browser and trust its certificate, or use http:// for a local hub.'
      : 'Trust the certificate (NODE_EXTRA_CA_CERTS=<file>), or use http:// for a local hub.'),
  },
  authRefused: {
    sentence: (f) => `The hub refused ${serverlessClient(f) ? 'the client tokens minted with the connection string\'s AccessKey' : f.hasToken ? 'the access token' : 'this client, which gave no access token,'} with HTTP ${f.status ?? 401} on ${stageText(f.stage)}${f.count ? ` (${n(f.count, 'connect')})` : ''}.`,
    advice: (f) => (serverlessClient(f)
      ? `The service checks each client token's signature (the AccessKey) and its aud, which is ${f.url}: copy the connection string again (a key rotated since), and give ClientEndpoint= when clients reach the service at another address than its Endpoint.`
      : f.hasToken
      ? `Give a fresh token for this hub (it may be expired, wrong, or for another audience)${f.stage === 'upgrade' || f.stage === 'transport' ? '; the hub must also read the token from access_token on WebSocket and Server-Sent Events requests (JwtBearerEvents.OnMessageReceived)' : ''}. The token goes in ${tokenPlace(f)}.`
      : `Give a token in ${tokenPlace(f)}; a gateway's key goes in ${f.browser ? 'Extra query parameters' : '--header or --query'}.`),
  },
  headersTooLarge: {
    sentence: (f) => `The server refused the request's headers as too large (HTTP 431 on ${stageText(f.stage)}${f.count ? `, ${n(f.count, 'connect')}` : ''}).`,
    advice: () => 'Send a shorter token or fewer and shorter headers and query parameters (servers and proxies commonly allow 8 to 32 KB of headers in all).',
  },
  corsBlocked: {
    sentence: (f) => `The browser refused this page's negotiate request to ${f.url}: the server answers, but not with CORS headers that allow this page's origin.`,
    advice: () => 'Allow this page\'s origin in the hub\'s CORS policy (WithOrigins, AllowCredentials), or use WebSockets with Skip negotiation (CORS does not apply to WebSockets), or run from the headless runner.',
  },
  notAHub: {
    sentence: (f) => `There is no SignalR hub at ${f.url}: the server answered the negotiate request ${f.status ? `with HTTP ${f.status}` : 'with something other than negotiate JSON'}${quoted(f)}.`,
    advice: () => 'Check the URL\'s path against the hub\'s MapHub route (the hub-sample maps /signalrbench).',
  },
  negotiationNeeded: {
    sentence: (f) => `The hub refused the WebSocket opened without negotiate${f.status ? ` (HTTP ${f.status})` : ''}: it needs negotiation.`,
    advice: (f) => `Turn Skip negotiation off${f.browser ? '' : ' (leave --skip-negotiation out)'}; Azure SignalR Service, and a hub behind a proxy that routes by the negotiate's connection token, cannot be reached without it.`,
  },
  proxyNoUpgrade: {
    sentence: (f) => `Negotiate succeeded, then the WebSocket upgrade failed${f.status ? ` with HTTP ${f.status}` : ''}${f.count ? ` (${n(f.count, 'connect')})` : ''}: something between the client and the hub does not pass WebSocket upgrades.`,
    advice: () => 'Have the reverse proxy pass the upgrade (nginx: proxy_http_version 1.1; proxy_set_header Upgrade $http_upgrade; proxy_set_header Connection "upgrade"), or choose Server-Sent Events or Long Polling.',
  },
  noStickySessions: {
    sentence: (f) => `Connections negotiated with one instance and connected to another${f.count ? ` (${n(f.count, 'connect')})` : ''}: ${f.status ? `the WebSocket upgrade was answered ${f.status} after negotiate succeeded, as a hub answers a connection id it does not know` : 'the hub answered "No Connection with that ID"'}. A load balancer in front of several instances is not sticky.`,
    advice: () => 'Turn on sticky sessions (session affinity) at the load balancer, or use WebSockets with Skip negotiation, or list each instance as its own endpoint.',
  },
  hubMethodRefused: {
    sentence: (f) => `The hub refused ${f.method ? `the method ${f.method}` : 'the scenario\'s method'}${quoted(f)}.`,
    advice: () => 'Point the endpoint at a hub with the benchmark\'s methods, or describe your hub\'s own methods with a hub profile (docs/hub-profiles.md).',
  },
  restRefused: {
    sentence: (f) => `The REST API at ${f.url} refused the run's sends with HTTP ${f.status}${f.count ? ` (${n(f.count, 'call')})` : ''}: ${REST_REFUSAL[f.status ?? 0] ?? 'a status its reference does not give for a send'}${quoted(f)}.`,
    advice: (f) => REST_ADVICE[f.status ?? 0] ?? 'Read the service\'s answer above, and check the connection string and --azure-hub.',
  },
  profileMismatch: {
    sentence: (f) => `The hub never called ${f.method ?? 'the profile\'s receive method'}: ${n(f.count, 'message')} were sent and none came back on it.`,
    advice: () => 'Check the profile\'s receive.method against the client method the hub calls (e.g. Clients.All.SendAsync("ReceiveMessage", …)).',
  },
  textNotFound: {
    sentence: (f) => (f.mismatch ? textNotFoundSentence(f.mismatch) : `${f.method ?? 'The profile\'s receive method'} was called, never with this run's text where the profile reads it.`),
    advice: (f) => (f.mismatch && f.mismatch.foundAt !== null
      ? `Set receive.arg to ${JSON.stringify(f.mismatch.foundAt)} in the profile and run again.`
      : 'Compare what the hub sends on it (the call quoted above) with the profile\'s receive.arg: the hub must pass {message} on, as it is or inside its own words, in the argument or at the path (e.g. "0.message") that receive.arg names.'),
  },
  messageTooLarge: {
    sentence: (f) => `The hub closed connections for a message larger than it accepts${quoted(f)}.`,
    advice: () => 'Lower the message size, or raise the hub\'s MaximumReceiveMessageSize (32 KB unless set).',
  },
  sameInstance: {
    sentence: (f) => `One hub instance was listed more than once (${(f.endpoints ?? []).join(' and ')}), so its connections and metrics would count twice.`,
    advice: () => 'List each instance once.',
  },
  unknown: {
    sentence: (f) => `Why the run failed is unknown: ${f.quote ?? 'nothing recorded names a cause'}.`,
    advice: (f) => `Read the errors below; read the server's metrics with the run${f.browser ? ' (Server metrics)' : ' (--server-metrics)'} and run the client from another machine, so the next run can tell the sides apart.`,
  },
};

/** Where a profile reads a client method's arguments, said: "in argument 1", "at 0.message". */
const placeText = (place: number | string) => (typeof place === 'number' ? `in argument ${place}` : `at ${place}`);

/**
 * "ReceiveMessage was called 411 times, never with this run's text in argument 0; the first call
 * carried "bench-3: hello"; it is in argument 1: set receive.arg to 1." The run's outcome and its
 * diagnosis say it alike.
 */
export function textNotFoundSentence(m: TextMismatch): string {
  const where = m.foundAt === null ? '' : `; it is ${placeText(m.foundAt)}: set receive.arg to ${JSON.stringify(m.foundAt)}`;
  return `${m.method} was called ${n(m.calls, 'time')}, never with this run's text ${placeText(m.place)}; the first call carried "${m.sample}"${where}.`;
}

/** Evidence lines, worded once. */
export const EVIDENCE = {
  statuses: (count: number, status: number, stage: ConnectStage) => `${n(count, 'connect')} answered HTTP ${status} on ${stageText(stage)}`,
  causes: (text: string) => `failed connects: ${text}`,
  failure: (kind: string, count: number, message: string) => `${kind} ×${formatCount(count)}: ${message}`,
  instanceDead: (url: string, failed: number) => `the instance ${url} opened none of its connections (${formatCount(failed)} failed)`,
  opened: (opened: number, of: number) => `${formatCount(opened)} of ${formatCount(of)} connections opened`,
  disconnects: (lost: number, back: number) => `${n(lost, 'connection')} lost during the run, ${formatCount(back)} came back`,
  serverTimeout: (count: number) => `${n(count, 'connection')} closed by the client's server timeout (the hub sent nothing, not even a keep-alive)`,
  silent: (seconds: number) => `none of the messages of the last ${n(seconds, 'second')} of sending ever arrived, after earlier ones had`,
  unanswered: (count: number, answered: number) => `${n(count, 'reading')} of the server's metrics got no answer after ${formatCount(answered)} had`,
  restarted: () => 'the server\'s counters went back down: it restarted',
  backplaneGauge: () => 'the server\'s metrics showed its backplane down',
  workersLost: (count: number) => `${n(count, 'agent thread')} stopped reporting while the hub relayed their reports`,
  stoppedAnswering: (count: number) => `${n(count, 'connect')} not tried once the hub had stopped answering connects`,
  nothingReceived: (sent: number) => `${n(sent, 'message')} sent on the connections it had opened; nothing at all came back`,
  outcome: (reason: string) => `outcome: ${reason}`,
  textless: (sent: number, unsolicited: number) => `${n(sent, 'message')} sent; ${n(unsolicited, 'call')} of the receive method carried no text of the tool where the profile reads (unsolicited)`,
  delivery: (lost: number | null, notSent: number, late: number, planned: number) => `of ${formatCount(planned)} planned receptions: ${formatCount(lost ?? 0)} lost, ${formatCount(notSent)} never sent, ${formatCount(late)} late`,
  client: (text: string) => `the client ${text}`,
  clientKept: () => 'the client kept its schedule',
  server: (text: string) => text,
  health: (url: string, status: number | null, text: string) => (status === null ? `${url} did not answer (${text})` : `${url} answered ${status}: "${text}"`),
  probe: (answered: boolean) => (answered ? 'the endpoint\'s origin answered a no-cors request' : 'the endpoint\'s origin did not answer a no-cors request'),
};

const connections = (count: number) => n(count, 'connection');

/** How a hub went away or stopped answering, said inside its cause's sentence. */
export const STALL_WORDS = {
  crashed: (f: { restarted: boolean; closed: number; back: number }) => (f.restarted
    ? 'it restarted during the run'
    : `${connections(f.closed)} closed abruptly and ${f.back === 0 ? 'none' : formatCount(f.back)} came back`),
  quote: (f: { timedOut: number; stayedOpen: boolean; metrics: boolean; connects: boolean; health?: boolean; relays: boolean }) => {
    const parts = [
      ...(f.timedOut > 0 ? [`${connections(f.timedOut)} closed by the client's server timeout`] : []),
      ...(f.stayedOpen ? ['its connections stayed open and nothing came back'] : []),
      ...(f.metrics ? ['its metrics stopped answering'] : []),
      ...(f.connects ? ['it stopped answering connects'] : []),
      ...(f.health ? ['nothing came back on the connections it had opened, and its /healthz did not answer'] : []),
      ...(f.relays ? ['it stopped relaying agents\' reports'] : []),
    ];
    return parts.length > 0 ? parts.join(', ') : 'nothing came back';
  },
};

/** What a rule of diagnose.ts says happened, quoted in its cause's sentence (Facts.quote) when no
 *  error of the hub's or the client's own says it better. */
export const QUOTE_WORDS = {
  hostUnresolved: () => 'the host name does not resolve',
  badPort: () => 'the client refuses this port outright, one of the well-known ports fetch blocks: use another',
  othersOpened: () => 'while the other instances opened theirs',
  refused: () => 'connection refused',
  noConnectAnswered: () => 'no connect was answered within the connect time limit: a host that drops them, or a hub that is stalled',
  originSilent: () => 'nothing answered at its origin',
  browserSaysNeither: () => 'the browser says neither whether nothing answered nor whether CORS refused the page',
  /** Nothing named a cause: why, and the most frequent failure when there was one. */
  scheduleUnmeasured: () => 'the client\'s schedule was never measured and nothing recorded names a cause',
  noCause: (p: { mostFrequent?: { kind: string; message: string } }) =>
    (p.mostFrequent ? `nothing recorded names a cause; the most frequent failure was ${p.mostFrequent.kind}: "${p.mostFrequent.message}"` : 'nothing recorded names a cause'),
};
