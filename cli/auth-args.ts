/**
 * The runner's options for a protected deployment: access tokens (a file, an environment
 * variable, or the command line), extra headers and query parameters. They become the run's
 * Credentials (core/run-config/credentials.ts), which no result, report or message keeps.
 */
import { readFileSync } from 'node:fs';
import { isEmpty, NO_CREDENTIALS, scrubSecrets, SECRET_QUERY_NAMES, splitEndpointSecrets, type Credentials } from '../core/run-config/index.ts';
import type { Output } from './output.ts';
import { ARGS_WORDS } from './args-words.ts';
import { HELP_WORDS } from './help-words.ts';

export const AUTH_OPTIONS = {
  'access-token-file': { type: 'string' },
  'access-token-env': { type: 'string' },
  'access-token': { type: 'string' },
  header: { type: 'string', multiple: true },
  query: { type: 'string', multiple: true },
  'secret-query': { type: 'string', multiple: true },
} as const;

export const AUTH_USAGE = HELP_WORDS.auth({ secretQueryNames: SECRET_QUERY_NAMES });

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
  if (/[\r\n]/.test(value)) return ARGS_WORDS.lineBreak({ what });
  if (/[\u0000-\u0008\u000b-\u001f\u007f\ufffd]/.test(value)) return ARGS_WORDS.notText({ what });
  if (/[^\u0000-\u00ff]/.test(value)) return ARGS_WORDS.beyondLatin1({ what });
  return null;
}

/** "the 2nd --header", for saying which one without quoting it. */
function nth(flag: string, index: number, count: number): string {
  if (count === 1) return flag;
  return ARGS_WORDS.nth({ flag, n: index + 1 });
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
      if (accessTokens.length === 0) errors.push(ARGS_WORDS.tokenFileEmpty({ file }));
    } catch (error) {
      errors.push(ARGS_WORDS.tokenFileUnread({ file, code: (error as { code?: string }).code ?? 'error' }));
    }
  } else if (v['access-token-env'] !== undefined) {
    const name = v['access-token-env'];
    const value = env[name]?.trim();
    if (!value) errors.push(ARGS_WORDS.tokenEnvMissing({ name, empty: value !== undefined }));
    else accessTokens = [value];
  } else if (v['access-token'] !== undefined) {
    if (v['access-token'].trim() === '') errors.push(ARGS_WORDS.tokenEmpty());
    else accessTokens = [v['access-token'].trim()];
  }
  for (const token of accessTokens) {
    const problem = nonTextProblem(token, 'An access token');
    if (problem) {
      errors.push(ARGS_WORDS.tokenNotText({ problem, fromFile: v['access-token-file'] !== undefined }));
      break;
    }
    if (/\s/.test(token)) {
      errors.push(ARGS_WORDS.tokenSpace());
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
    if (/[\r\n]/.test(raw)) errors.push(ARGS_WORDS.headerLineBreak({ which }));
    else if (colon < 0) errors.push(ARGS_WORDS.headerNoColon({ which }));
    else if (!HEADER_NAME.test(name)) errors.push(ARGS_WORDS.headerNoName({ which }));
    else if (RESERVED_HEADERS.has(name.toLowerCase()) || name.toLowerCase().startsWith(RESERVED_HEADER_PREFIX)) errors.push(ARGS_WORDS.headerReserved({ name }));
    else if (name.toLowerCase() === 'authorization' && tokenGiven) errors.push(ARGS_WORDS.headerAuthorization());
    else {
      const problem = nonTextProblem(value, `--header ${name}'s value`);
      if (problem) errors.push(ARGS_WORDS.headerValueNotText({ problem }));
      else headers.push([name, value]);
    }
  });
  const query: [string, string][] = [];
  const queryCount = v.query?.length ?? 0;
  (v.query ?? []).forEach((raw, i) => {
    const equals = raw.indexOf('=');
    const name = raw.slice(0, Math.max(equals, 0));
    if (equals < 0) errors.push(ARGS_WORDS.queryNoEquals({ which: nth('--query', i, queryCount) }));
    else if (name.trim() === '') errors.push(ARGS_WORDS.queryNoName({ which: nth('--query', i, queryCount) }));
    else if (RESERVED_QUERY.has(name)) errors.push(ARGS_WORDS.queryReserved({ name }));
    else if (name === 'access_token' && tokenGiven) errors.push(ARGS_WORDS.queryAccessToken());
    else query.push([name, raw.slice(equals + 1)]);
  });
  if (accessTokens.length === 0 && headers.length === 0 && query.length === 0) return NO_CREDENTIALS;
  return { accessTokens, headers, query };
}

/**
 * The endpoints without their secret query parameters (core/run-config/credentials.ts), and those
 * secrets for the credentials (`withEndpointSecrets`): --endpoint's `?code=…` is sent like a
 * --query value and never kept. Names given with --secret-query count too.
 */
export function endpointSecretsOf(endpoints: readonly string[], v: Pick<AuthValues, 'secret-query'>, errors: string[]): { urls: string[]; secrets: [string, string][][] } {
  const names = (v['secret-query'] ?? []).map((name) => name.trim());
  if (names.some((name) => name === '' || /[=&?#\s]/.test(name))) errors.push(ARGS_WORDS.secretQueryName());
  // Repeated, or a comma-separated list: split as the run's configuration splits it (core/run-config/config.ts).
  const texts = endpoints.flatMap((text) => text.split(/[\s,]+/)).filter((text) => text !== '');
  return texts.length === 0 ? { urls: [...endpoints], secrets: [] } : splitEndpointSecrets(texts, names);
}

/** The run's credentials with the endpoints' own secrets; a second access token is refused. */
export function withEndpointSecrets(credentials: Credentials, secrets: [string, string][][], errors: string[]): Credentials {
  if (!secrets.some((list) => list.length > 0)) return credentials;
  if (credentials.accessTokens.length > 0 && secrets.some((list) => list.some(([name]) => name === 'access_token'))) {
    errors.push(ARGS_WORDS.endpointTokenTwice());
  }
  return { ...credentials, endpointQuery: secrets };
}

/** The runner's output with the run's secrets scrubbed from every line (core/run-config/credentials.ts):
 *  the last net under whatever a library, the hub or the tool itself may quote. */
export function scrubbedOutput(io: Output, credentials: Credentials): Output {
  if (isEmpty(credentials)) return io;
  return { out: (line) => io.out(scrubSecrets(line, credentials)), err: (line) => io.err(scrubSecrets(line, credentials)) };
}
