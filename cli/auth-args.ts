/**
 * The runner's options for a protected deployment: access tokens (a file, an environment
 * variable, or the command line), extra headers and query parameters. They become the run's
 * Credentials (core/run/credentials.ts), which no result, report or message keeps.
 */
import { readFileSync } from 'node:fs';
import { isEmpty, NO_CREDENTIALS, scrubSecrets, SECRET_QUERY_NAMES, splitEndpointSecrets, type Credentials } from '../core/run/index.ts';
import type { Output } from './output.ts';

export const AUTH_OPTIONS = {
  'access-token-file': { type: 'string' },
  'access-token-env': { type: 'string' },
  'access-token': { type: 'string' },
  header: { type: 'string', multiple: true },
  query: { type: 'string', multiple: true },
  'secret-query': { type: 'string', multiple: true },
} as const;

export const AUTH_USAGE = `Pointing it at a protected deployment (nothing of these is kept in results or reports)
  --access-token-file <file> access token for every connection; one token per line makes a run of
                            many users (connection i takes line i mod n)
  --access-token-env <VAR>  access token from an environment variable
  --access-token <token>    access token on the command line (visible in the shell's history
                            and to other users of this machine: prefer the two above)
  --header "Name: value"    extra header on negotiate and HTTP requests and on the WebSocket
                            upgrade (repeatable), e.g. an API gateway's key
  --query name=value        extra query parameter on the hub URL (repeatable): on negotiate and
                            the connection at that URL, as the client library sends it; when
                            negotiate redirects (Azure SignalR Service), on the first negotiate
                            only: the library opens the URL it is given as it is
  --secret-query <name>     a query parameter of --endpoint that is a secret (repeatable),
                            besides ${SECRET_QUERY_NAMES.slice(0, 6).join(', ')},
                            ${SECRET_QUERY_NAMES.slice(6, -1).join(', ')} and ${SECRET_QUERY_NAMES.at(-1)}: taken out of the endpoint like --query
                            values: sent, shown as "set", never kept`;

/** Header names the client sets itself, or that would break the connection if overridden. */
const RESERVED_HEADERS = new Set(['host', 'content-length', 'connection', 'upgrade', 'transfer-encoding']);
/** Headers of the WebSocket handshake (Sec-WebSocket-Key, -Version, -Protocol…): the client's own. */
const RESERVED_HEADER_PREFIX = 'sec-websocket-';
/** A header name as HTTP allows it (a token). */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Query parameters the client sets itself: the connection token after negotiate. */
const RESERVED_QUERY = new Set(['id']);

/** What is wrong with a secret's characters, worded for `what` (never quoting it); null when
 *  it can travel in an HTTP header or URL. Tabs and spaces are for the caller to judge. */
function nonTextProblem(value: string, what: string): string | null {
  // U+FFFD is what reading a file as UTF-8 makes of bytes that are not UTF-8.
  if (/[\r\n]/.test(value)) return `${what} holds a line break (CR or LF), which would end the HTTP header it travels in`;
  if (/[\u0000-\u0008\u000b-\u001f\u007f\ufffd]/.test(value)) return `${what} holds bytes that are not text (control characters or bytes that are not UTF-8: a binary file?)`;
  if (/[^\u0000-\u00ff]/.test(value)) return `${what} holds characters beyond Latin-1, which an HTTP header cannot carry`;
  return null;
}

/** "the 2nd --header", for saying which one without quoting it. */
function nth(flag: string, index: number, count: number): string {
  if (count === 1) return flag;
  const n = index + 1;
  const suffix = n % 10 === 1 && n % 100 !== 11 ? 'st' : n % 10 === 2 && n % 100 !== 12 ? 'nd' : n % 10 === 3 && n % 100 !== 13 ? 'rd' : 'th';
  return `the ${n}${suffix} ${flag}`;
}

export interface AuthValues {
  'access-token-file'?: string;
  'access-token-env'?: string;
  'access-token'?: string;
  /** Gives the token at start (cli/token-command.ts): a token is given, though none is here yet. */
  'access-token-command'?: string;
  header?: string[];
  query?: string[];
  'secret-query'?: string[];
}

/** The run's credentials, with every problem added to `errors` (words never quote a secret). */
export function credentialsOf(v: AuthValues, errors: string[], env: NodeJS.ProcessEnv = process.env, readText: (file: string) => string = (file) => readFileSync(file, 'utf8')): Credentials {
  const sources = (['access-token-file', 'access-token-env', 'access-token'] as const).filter((name) => v[name] !== undefined);
  let accessTokens: string[] = [];
  // More than one is refused in ignored-options.ts.
  if (sources.length > 1) {
    // Nothing: said there.
  } else if (v['access-token-file'] !== undefined) {
    const file = v['access-token-file'];
    try {
      accessTokens = readText(file).split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== '');
      if (accessTokens.length === 0) errors.push(`--access-token-file ${file} has no token in it: put one token per line.`);
    } catch (error) {
      errors.push(`--access-token-file ${file} cannot be read (${(error as { code?: string }).code ?? 'error'}): give a file with one token per line.`);
    }
  } else if (v['access-token-env'] !== undefined) {
    const name = v['access-token-env'];
    const value = env[name]?.trim();
    if (!value) errors.push(`--access-token-env ${name}: the environment variable ${name} is ${value === undefined ? 'not set' : 'empty'}. Export the token in it, or use --access-token-file.`);
    else accessTokens = [value];
  } else if (v['access-token'] !== undefined) {
    if (v['access-token'].trim() === '') errors.push('--access-token is empty: give the token, or drop the option.');
    else accessTokens = [v['access-token'].trim()];
  }
  for (const token of accessTokens) {
    const problem = nonTextProblem(token, 'An access token');
    if (problem) {
      errors.push(`${problem}: give the token${v['access-token-file'] !== undefined ? 's as text, one per line' : ' alone'}.`);
      break;
    }
    if (/\s/.test(token)) {
      errors.push('An access token contains a space: give the token alone, without "Bearer " (the client adds it).');
      break;
    }
  }
  const tokenGiven = sources.length > 0 || v['access-token-command'] !== undefined;
  const headers: [string, string][] = [];
  const headerCount = v.header?.length ?? 0;
  (v.header ?? []).forEach((raw, i) => {
    // Never quoted, not even in part: a header's value is often a key. Its name is said once it is one.
    const which = nth('--header', i, headerCount);
    const colon = raw.indexOf(':');
    const name = colon > 0 ? raw.slice(0, colon).trim() : '';
    const value = colon > 0 ? raw.slice(colon + 1).trim() : '';
    if (/[\r\n]/.test(raw)) errors.push(`${which} holds a line break (CR or LF), which would end the header and start another: give one header per --header, on one line.`);
    else if (colon < 0) errors.push(`${which} has no colon: give each header as --header "Name: value", e.g. --header "X-Api-Key: <key>".`);
    else if (!HEADER_NAME.test(name)) errors.push(`${which} has no header name before its colon (letters, digits and - only): give it as --header "Name: value".`);
    else if (RESERVED_HEADERS.has(name.toLowerCase()) || name.toLowerCase().startsWith(RESERVED_HEADER_PREFIX)) errors.push(`--header ${name}: the client sets this header itself; drop it.`);
    else if (name.toLowerCase() === 'authorization' && tokenGiven) errors.push('--header Authorization: the client sends the access token in it (Bearer); give the token once, with --access-token-file, or drop the header.');
    else {
      const problem = nonTextProblem(value, `--header ${name}'s value`);
      if (problem) errors.push(`${problem}: give one line of text.`);
      else headers.push([name, value]);
    }
  });
  const query: [string, string][] = [];
  const queryCount = v.query?.length ?? 0;
  (v.query ?? []).forEach((raw, i) => {
    const equals = raw.indexOf('=');
    const name = raw.slice(0, Math.max(equals, 0));
    if (equals < 0) errors.push(`${nth('--query', i, queryCount)} has no "=": give each parameter as --query name=value, e.g. --query code=<value>.`);
    else if (name.trim() === '') errors.push(`${nth('--query', i, queryCount)} has no name before its "=": give it as --query name=value.`);
    else if (RESERVED_QUERY.has(name)) errors.push(`--query ${name}: the client sets this parameter itself (the connection's token after negotiate); drop it.`);
    else if (name === 'access_token' && tokenGiven) errors.push('--query access_token: the client sends the access token in it itself; give the token once, with --access-token-file, or drop the parameter.');
    else query.push([name, raw.slice(equals + 1)]);
  });
  if (accessTokens.length === 0 && headers.length === 0 && query.length === 0) return NO_CREDENTIALS;
  return { accessTokens, headers, query };
}

/**
 * The endpoints without their secret query parameters (core/run/credentials.ts), and those
 * secrets for the credentials (`withEndpointSecrets`): --endpoint's `?code=…` is sent like a
 * --query value and never kept. Names given with --secret-query count too.
 */
export function endpointSecretsOf(endpoints: readonly string[], v: Pick<AuthValues, 'secret-query'>, errors: string[]): { urls: string[]; secrets: [string, string][][] } {
  const names = (v['secret-query'] ?? []).map((name) => name.trim());
  if (names.some((name) => name === '' || /[=&?#\s]/.test(name))) errors.push('--secret-query takes the name of a query parameter of --endpoint, without its value: e.g. --secret-query subscription-key.');
  // Repeated, or a comma-separated list: split as the run's configuration splits it (core/run/config.ts).
  const texts = endpoints.flatMap((text) => text.split(/[\s,]+/)).filter((text) => text !== '');
  return texts.length === 0 ? { urls: [...endpoints], secrets: [] } : splitEndpointSecrets(texts, names);
}

/** The run's credentials with the endpoints' own secrets; a second access token is refused. */
export function withEndpointSecrets(credentials: Credentials, secrets: [string, string][][], errors: string[]): Credentials {
  if (!secrets.some((list) => list.length > 0)) return credentials;
  if (credentials.accessTokens.length > 0 && secrets.some((list) => list.some(([name]) => name === 'access_token'))) {
    errors.push('--endpoint carries access_token in its query, and an access token is given too: the client sends the given one there. Drop one of them.');
  }
  return { ...credentials, endpointQuery: secrets };
}

/** The runner's output with the run's secrets scrubbed from every line (core/run/credentials.ts):
 *  the last net under whatever a library, the hub or the tool itself may quote. */
export function scrubbedOutput(io: Output, credentials: Credentials): Output {
  if (isEmpty(credentials)) return io;
  return { out: (line) => io.out(scrubSecrets(line, credentials)), err: (line) => io.err(scrubSecrets(line, credentials)) };
}
