/** A run's secrets: which token a connection takes, the query on the URL, how they are shown, and how error texts lose them. */
import { describe, expect, it } from 'vitest';
import {
  credentialsFor,
  credentialsSummary,
  scrubSecrets,
  SECRET_QUERY_NAMES,
  splitEndpointSecrets,
  withQuery,
  type Credentials,
} from '../../core/run-config/credentials.ts';
import { classifySignalRError } from '../../signalr/errors.ts';
import { parseQueryText, sessionCredentials } from '../../src/lib/session-credentials.svelte.ts';

const three: Credentials = { accessTokens: ['token-one', 'token-two', 'token-three'], headers: [['X-Api-Key', 'gateway-key-1']], query: [['code', 'function-key-9']] };
const context = { endpointUrl: 'http://127.0.0.1:8000/signalrbench', transport: 'WebSockets', protocol: 'json', reconnect: false } as const;

describe('credentials', () => {
  it('connection i takes token i mod n; nothing set gives nothing', () => {
    expect([0, 1, 2, 3, 7].map((i) => credentialsFor(three, i)?.accessToken)).toEqual(['token-one', 'token-two', 'token-three', 'token-one', 'token-two']);
    expect(credentialsFor({ accessTokens: [], headers: [], query: [] }, 0)).toBeUndefined();
    expect(credentialsFor(undefined, 0)).toBeUndefined();
    expect(credentialsFor({ accessTokens: [], headers: [['A', 'b']], query: [] }, 4)).toEqual({ accessToken: null, headers: [['A', 'b']], query: [] });
  });

  it('appends the query to the endpoint, keeping what it had', () => {
    expect(withQuery('http://h/hub?x=1', [['code', 'a b&c']])).toBe('http://h/hub?x=1&code=a+b%26c');
    expect(withQuery('http://h/hub', [])).toBe('http://h/hub');
  });

  it('is shown as set, with names but never values', () => {
    const summary = credentialsSummary(three)!;
    expect(summary).toBe('3 tokens set (one per user, by connection); headers X-Api-Key; query code');
    for (const secret of ['token-one', 'gateway-key-1', 'function-key-9']) expect(summary).not.toContain(secret);
    expect(credentialsSummary({ accessTokens: ['t'], headers: [], query: [] })).toBe('token set');
    expect(credentialsSummary(undefined)).toBeNull();
  });

  it('takes tokens, header and query values out of a text, as typed and URL-encoded, and any access_token in a URL', () => {
    const text = 'ws://h/hub?id=1&access_token=eyJabc.def-ghi&code=function-key-9 failed; Authorization: Bearer abc.def; key gateway-key-1, token-two; ' + encodeURIComponent('token three/x');
    const scrubbed = scrubSecrets(text, { ...three, accessTokens: [...three.accessTokens, 'token three/x'] });
    expect(scrubbed).toBe('ws://h/hub?id=1&access_token=[hidden]&code=[hidden] failed; Authorization: Bearer [hidden]; key [hidden], [hidden]; [hidden]');
  });

  it('a SignalR error quoting a WebSocket URL loses the token in the worded failure', () => {
    const error = new Error('WebSocket failed to connect. ws://127.0.0.1:8000/signalrbench?id=abc&access_token=secret-token-value');
    const { message } = classifySignalRError(error, { ...context, credentials: { accessToken: 'secret-token-value', headers: [], query: [] } });
    expect(message).not.toContain('secret-token-value');
    expect(message).toContain('access_token=[hidden]');
  });
});

describe('the dashboard\'s extra query parameters', () => {
  it('reads name=value pairs split by & or lines, and names the bad ones', () => {
    expect(parseQueryText('a=1&b=two\n c = 3 ')).toEqual({ query: [['a', '1'], ['b', 'two'], ['c', '3']], problems: [] });
    expect(parseQueryText('QSECRET-1&=QSECRET-2&id=QSECRET-3&access_token=QSECRET-4', true).problems).toEqual([
      'The 1st parameter has no "=": give each as name=value.',
      'The 2nd parameter has no name before its "=": give each as name=value.',
      "id is the client's own parameter (the connection's token after negotiate): drop it.",
      'access_token is how the client sends the token itself: give the token once, in the Access token field.',
    ]);
    expect(parseQueryText('access_token=mine').problems).toEqual([]);
  });
});

describe("the dashboard's Endpoint field", () => {
  it('loses its secrets to the session, keeps its separators, and a different endpoint drops them', () => {
    const typed = 'http://h1/api/hub?code=page-secret-1,\nhttp://h2/api/hub?x=1&sig=page-secret-2';
    expect(sessionCredentials.takeEndpointSecrets(typed)).toBe('http://h1/api/hub,\nhttp://h2/api/hub?x=1');
    expect(sessionCredentials.endpointSecretNames).toEqual(['code', 'sig']);
    expect(sessionCredentials.credentials).toEqual({ accessTokens: [], headers: [], query: [], endpointQuery: [[['code', 'page-secret-1']], [['sig', 'page-secret-2']]] });
    // The same URLs typed again (a blur with no change) keep them; another hub drops them.
    expect(sessionCredentials.takeEndpointSecrets('http://h1/api/hub, http://h2/api/hub?x=1')).toBe('http://h1/api/hub, http://h2/api/hub?x=1');
    expect(sessionCredentials.endpointSecretNames).toEqual(['code', 'sig']);
    sessionCredentials.takeEndpointSecrets('http://other/hub');
    expect(sessionCredentials.credentials).toBeUndefined();
    // Its access_token beside the Access token field's: the field's goes, said beside the Endpoint.
    sessionCredentials.takeEndpointSecrets('http://h/hub?access_token=endpoint-token&code=c0de');
    sessionCredentials.accessToken = 'field-token';
    expect(sessionCredentials.credentials?.endpointQuery).toEqual([[['code', 'c0de']]]);
    expect(sessionCredentials.endpointTokenSetAside).toBe(true);
    sessionCredentials.clear();
    sessionCredentials.clearEndpointSecrets();
  });
});

describe('401 and 403 worded for what to do', () => {
  const refused = (status: number) => Object.assign(new Error(`Failed to complete negotiation with the server: Error: Unauthorized: Status code '${status}'`), { errorType: 'FailedToNegotiateWithServerError', statusCode: status });
  const withToken = { ...context, credentials: { accessToken: 'tok-123456', headers: [], query: [] } };

  it('401 without a token: where to give one', () => {
    const { kind, message } = classifySignalRError(refused(401), context);
    expect(kind).toBe('negotiate');
    expect(message).toContain('The hub needs authentication (401 at negotiate) and no access token was given. Give one with the runner\'s --access-token-file <file>');
    expect(message).toContain('Advanced → Authentication');
  });

  it('401 with a token: refused, give a fresh one', () => {
    expect(classifySignalRError(refused(401), withToken).message).toContain('The hub refused the access token (401 at negotiate): it is expired, wrong, or for another hub');
  });

  it('403 with and without a token', () => {
    expect(classifySignalRError(refused(403), withToken).message).toContain('the token was accepted, but its user may not use this hub, or the hub refuses this origin');
    expect(classifySignalRError(refused(403), context).message).toContain('it may need a token whose user has the right, or refuse this origin');
  });

  it('a token refused on the WebSocket upgrade, as Node says it', () => {
    const error = Object.assign(new Error('Unable to connect to the server with any of the available transports. FailedToStartTransportError: WebSockets failed: Error: Unexpected server response: 401'), {});
    const { kind, message } = classifySignalRError(error, withToken);
    expect(kind).toBe('transport');
    expect(message).toContain('The hub refused the WebSocket upgrade with 401/403 after negotiate accepted the client');
    const browserLike = classifySignalRError(new Error('Unable to connect to the server with any of the available transports. Error: WebSockets failed: Error: WebSocket failed to connect.'), withToken).message;
    expect(browserLike).toContain('Negotiate accepted this client, then the WebSockets connection was refused');
  });
});

describe('an endpoint carrying a credential', () => {
  it('is refused without quoting it, pointing at where a token goes', async () => {
    const { validateRunConfig } = await import('../../core/run-config/config.ts');
    const refusals = {
      'http://h:5180/hub?access_token=secret-in-url': /^Endpoint http:\/\/h:5180\/hub carries access_token in its query, a secret .* the page takes it out/,
      'http://h:5180/hub?x=1&CODE=secret-in-url': /^Endpoint http:\/\/h:5180\/hub carries CODE in its query/,
      'http://user:secret-in-url@h:5180/hub': /^Endpoint http:\/\/h:5180\/hub carries a user name and password, .* give a token in Advanced → Authentication/,
      'htp//h:5180/hub?sig=secret-in-url': /^Endpoint "htp\/\/h:5180\/hub\?sig=\[hidden\]" is not a URL/,
      'http://h:5180/hub?id=secret-in-url': /^Endpoint http:\/\/h:5180\/hub has id in its query, which the client sets itself/,
    };
    for (const [endpointUrl, pattern] of Object.entries(refusals)) {
      const result = validateRunConfig({ endpointUrl });
      expect(result.ok).toBe(false);
      const errors = (result as { errors: string[] }).errors;
      expect(errors[0]).toMatch(pattern);
      expect(errors.join()).not.toContain('secret-in-url');
    }
    expect(validateRunConfig({ endpointUrl: 'http://h/hub?tenant=ok' }).ok).toBe(true);
  });
});

describe("the endpoint's own secrets", () => {
  it('are split off by name (any case, --secret-query names too), the rest of the URL kept as typed', () => {
    expect(splitEndpointSecrets(['http://h/api/hub?code=k%2B1==&x=a%20b#f', 'http://h2/hub', 'not a url?sig=s&Token=t'], ['tenant-key'])).toEqual({
      urls: ['http://h/api/hub?x=a%20b#f', 'http://h2/hub', 'not a url'],
      secrets: [[['code', 'k+1==']], [], [['sig', 's'], ['Token', 't']]],
    });
    expect(splitEndpointSecrets(['http://h/hub?tenant-key=v&apikey=w&keep=1'], ['tenant-key'])).toEqual({ urls: ['http://h/hub?keep=1'], secrets: [[['tenant-key', 'v'], ['apikey', 'w']]] });
    for (const name of SECRET_QUERY_NAMES) expect(splitEndpointSecrets([`http://h/hub?${name}=v`]).urls).toEqual(['http://h/hub']);
  });

  it('each connection adds its own instance\'s secrets before the extra query; shown as set by name', () => {
    const credentials: Credentials = { accessTokens: [], headers: [], query: [['probe', 'p']], endpointQuery: [[['code', 'first-code']], [['code', 'second-code']]] };
    expect([0, 1, 2].map((i) => credentialsFor(credentials, i)?.query)).toEqual([[['code', 'first-code'], ['probe', 'p']], [['code', 'second-code'], ['probe', 'p']], [['code', 'first-code'], ['probe', 'p']]]);
    expect(credentialsSummary(credentials)).toBe("query probe; the endpoint's code set (taken out of its URL)");
    expect(credentialsSummary({ accessTokens: [], headers: [], query: [], endpointQuery: [[['sig', 'x']]] })).toBe("the endpoint's sig set (taken out of its URL)");
  });
});

describe('the one scrub of error texts', () => {
  const secrets: Credentials = {
    accessTokens: ['eyJhbGciOiJIUzI1NiJ9.payload-part.signature_part'],
    headers: [['X-Api-Key', 'gateway key/with+plus & more']],
    query: [['probe', 'query value ~!*()\'']],
    profileEnv: [['PASSWORD', 'profile-password-42']],
    endpointQuery: [[['code', 'func/key+9==']]],
  };
  const values = [...secrets.accessTokens, 'gateway key/with+plus & more', "query value ~!*()'", 'profile-password-42', 'func/key+9=='];

  it('takes every value out as typed, URL-encoded and form-encoded, and the first 8 characters of the longer ones', () => {
    for (const value of values) {
      const form = new URLSearchParams({ v: value }).toString().slice(2);
      const text = `plain ${value}; url ${encodeURIComponent(value)}; form ${form}; cut ${value.slice(0, 10)}…; end`;
      if (value.length > 12) expect(scrubSecrets(`cut ${value.slice(0, 12)}… end`, secrets)).toBe('cut [hidden]… end');
      const scrubbed = scrubSecrets(text, secrets);
      expect(scrubbed).not.toContain(value);
      expect(scrubbed).not.toContain(encodeURIComponent(value));
      expect(scrubbed).not.toContain(form);
      if (value.length > 12) expect(scrubbed).not.toContain(value.slice(0, 8));
      expect(scrubbed).toMatch(/^plain \[hidden\]; url \[hidden\]; form \[hidden\]; cut /);
    }
  });

  it('hides a known secret parameter in any URL, credentials known or not', () => {
    expect(scrubSecrets('GET http://h/api/hub/negotiate?code=abc123&negotiateVersion=1 and wss://x/client/?hub=h&sig=s1g&asrs.op=1')).toBe('GET http://h/api/hub/negotiate?code=[hidden]&negotiateVersion=1 and wss://x/client/?hub=h&sig=[hidden]&asrs.op=1');
  });
});
