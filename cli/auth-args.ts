/**
 * The runner's options for a protected deployment: access tokens (a file, an environment
 * variable, or the command line), extra headers and query parameters. They become the run's
 * Credentials (core/run/credentials.ts), which no result, report or message keeps.
 */
import { readFileSync } from 'node:fs';
import { NO_CREDENTIALS, type Credentials } from '../core/run/index.ts';

export const AUTH_OPTIONS = {
  'access-token-file': { type: 'string' },
  'access-token-env': { type: 'string' },
  'access-token': { type: 'string' },
  header: { type: 'string', multiple: true },
  query: { type: 'string', multiple: true },
} as const;

export const AUTH_USAGE = `Pointing it at a protected deployment (nothing of these is kept in results or reports)
  --access-token-file <file> access token for every connection; one token per line makes a run of
                            many users (connection i takes line i mod n)
  --access-token-env <VAR>  access token from an environment variable
  --access-token <token>    access token on the command line (visible in the shell's history
                            and to other users of this machine: prefer the two above)
  --header "Name: value"    extra header on negotiate and HTTP requests and on the WebSocket
                            upgrade (repeatable), e.g. an API gateway's key
  --query name=value        extra query parameter on the hub URL (repeatable)`;

/** Header names the client sets itself, or that would break the connection if overridden. */
const RESERVED_HEADERS = new Set(['host', 'content-length', 'connection', 'upgrade', 'transfer-encoding']);

export interface AuthValues {
  'access-token-file'?: string;
  'access-token-env'?: string;
  'access-token'?: string;
  header?: string[];
  query?: string[];
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
    if (/\s/.test(token)) {
      errors.push('An access token contains a space: give the token alone, without "Bearer " (the client adds it).');
      break;
    }
  }
  const headers: [string, string][] = [];
  for (const raw of v.header ?? []) {
    const colon = raw.indexOf(':');
    const name = colon > 0 ? raw.slice(0, colon).trim() : '';
    if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name)) {
      errors.push(`--header "${colon > 0 ? name : raw.slice(0, 40)}…" is not "Name: value": give each header as --header "X-Api-Key: <value>".`);
    } else if (RESERVED_HEADERS.has(name.toLowerCase())) {
      errors.push(`--header ${name}: the client sets this header itself; drop it.`);
    } else {
      headers.push([name, raw.slice(colon + 1).trim()]);
    }
  }
  const query: [string, string][] = [];
  for (const raw of v.query ?? []) {
    const equals = raw.indexOf('=');
    if (equals <= 0) errors.push(`--query "${raw.slice(0, 40)}" is not name=value: give each parameter as --query code=<value>.`);
    else if (raw.slice(0, equals) === 'access_token') errors.push('--query access_token=… is how the client sends the token itself: give the token with --access-token-file instead.');
    else query.push([raw.slice(0, equals), raw.slice(equals + 1)]);
  }
  if (accessTokens.length === 0 && headers.length === 0 && query.length === 0) return NO_CREDENTIALS;
  return { accessTokens, headers, query };
}
