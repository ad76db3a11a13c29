/**
 * What a run needs to reach a protected deployment, kept apart from its RunConfig: the access
 * tokens, extra headers and extra query parameters. A RunConfig is kept with results, exports,
 * shared links and kept runs; these never are. They travel only in a worker's start message (to
 * the page's Web Workers, the runner's threads, and agents over the control hub) and live in
 * memory for the session. Query parameters and header values are held as secrets too: an API
 * gateway's key or Azure Functions' `code` rides in them; so are the values of a hub profile's
 * {env:NAME} placeholders, which the profile itself keeps as placeholders.
 */
import { tokenUser } from '../profiles/index.ts';

export interface Credentials {
  /** Access tokens, one per user: connection i takes `accessTokens[i % n]`. Empty: none. */
  accessTokens: string[];
  /** Extra HTTP headers, sent on negotiate and the other HTTP requests, and in Node on the
   *  WebSocket upgrade (browsers cannot put headers on a WebSocket). */
  headers: [name: string, value: string][];
  /** Extra query parameters appended to the endpoint URL. */
  query: [name: string, value: string][];
  /** The values of the hub profile's {env:NAME} placeholders, read by the runner from its
   *  environment at start (cli/profile-args.ts); the profile keeps the placeholders. Absent: none. */
  profileEnv?: [name: string, value: string][];
}

export const NO_CREDENTIALS: Credentials = { accessTokens: [], headers: [], query: [] };

/** What one connection uses: its token (by run-wide index), the headers and the query. */
export interface ConnectionCredentials {
  accessToken: string | null;
  headers: [string, string][];
  query: [string, string][];
}

export function credentialsFor(credentials: Credentials | undefined, connectionIndex: number): ConnectionCredentials | undefined {
  if (!credentials || isEmpty(credentials)) return undefined;
  const tokens = credentials.accessTokens;
  return { accessToken: tokens.length > 0 ? tokens[connectionIndex % tokens.length]! : null, headers: credentials.headers, query: credentials.query };
}

export function isEmpty(credentials: Credentials | undefined): boolean {
  return !credentials || (credentials.accessTokens.length === 0 && credentials.headers.length === 0 && credentials.query.length === 0 && (credentials.profileEnv?.length ?? 0) === 0);
}

/** The profile's {env:NAME} values, by NAME; empty without any. */
export function profileEnvOf(credentials: Credentials | undefined): Record<string, string> {
  return Object.fromEntries(credentials?.profileEnv ?? []);
}

/** The user each access token names ({user}, the deliveries to users), in token order. */
export function tokenUsersOf(credentials: Credentials | undefined): (string | null)[] {
  return (credentials?.accessTokens ?? []).map(tokenUser);
}

/** The endpoint with the extra query parameters appended (kept out of every figure and message). */
export function withQuery(endpointUrl: string, query: readonly [string, string][]): string {
  if (query.length === 0) return endpointUrl;
  const url = new URL(endpointUrl);
  for (const [name, value] of query) url.searchParams.append(name, value);
  return url.toString();
}

/** How the credentials are shown: that they are set, never what they are. */
export function credentialsSummary(credentials: Credentials | undefined): string | null {
  if (isEmpty(credentials)) return null;
  const parts: string[] = [];
  const tokens = credentials!.accessTokens.length;
  if (tokens === 1) parts.push('token set');
  else if (tokens > 1) parts.push(`${tokens} tokens set (one per user, by connection)`);
  if (credentials!.headers.length > 0) parts.push(`headers ${credentials!.headers.map(([name]) => name).join(', ')}`);
  if (credentials!.query.length > 0) parts.push(`query ${credentials!.query.map(([name]) => name).join(', ')}`);
  const env = credentials!.profileEnv ?? [];
  if (env.length > 0) parts.push(`profile values from ${env.map(([name]) => `$${name}`).join(', ')}`);
  return parts.join('; ');
}

/** Shortest secret value scrubbed by its text (shorter ones would blank ordinary words). */
const MIN_SCRUBBED_CHARS = 4;

/**
 * `text` with every secret taken out: the values of `credentials`, and whatever follows
 * `access_token=` (the SignalR client puts the token in WebSocket and SSE URLs, and errors can
 * quote them) or `Bearer `.
 */
export function scrubSecrets(text: string, credentials?: Pick<ConnectionCredentials, 'accessToken' | 'headers' | 'query'> | Credentials): string {
  let scrubbed = text
    .replace(/(access_token=)[^&\s'"#)]+/gi, '$1[hidden]')
    .replace(/(Bearer\s+)[A-Za-z0-9\-._~+/]+=*/g, '$1[hidden]');
  if (credentials) {
    const values = [
      ...('accessTokens' in credentials ? credentials.accessTokens : [credentials.accessToken]),
      ...credentials.headers.map(([, value]) => value),
      ...credentials.query.map(([, value]) => value),
      ...('profileEnv' in credentials ? (credentials.profileEnv ?? []).map(([, value]) => value) : []),
    ].filter((value): value is string => typeof value === 'string' && value.length >= MIN_SCRUBBED_CHARS);
    for (const value of values) {
      scrubbed = scrubbed.split(value).join('[hidden]').split(encodeURIComponent(value)).join('[hidden]');
    }
  }
  return scrubbed;
}
