/**
 * The words of a SignalR client's failures (errors.ts) and of the control hub's
 * (control-connection.ts): what failed, the likely cause and the next step. Keyed by the
 * diagnosis's cause where one names the case (core/diagnosis/causes.ts). Pure.
 */

/** Where a person gives a token, in the runner and in the dashboard. */
const WHERE_TOKENS = 'the runner\'s --access-token-file <file> (or --access-token-env <VAR>), or the dashboard\'s Advanced → Authentication';

/** Where the hub-sample's benchmark hub is: the hint after a negotiate that found no hub. */
const HUB_PATH_HINT = 'Check the URL and the hub path (the hub-sample maps /signalrbench).';

export const SIGNALR_WORDS = {
  headersTooLarge: () => 'The server refused the request\'s headers as too large (431): send a shorter token, or fewer and shorter headers and query parameters.',
  azureNotConnected: () => 'The app runs its hubs through Azure SignalR Service and is not connected to the service: check the app\'s connection string (Endpoint, AccessKey), that the service instance is running, and the app\'s log.',
  notAHubStatus: (p: { status: number }) => `This is not a SignalR hub at this URL: the server answered the negotiate request with status ${p.status}. ${HUB_PATH_HINT}`,
  /** 429 or 503 at negotiate: a server that is there and says no for now (the hub-sample at its
   *  open-files limit answers 503 with its reason, which the client quotes before this). */
  busyRefused: (p: { status: number }) => `The server at this URL refused the connection for now (HTTP ${p.status}): it is up but at a limit (connections, open files, a rate) or still starting; its own words are above. Read its log, raise the limit, or spread the load over more hubs.`,
  /** 502 or 504 at negotiate: a proxy answered for a hub it could not reach. */
  gatewayNoHub: (p: { status: number }) => `A proxy or gateway in front of the hub answered the negotiate request with HTTP ${p.status}: the hub behind it did not answer (down, restarting or overloaded). Check that the hub is running and that the proxy reaches it.`,
  notAHubBody: () => `This is not a SignalR hub at this URL: the server answered the negotiate request, but not with SignalR's negotiate JSON (an HTML page?). ${HUB_PATH_HINT}`,
  /** A 403 at negotiate, with a token or without one. */
  authForbidden: (p: { hasToken: boolean }) => (p.hasToken
    ? 'The hub refused this client (403 at negotiate): the token was accepted, but its user may not use this hub, or the hub refuses this origin. Check the user\'s rights and the hub\'s allowed origins.'
    : 'The hub refused this client (403 at negotiate): it may need a token whose user has the right, or refuse this origin (or an API gateway wants a header or key). Give a token with ' + WHERE_TOKENS + ', a header with --header, or check the hub\'s allowed origins.'),
  /** A 401 at negotiate, with a token or without one. */
  authRefused: (p: { hasToken: boolean }) => (p.hasToken
    ? 'The hub refused the access token (401 at negotiate): it is expired, wrong, or for another hub or audience (during a run: it expired, and the reconnect was refused). Give a fresh token.'
    : `The hub needs authentication (401 at negotiate) and no access token was given. Give one with ${WHERE_TOKENS}; a gateway's key goes in --header or --query.`),
  handshake: (p: { protocol: string }) => `. Check that the hub accepts the ${p.protocol} protocol.`,
  /** A WebSocket opened without negotiate that the hub refused; `needs` is core/run-config's NEEDS_NEGOTIATION. */
  negotiationNeeded: (p: { status: string | undefined; needs: string }) => `${p.status
    ? `the hub refused the WebSocket opened without negotiate (HTTP ${p.status}): `
    : 'the WebSocket opened without negotiate failed, and a browser does not say why: if the hub is running, '}${p.needs}. Azure SignalR Service, and a hub behind a proxy that routes by the negotiate's connection token, cannot be reached without it.`,
  upgradeRefused: () => '. The hub refused the WebSocket upgrade with 401/403 after negotiate accepted the client: the token may have expired just then, or the hub reads the token from the header on negotiate but not from access_token on the upgrade (see JwtBearerEvents.OnMessageReceived).',
  transportRefused: (p: { transport: string }) => `. Negotiate accepted this client, then the ${p.transport} connection was refused: a hub that checks the token there may have refused it (expired just then, or read only from the Authorization header). A browser sends it as access_token in the URL on WebSockets and Server-Sent Events, and the hub must accept it there (JwtBearerEvents.OnMessageReceived).`,
  // The hints for the failures people meet most (errors.ts HINTS).
  outOfFiles: () => 'This client ran out of file descriptors, not the hub: raise the limit (ulimit -n 65535) or spread the connections over more agents.',
  outOfPorts: () => 'This client ran out of ephemeral ports for this destination (about 28,000 on Linux\'s default range), not the hub: widen net.ipv4.ip_local_port_range or spread the connections over more agents.',
  outOfSockets: () => 'This client\'s system ran out of socket resources, not the hub: open fewer connections per machine or add agents.',
  unresolved: () => 'The host name does not resolve: check its spelling, or use an IP address.',
  tlsUntrusted: () => 'The server\'s TLS certificate is not trusted (self-signed, expired or for another name): trust it, or use http:// for a local hub.',
  corsBlocked: () => 'Nothing accepted the connection, or CORS blocked it: check the URL, that the hub is running, and that it allows this page\'s origin.',
  unreachable: () => 'Nothing accepted the connection: check the URL and that the hub is running.',
  noStickySessions: () => 'The connection was negotiated with one hub instance and reached another: a load balancer without sticky sessions. Turn on session affinity, use WebSockets with skip negotiation, or list each instance as its own endpoint.',
  transportNotOffered: () => 'The hub does not offer this transport with this protocol: choose another transport, or enable it on the hub.',
  messageTooLarge: () => 'A hub closes a connection that sends a message larger than its limit (SignalR\'s MaximumReceiveMessageSize, 32 KB unless raised) or that breaks the protocol: lower the message size or raise the hub\'s limit.',
  /** The control hub did not answer; `message` is the classified failure without its last full stop. */
  controlUnreachable: (p: { message: string }) => `Cannot reach the control hub: ${p.message}. The control hub is the hub-sample's /control (setting EnableControlHub).`,
} as const;
