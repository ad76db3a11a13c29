/**
 * The run-config room's words: what is wrong with a run's configuration and what to do, a field's
 * hint, what a link left out, a token about to expire, the browser's limits, one instance under two
 * addresses, and skip negotiation's refusals. The checks name the case and its values; only this
 * file writes prose, so the form, the runner and the reports say the same thing. Pure.
 */

const count = (n: number) => n.toLocaleString('en-US');
/** A value as typed: empty, a quoted string, or the number. */
const shown = (raw: unknown) => (raw === undefined || raw === null || raw === '' ? 'empty' : typeof raw === 'string' ? `"${raw}"` : String(raw));

export const RUN_CONFIG_WORDS = {
  /** The credentials line's part for a serverless run (the hub's name; never the key). */
  serverlessSet: (p: { hub: string }) => `Azure SignalR connection string set (hub ${p.hub}; each client's token and each REST call's signed with its AccessKey)`,
  /** What each whole-number field's refusal adds, after its range. */
  wholeNumberHints: {
    connections: 'Past one browser, run more agents.',
    workers: 'One or two per CPU core is plenty.',
    messageBytes: 'The hub-sample accepts up to 256 KiB, the size of the guide\'s largest example.',
    sendIntervalMs: 'Below 10 ms timers cannot keep the schedule.',
    durationSec: 'Up to one day.',
    drainSec: 'It is the longest wait for late messages after the last send; the drain ends sooner once everything has arrived.',
    warmupSec: 'Use 0 for none.',
    connectConcurrency: 'About 8 opens connections fastest in Chromium.',
  },
  wholeNumber: (p: { label: string; min: number; max: number; unit: string; value: unknown; hint: string }) =>
    `${p.label} must be a whole number from ${count(p.min)} to ${count(p.max)}${p.unit}, ` +
      `but is ${shown(p.value)}. ${p.hint}`,
  optionalCount: (p: { label: string; value: unknown }) =>
    `${p.label} must be a whole number from 1 to 100,000, or empty for the scenario's default, but is ${shown(p.value)}.`,
  optionalSeconds: (p: { label: string; min: number; emptyMeans: string; value: unknown }) =>
    `${p.label} must be a whole number of seconds from ${p.min} to 86,400, or empty for ${p.emptyMeans}, but is ${shown(p.value)}.`,
  reconnectNotBoolean: (p: { value: unknown }) => `Reconnect must be true or false, but is "${String(p.value)}".`,
  notBoolean: (p: { label: string; value: unknown }) => `${p.label} must be true or false, but is ${shown(p.value)}.`,
  /** A scenario, transport or protocol outside its list, quoted as typed. */
  notOneOf: (p: { label: string; options: readonly string[]; value: unknown }) => `${p.label} must be one of ${p.options.join(', ')}, but is "${String(p.value)}".`,
  reconnectPolicy: (p: { options: readonly string[]; value: unknown }) => `Reconnect policy must be one of ${p.options.join(', ')}, but is ${shown(p.value)}.`,
  dropKind: (p: { options: readonly string[]; value: unknown }) =>
    `Drop kind must be one of ${p.options.join(', ')}, but is ${shown(p.value)}. network cuts the client's transport; server asks the hub-sample to abort the connection.`,
  dropShare: (p: { value: unknown }) => `Drop share must be a percentage above 0 and at most 100, but is ${shown(p.value)}. Use 100 to drop every connection.`,
  hubProfile: (p: { problem: string }) => `Hub profile: ${p.problem}`,
  warmupTooLong: (p: { warmupSec: number; durationSec: number }) =>
    `Warm-up (${p.warmupSec} s) must be shorter than the duration (${p.durationSec} s): nothing would be measured. Lower the warm-up or lengthen the run.`,
  sseMessagePack: () => 'Server-Sent Events carry text only, so SignalR cannot send MessagePack (binary) over them. ' +
    'Choose JSON with Server-Sent Events, or WebSockets or Long Polling with MessagePack.',
  workersOutnumber: (p: { workers: number; connections: number }) =>
    `Workers (${p.workers}) must not outnumber connections (${p.connections}): ` +
      'each worker needs at least one connection. Lower the workers or raise the connections.',
  tooManyInstances: (p: { count: number; max: number }) =>
    `Endpoint lists ${p.count} hub instances, but a run spreads over at most ${p.max}: list fewer, or run agents against the others.`,
  /** Endpoints listed twice, each quoted with its secrets hidden. */
  repeatedEndpoints: (p: { endpoints: readonly string[] }) =>
    `Endpoint lists ${p.endpoints.join(', ')} more than once: list each hub instance once (the connections are spread evenly over the list).`,
  endpointEmpty: () => 'Endpoint is empty. Enter the hub URL, for example http://127.0.0.1:5180/signalrbench.',
  endpointNotUrl: (p: { endpoint: string }) =>
    `Endpoint "${p.endpoint}" is not a URL. Enter an absolute http:// or https:// URL, for example http://127.0.0.1:5180/signalrbench.`,
  endpointScheme: (p: { endpoint: string; scheme: string; host: string; path: string }) =>
    `Endpoint "${p.endpoint}" uses ${p.scheme}; SignalR negotiates over http:// or https:// (it switches to WebSockets itself). Use http(s)://${p.host}${p.path}.`,
  /** `at` is the endpoint's origin and path, without its query. */
  endpointSecret: (p: { at: string; names: readonly string[] }) =>
    `Endpoint ${p.at} carries ${p.names.join(', ')} in its query, a secret that would be kept in the link, the results and the exports. Leave the Endpoint field (Tab) and the page takes it out and holds it as a secret for this session; or give it in Advanced → Authentication (the runner takes it out of --endpoint itself).`,
  endpointId: (p: { at: string }) =>
    `Endpoint ${p.at} has id in its query, which the client sets itself (the connection's token after negotiate): drop it from the URL.`,
  endpointUserInfo: (p: { at: string }) =>
    `Endpoint ${p.at} carries a user name and password, which would be kept in the link, the results and the exports. Drop them from the URL and give a token in Advanced → Authentication (the runner: --access-token-file).`,
  /** A JWT that has expired, or expires before the planned run ends (times already worded). */
  tokenExpired: (p: { when: string }) => `The access token expired (${p.when}): the hub will refuse it. Paste a fresh one.`,
  tokenExpiresInRun: (p: { when: string; run: string }) =>
    `The access token expires at ${p.when}, before the planned run of ${p.run} ends: a hub may close its connections then, and reconnects and long polling's requests would carry an expired token. Paste a token that outlives the run, or run it with the runner's --access-token-command, which fetches fresh ones.`,
  /** What a browser will not allow: its WebSockets, HTTP/1.1's connections per origin, HTTP/2's streams. */
  browserWebSockets: (p: { max: number; connections: number }) =>
    `Chromium allows ${p.max} WebSockets per browser profile; ${p.connections - p.max} of the ${p.connections} would fail with close code 1006. Lower the connections to ${p.max}, or spread the load over more browser profiles or machines.`,
  http1Queue: (p: { transport: string; perOrigin: number; connections: number; usable: number }) =>
    `${p.transport} over http:// (HTTP/1.1) gets ${p.perOrigin} connections per origin in this browser, shared by every worker, with sends and polls queueing silently behind each other: ${p.connections} connections would measure the browser's queue, not the hub. Use ${p.usable} connections or fewer, or an https:// endpoint (HTTP/2; the hub-sample serves one with --HttpsPort).`,
  http2Streams: (p: { transport: string; streams: number; serverStreams: number }) =>
    `${p.transport} over HTTP/2 needs about ${p.streams} concurrent streams; servers commonly allow ${p.serverStreams} per connection (Kestrel's default), beyond which requests wait. Raise the server's limit or lower the connections.`,
  capacityRefusal: (p: { capacity: number; transport: string; browserCapacity: number; connections: number }) =>
    `This browser and the agents can hold ${p.capacity} ${p.transport} connections (a browser ${p.browserCapacity}), not ${p.connections}. Add a headless agent, or lower the connections.`,
  /** For whoever shares the page's link: why it leaves the hub profile out. */
  linkLeavesProfile: (p: { name: string; chars: number; max: number }) =>
    `This page's link leaves the hub profile "${p.name}" out: it takes ${p.chars.toLocaleString('en-US')} characters in a link, more than the ${p.max.toLocaleString('en-US')} a link can safely carry. Share the profile's JSON file with the link; whoever opens it is asked to paste it.`,
  /** For whoever opens a link that left its profile out. */
  linkLeftProfileOut: (p: { name: string }) => `The link's run drives the hub profile "${p.name}", too long for a link to carry: paste or load that profile below.`,
  /** One hub instance under two spellings (`evidence`: what the addresses resolved to, or nothing). */
  sameInstance: (p: { first: string; second: string; reaches: string; evidence: string }) =>
    `Endpoints ${p.first} and ${p.second} both reach ${p.reaches}${p.evidence}: one hub instance, whose connections and server metrics would count as two. List each hub instance once.`,
  sameMetrics: (p: { first: string; second: string; reaches: string; evidence: string }) =>
    `--server-metrics ${p.first} and ${p.second} both reach ${p.reaches}${p.evidence}: one instance's metrics would be summed twice. Give each instance's /metrics once, in the order of the endpoints.`,
  /** What to do when a hub refuses the WebSocket opened without negotiate. */
  needsNegotiation: (p: { option: string }) => `this hub needs negotiation: leave ${p.option} off (the dashboard: Advanced → Skip negotiation)`,
  skipNeedsWebSockets: (p: { transport: string }) =>
    `Skip negotiation works over WebSockets only (the SignalR client negotiates to open ${p.transport}). Choose WebSockets, or turn skip negotiation off.`,
  skipWithStateful: () => 'Stateful reconnect is granted in the negotiate answer, so it cannot go with skip negotiation. Turn one of them off.',
  /** What names a connection by its hub id: a profile's placeholder, or the send-to-connection scenario. */
  profileNamesHubId: (p: { name: string; excluded: boolean; placeholder: string }) =>
    `The hub profile "${p.name}" names ${p.excluded ? 'the sender to leave out' : 'one connection'} by its hub id ({${p.placeholder}})`,
  sendToConnectionHubId: () => 'Send to connection sends to each connection by its hub id',
  sendToUserHubId: () => 'Send to user through the REST API tells the targets that opened by their hub ids',
  restWithProfile: (p: { scenario: string }) =>
    `The scenario ${p.scenario} sends by the REST API, not by hub methods: the tool names its target (Measure) itself, so a hub profile has no part in it. Leave the hub profile out, or choose a scenario of the default mode.`,
  skipHidesHubId: (p: { what: string }) =>
    `${p.what}, and a client learns its id only from the negotiate answer: without negotiation it stays unknown (the SignalR client's connectionId is null). Turn skip negotiation off, or choose another scenario.`,
};
