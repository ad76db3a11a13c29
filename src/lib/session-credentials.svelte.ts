/**
 * The dashboard's access token, extra query parameters and the secrets taken out of the
 * Endpoint field (`?code=…`), for this page's session only: held in memory (no storage, no link,
 * no kept run, no export), handed to each run's workers and the session's agents in their start
 * messages (core/run-config/credentials.ts), and shown as "set". Reloading the page forgets them.
 */
import { splitEndpointSecrets, endpointSecretNames, type Credentials } from '../../core/run-config/index.ts';
import { PAGE_WORDS } from './words.ts';

/** Query parameters the client sets itself: the connection token after negotiate. */
const RESERVED_QUERY = new Set(['id']);

/** "the 2nd parameter", to say which without quoting it. */
function which(index: number, count: number): string {
  if (count === 1) return 'The parameter';
  const n = index + 1;
  return `The ${n}${n === 1 ? 'st' : n === 2 ? 'nd' : n === 3 ? 'rd' : 'th'} parameter`;
}

/** The query parameters as typed: `name=value` pairs split by `&` or new lines; bad ones named
 *  by position and problem, never by a character of what was typed (it may be a key). */
export function parseQueryText(text: string, tokenGiven = false): { query: [string, string][]; problems: string[] } {
  const query: [string, string][] = [];
  const problems: string[] = [];
  const parts = text.split(/[&\n]/).map((p) => p.trim()).filter((p) => p !== '');
  parts.forEach((part, i) => {
    const equals = part.indexOf('=');
    const name = equals > 0 ? part.slice(0, equals).trim() : '';
    if (equals < 0) problems.push(PAGE_WORDS.noEquals({ which: which(i, parts.length) }));
    else if (name === '') problems.push(PAGE_WORDS.noName({ which: which(i, parts.length) }));
    else if (RESERVED_QUERY.has(name)) problems.push(PAGE_WORDS.reservedQuery({ name }));
    else if (name === 'access_token' && tokenGiven) problems.push(PAGE_WORDS.tokenInQuery());
    else query.push([name, part.slice(equals + 1).trim()]);
  });
  return { query, problems };
}

/** The Endpoint field's URLs as it splits them (core/run-config/config.ts reads them the same way). */
function endpointTexts(text: string): string[] {
  return text.split(/[\s,]+/).filter((part) => part !== '');
}

class SessionCredentials {
  accessToken = $state('');
  queryText = $state('');
  /** The secrets taken out of the Endpoint field, one list per URL in it, and the URLs they
   *  belong to (without them): a different endpoint drops them, so no secret goes to another hub. */
  #endpointSecrets = $state<{ urls: string[]; secrets: [string, string][][] }>({ urls: [], secrets: [] });

  readonly parsedQuery = $derived(parseQueryText(this.queryText, this.accessToken.trim() !== ''));
  /** The names taken out of the Endpoint field (code, sig…), each once. */
  readonly endpointSecretNames = $derived(endpointSecretNames({ endpointQuery: this.#endpointSecrets.secrets }));
  /** The Endpoint's access_token set aside for the Access token field's token. */
  readonly endpointTokenSetAside = $derived(this.accessToken.trim() !== '' && this.endpointSecretNames.includes('access_token'));

  /**
   * The Endpoint field's text without its secret query parameters, which are kept here for the
   * runs: the field, and so the link, History and exports, never hold them. An endpoint typed
   * without any keeps those held only while its URLs are the same.
   */
  takeEndpointSecrets(text: string): string {
    const texts = endpointTexts(text);
    const split = splitEndpointSecrets(texts);
    if (split.secrets.some((list) => list.length > 0)) {
      this.#endpointSecrets = split;
      // Each URL replaced where it stands, so the field keeps its separators.
      let rest = text;
      let out = '';
      texts.forEach((typed, i) => {
        const at = rest.indexOf(typed);
        out += rest.slice(0, at) + split.urls[i]!;
        rest = rest.slice(at + typed.length);
      });
      return out + rest;
    }
    const held = this.#endpointSecrets.urls;
    if (held.length > 0 && (held.length !== texts.length || held.some((url, i) => url !== texts[i]))) this.clearEndpointSecrets();
    return text;
  }

  clearEndpointSecrets(): void {
    this.#endpointSecrets = { urls: [], secrets: [] };
  }

  /** What the next run's workers get; undefined when nothing is set. */
  get credentials(): Credentials | undefined {
    const token = this.accessToken.trim();
    const query = this.parsedQuery.query;
    // The Access token field's token is the one sent as access_token: the endpoint's own gives way (said beside the field).
    const endpointQuery = this.#endpointSecrets.secrets.map((list) => (token === '' ? list : list.filter(([name]) => name !== 'access_token')));
    const fromEndpoint = endpointQuery.some((list) => list.length > 0);
    if (token === '' && query.length === 0 && !fromEndpoint) return undefined;
    return { accessTokens: token === '' ? [] : [token], headers: [], query, ...(fromEndpoint ? { endpointQuery: $state.snapshot(endpointQuery) as [string, string][][] } : {}) };
  }

  clear(): void {
    this.accessToken = '';
    this.queryText = '';
  }
}

export const sessionCredentials = new SessionCredentials();
