/**
 * The dashboard's access token and extra query parameters, for this page's session only: held
 * in memory (no storage, no link, no kept run, no export), handed to each run's workers and the
 * session's agents in their start messages (core/run/credentials.ts), and shown as "token set".
 * Reloading the page forgets them.
 */
import type { Credentials } from '../../core/run/index.ts';

/** The query parameters as typed: `name=value` pairs split by `&` or new lines; bad ones named. */
export function parseQueryText(text: string): { query: [string, string][]; problems: string[] } {
  const query: [string, string][] = [];
  const problems: string[] = [];
  for (const part of text.split(/[&\n]/).map((p) => p.trim()).filter((p) => p !== '')) {
    const equals = part.indexOf('=');
    const name = equals > 0 ? part.slice(0, equals).trim() : '';
    if (name === '') problems.push(`"${part.slice(0, 40)}" is not name=value.`);
    else if (name === 'access_token') problems.push('access_token is how the client sends the token itself: put the token in the Access token field.');
    else query.push([name, part.slice(equals + 1).trim()]);
  }
  return { query, problems };
}

class SessionCredentials {
  accessToken = $state('');
  queryText = $state('');

  readonly parsedQuery = $derived(parseQueryText(this.queryText));

  /** What the next run's workers get; undefined when nothing is set. */
  get credentials(): Credentials | undefined {
    const token = this.accessToken.trim();
    const query = this.parsedQuery.query;
    if (token === '' && query.length === 0) return undefined;
    return { accessTokens: token === '' ? [] : [token], headers: [], query };
  }

  clear(): void {
    this.accessToken = '';
    this.queryText = '';
  }
}

export const sessionCredentials = new SessionCredentials();
