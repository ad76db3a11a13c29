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
import { instanceOf } from '../plan/index.ts';
import type { ServerlessCredentials } from '../serverless/index.ts';
import { RUN_CONFIG_WORDS } from './words.ts';

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
  /** The secrets taken out of the endpoints' own query (splitEndpointSecrets), one list per hub
   *  instance in the endpoints' order; each connection adds its instance's list to `query`.
   *  Absent: none. */
  endpointQuery?: [name: string, value: string][][];
  /** An Azure SignalR connection string's parts (--azure-connection-string-env/-file): its
   *  AccessKey signs each client's token and each REST API call's. Absent: none. */
  serverless?: ServerlessCredentials;
  /** With `serverless`: each connection's client token, by run-wide index, minted by the engine
   *  that opens it (workers/engine/rest-sends.ts) and replaced before it expires. Never sent
   *  anywhere but on the connection's own requests. */
  mintedTokens?: Map<number, string>;
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
  // The endpoint's own secrets first, where its URL had them; the instance as core/run-config/hub-instances.ts spreads connections.
  const perInstance = credentials.endpointQuery ?? [];
  const endpointQuery = perInstance.length > 0 ? perInstance[instanceOf(connectionIndex, perInstance.length)]! : [];
  return {
    // Read at each use, not copied: a fresh token (a TokensMessage) reaches the connection's next
    // request (a reconnect, long polling's every request) through the client's accessTokenFactory.
    get accessToken() {
      const minted = credentials.mintedTokens?.get(connectionIndex);
      if (minted !== undefined) return minted;
      const tokens = credentials.accessTokens;
      return tokens.length > 0 ? tokens[connectionIndex % tokens.length]! : null;
    },
    headers: credentials.headers,
    query: endpointQuery.length > 0 ? [...endpointQuery, ...credentials.query] : credentials.query,
  };
}

export function isEmpty(credentials: Credentials | undefined): boolean {
  return !credentials || (credentials.accessTokens.length === 0 && credentials.headers.length === 0 && credentials.query.length === 0 && (credentials.profileEnv?.length ?? 0) === 0 && endpointSecretNames(credentials).length === 0 && credentials.serverless === undefined);
}

/**
 * Query parameter names that carry a secret when an endpoint's URL has them: Azure Functions'
 * `code`, a SAS's `sig`/`signature`, API gateways' keys, tokens. Compared without case.
 */
export const SECRET_QUERY_NAMES = ['code', 'sig', 'signature', 'key', 'apikey', 'api_key', 'token', 'access_token'] as const;

/** Whether a query parameter of an endpoint is a secret: a known name, or one of `extraNames` (--secret-query). */
export function isSecretQueryName(name: string, extraNames: readonly string[] = []): boolean {
  const lower = name.toLowerCase();
  return (SECRET_QUERY_NAMES as readonly string[]).includes(lower) || extraNames.some((extra) => extra.toLowerCase() === lower);
}

/**
 * Every endpoint's URL without its secret query parameters, and those parameters, one list per
 * endpoint in order: the URLs go into the run's configuration (kept, linked, exported), the
 * secrets into its credentials (`endpointQuery`), used on the wire only. Works on the text as
 * typed, valid URL or not, so even the refusal of a malformed endpoint never quotes a secret;
 * the other parameters keep their spelling.
 */
export function splitEndpointSecrets(endpoints: readonly string[], extraNames: readonly string[] = []): { urls: string[]; secrets: [string, string][][] } {
  const urls: string[] = [];
  const secrets: [string, string][][] = [];
  for (const text of endpoints) {
    const mark = text.indexOf('?');
    if (mark < 0) {
      urls.push(text);
      secrets.push([]);
      continue;
    }
    const hashAt = text.indexOf('#', mark);
    const queryText = text.slice(mark + 1, hashAt < 0 ? undefined : hashAt);
    const hash = hashAt < 0 ? '' : text.slice(hashAt);
    const kept: string[] = [];
    const taken: [string, string][] = [];
    for (const part of queryText.split('&')) {
      const [pair] = [...new URLSearchParams(part)];
      if (pair && isSecretQueryName(pair[0], extraNames)) taken.push(pair);
      else if (part !== '') kept.push(part);
    }
    urls.push(`${text.slice(0, mark)}${kept.length > 0 ? `?${kept.join('&')}` : ''}${hash}`);
    secrets.push(taken);
  }
  return { urls, secrets };
}

/** The names of the endpoints' own secrets (each once), for saying they are set. */
export function endpointSecretNames(credentials: Pick<Credentials, 'endpointQuery'> | undefined): string[] {
  return [...new Set((credentials?.endpointQuery ?? []).flat().map(([name]) => name))];
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
  const fromEndpoint = endpointSecretNames(credentials);
  if (fromEndpoint.length > 0) parts.push(`the endpoint's ${fromEndpoint.join(', ')} set (taken out of its URL)`);
  const env = credentials!.profileEnv ?? [];
  if (env.length > 0) parts.push(`profile values from ${env.map(([name]) => `$${name}`).join(', ')}`);
  if (credentials!.serverless) parts.push(RUN_CONFIG_WORDS.serverlessSet({ hub: credentials!.serverless.hub }));
  return parts.join('; ');
}

/** Shortest secret value scrubbed by its text (shorter ones would blank ordinary words). */
const MIN_SCRUBBED_CHARS = 4;
/** A secret longer than this is also scrubbed wherever its first PREFIX_CHARS characters stand,
 *  as far as the text goes on matching it: a text that cut it short ("eyJhbGciOiJI…") would
 *  otherwise still show its start. */
const PREFIX_SCRUBBED_ABOVE_CHARS = 12;
const PREFIX_CHARS = 8;

/** What a scrub needs: the credentials of a run or of one connection. */
export type ScrubbedSecrets = Pick<ConnectionCredentials, 'accessToken' | 'headers' | 'query'> | Credentials;

/** Every secret value of `credentials`, as given. */
export function secretValuesOf(credentials: ScrubbedSecrets): string[] {
  return [
    ...('accessTokens' in credentials ? credentials.accessTokens : [credentials.accessToken]),
    ...credentials.headers.map(([, value]) => value),
    ...credentials.query.map(([, value]) => value),
    ...('profileEnv' in credentials ? (credentials.profileEnv ?? []).map(([, value]) => value) : []),
    ...('endpointQuery' in credentials ? (credentials.endpointQuery ?? []).flat().map(([, value]) => value) : []),
    ...('serverless' in credentials && credentials.serverless ? [credentials.serverless.accessKey] : []),
  ].filter((value): value is string => typeof value === 'string' && value.length >= MIN_SCRUBBED_CHARS);
}

/** The spellings a value takes in a text: as typed, URL-encoded (a path or query part) and
 *  form-encoded (`+` for spaces, as URLSearchParams writes a query). */
function spellings(value: string): string[] {
  const formEncoded = new URLSearchParams({ v: value }).toString().slice(2);
  return [...new Set([value, encodeURIComponent(value), formEncoded])];
}

const SECRET_NAMES_PATTERN = SECRET_QUERY_NAMES.join('|');

/**
 * `text` with every secret taken out: the one scrub of every error text, hub message and sample
 * the tool says or keeps. It takes out the values of `credentials` in each spelling (as typed,
 * URL-encoded, form-encoded) and, for those longer than 12 characters, any start of them of 8
 * characters or more (a text that cut one short); and whatever follows a known secret's name in a query (`access_token=`,
 * which the SignalR client puts in WebSocket and SSE URLs, `code=`, `sig=`…) or `Bearer `.
 */
export function scrubSecrets(text: string, credentials?: ScrubbedSecrets): string {
  let scrubbed = text
    .replace(new RegExp(`([?&](?:${SECRET_NAMES_PATTERN})=)[^&\\s'"#)]+`, 'gi'), '$1[hidden]')
    .replace(/(access_token=)[^&\s'"#)]+/gi, '$1[hidden]')
    .replace(/(Bearer\s+)[A-Za-z0-9\-._~+/]+=*/g, '$1[hidden]');
  if (credentials) {
    const values = secretValuesOf(credentials);
    const whole = values.flatMap(spellings);
    // Longest first, so a value that holds another is taken out whole.
    for (const spelling of whole.sort((a, b) => b.length - a.length)) {
      if (spelling !== '[hidden]') scrubbed = scrubbed.split(spelling).join('[hidden]');
    }
    for (const spelling of values.filter((value) => value.length > PREFIX_SCRUBBED_ABOVE_CHARS).flatMap(spellings)) scrubbed = withoutStart(scrubbed, spelling);
  }
  return scrubbed;
}

/** `text` without any start of `value` of PREFIX_CHARS characters or more: each place its
 *  first characters stand is hidden as far as the text goes on matching the value. */
function withoutStart(text: string, value: string): string {
  const start = value.slice(0, PREFIX_CHARS);
  let out = '';
  let from = 0;
  for (let at = text.indexOf(start); at >= 0; at = text.indexOf(start, from)) {
    let end = at + PREFIX_CHARS;
    while (end < text.length && end - at < value.length && text[end] === value[end - at]) end++;
    out += `${text.slice(from, at)}[hidden]`;
    from = end;
  }
  return out + text.slice(from);
}
