/** The runner's options for a protected hub: where the token comes from, headers and query, and every refusal worded without the secret. */
import { describe, expect, it } from 'vitest';
import { credentialsOf, scrubbedOutput } from '../../cli/auth-args.ts';
import { parseCliArgs } from '../../cli/args.ts';

const files: Record<string, string> = { 'users.txt': 'alpha-token\r\nbeta-token\n\n gamma-token \n', 'empty.txt': '\n \n', 'binary.bin': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff]).toString('utf8') };
const read = (file: string) => {
  if (file in files) return files[file]!;
  throw Object.assign(new Error('nope'), { code: 'ENOENT' });
};

function parse(v: Parameters<typeof credentialsOf>[0], env: NodeJS.ProcessEnv = {}) {
  const errors: string[] = [];
  return { credentials: credentialsOf(v, errors, env, read), errors };
}

describe('credentialsOf', () => {
  it('a token file holds one token per line (blank lines and spaces around dropped)', () => {
    expect(parse({ 'access-token-file': 'users.txt' })).toEqual({ credentials: { accessTokens: ['alpha-token', 'beta-token', 'gamma-token'], headers: [], query: [] }, errors: [] });
  });

  it('from an environment variable, or the command line', () => {
    expect(parse({ 'access-token-env': 'TOKEN' }, { TOKEN: 'env-token' }).credentials.accessTokens).toEqual(['env-token']);
    expect(parse({ 'access-token': 'cli-token' }).credentials.accessTokens).toEqual(['cli-token']);
  });

  it('headers and query parameters, repeatable', () => {
    expect(parse({ header: ['X-Api-Key: k1: with colon', 'X-Other:v2'], query: ['code=abc=', 'x='] }).credentials).toEqual({
      accessTokens: [], headers: [['X-Api-Key', 'k1: with colon'], ['X-Other', 'v2']], query: [['code', 'abc='], ['x', '']],
    });
  });

  it('refuses what cannot work, saying what to do and never the secret', () => {
    const { errors } = parse({ 'access-token-env': 'MISSING' });
    expect(errors).toEqual(['--access-token-env MISSING: the environment variable MISSING is not set. Export the token in it, or use --access-token-file.']);
    expect(parse({ 'access-token-file': 'empty.txt' }).errors).toEqual(['--access-token-file empty.txt has no token in it: put one token per line.']);
    expect(parse({ 'access-token-file': 'gone.txt' }).errors).toEqual(['--access-token-file gone.txt cannot be read (ENOENT): give a file with one token per line.']);
    const bearer = parse({ 'access-token': 'Bearer secret-xyz' }).errors;
    expect(bearer).toEqual(['An access token contains a space: give the token alone, without "Bearer " (the client adds it).']);
    expect(parse({ header: ['Host: x'] }).errors).toEqual(['--header Host: the client sets this header itself; drop it.']);
    expect(parse({ header: ['novalue'] }).errors).toEqual(['--header has no colon: give each header as --header "Name: value", e.g. --header "X-Api-Key: <key>".']);
  });

  it('refuses every malformed header, query and token by its flag and problem, never a character of the value', () => {
    const token = { 'access-token': 'tok-value-1234567' };
    const cases: [Parameters<typeof credentialsOf>[0], string][] = [
      [{ header: ['X-Probe: HDRSECRET-1\r\nX-Evil: 1'] }, '--header holds a line break (CR or LF), which would end the header and start another: give one header per --header, on one line.'],
      [{ header: ['X-Ok: fine', 'X-Probe: HDRSECRET-1\nX-Evil: 1'] }, 'the 2nd --header holds a line break (CR or LF), which would end the header and start another: give one header per --header, on one line.'],
      [{ header: ['X-Probe HDRSECRET-1'] }, '--header has no colon: give each header as --header "Name: value", e.g. --header "X-Api-Key: <key>".'],
      [{ header: ['HDRSECRET one: 1'] }, '--header has no header name before its colon (letters, digits and - only): give it as --header "Name: value".'],
      [{ header: ['Authorization: Bearer HDRSECRET-1'], ...token }, '--header Authorization: the client sends the access token in it (Bearer); give the token once, with --access-token-file, or drop the header.'],
      [{ header: ['Connection: HDRSECRET-1'] }, '--header Connection: the client sets this header itself; drop it.'],
      [{ header: ['Upgrade: HDRSECRET-1'] }, '--header Upgrade: the client sets this header itself; drop it.'],
      [{ header: ['Sec-WebSocket-Key: HDRSECRET-1'] }, '--header Sec-WebSocket-Key: the client sets this header itself; drop it.'],
      [{ header: ['X-Key: HDRSECRET-\u0001'] }, "--header X-Key's value holds bytes that are not text (control characters or bytes that are not UTF-8: a binary file?): give one line of text."],
      [{ header: ['X-Key: HDRSECRET-\u20ac'] }, "--header X-Key's value holds characters beyond Latin-1, which an HTTP header cannot carry: give one line of text."],
      [{ query: ['QRYSECRET-1'] }, '--query has no "=": give each parameter as --query name=value, e.g. --query code=<value>.'],
      [{ query: ['=QRYSECRET-1'] }, '--query has no name before its "=": give it as --query name=value.'],
      [{ query: ['id=QRYSECRET-1'] }, '--query id: the client sets this parameter itself (the connection\'s token after negotiate); drop it.'],
      [{ query: ['access_token=QRYSECRET-1'], ...token }, '--query access_token: the client sends the access token in it itself; give the token once, with --access-token-file, or drop the parameter.'],
      [{ 'access-token-file': 'binary.bin' }, 'An access token holds bytes that are not text (control characters or bytes that are not UTF-8: a binary file?): give the tokens as text, one per line.'],
      [{ 'access-token': 'TOKSECRET\r\nX: 1' }, 'An access token holds a line break (CR or LF), which would end the HTTP header it travels in: give the token alone.'],
    ];
    for (const [values, error] of cases) {
      const { errors } = parse(values);
      expect(errors).toEqual([error]);
      for (const secret of ['HDRSECRET', 'QRYSECRET', 'TOKSECRET', 'tok-value']) expect(errors.join()).not.toContain(secret);
    }
    // A token command gives a token too, though only at start.
    const command = { 'access-token-command': 'cat token.txt' };
    expect(parse({ header: ['Authorization: Bearer HDRSECRET-1'], ...command }).errors).toEqual(['--header Authorization: the client sends the access token in it (Bearer); give the token once, with --access-token-file, or drop the header.']);
    expect(parse({ query: ['access_token=QRYSECRET-1'], ...command }).errors).toEqual(['--query access_token: the client sends the access token in it itself; give the token once, with --access-token-file, or drop the parameter.']);
    // Without a token, access_token is the user's own parameter; Authorization their own header.
    expect(parse({ query: ['access_token=mine'], header: ['Authorization: Basic eA=='] }).errors).toEqual([]);
  });
});

describe('parseCliArgs with authentication', () => {
  it('two ways of giving the token: exit 2 naming both', () => {
    const parsed = parseCliArgs(['--endpoint', 'http://h/hub', '--access-token-file', 'f', '--access-token', 'secret-1']);
    expect(parsed.ok).toBe(false);
    const errors = (parsed as { errors: string[] }).errors;
    expect(errors).toContain('--access-token-file and --access-token are both ways to give the access token, and a run takes one: keep one (--access-token-file holds one token per user).');
    expect(errors.join()).not.toContain('secret-1');
  });

  it('the credentials are beside the run configuration, never in it', () => {
    const parsed = parseCliArgs(['--endpoint', 'http://h/hub', '--access-token', 'secret-2', '--header', 'X-K: secret-3', '--query', 'code=secret-4']);
    expect(parsed.ok).toBe(true);
    const options = (parsed as { options: { config: unknown; credentials: unknown } }).options;
    expect(options.credentials).toEqual({ accessTokens: ['secret-2'], headers: [['X-K', 'secret-3']], query: [['code', 'secret-4']] });
    expect(JSON.stringify(options.config)).not.toMatch(/secret/);
  });

  it("the endpoint's own secrets are taken out of it into the credentials, per instance, known names and --secret-query", () => {
    const parsed = parseCliArgs(['--endpoint', 'http://h1/api/hub?code=secret-5&x=1,http://h2/api/hub?x=1&Sig=secret-6&subscription-key=secret-7', '--secret-query', 'subscription-key']);
    expect(parsed.ok).toBe(true);
    const options = (parsed as { options: { config: { endpointUrl: string; endpointUrls: string[] }; credentials: unknown } }).options;
    expect(options.config.endpointUrls).toEqual(['http://h1/api/hub?x=1', 'http://h2/api/hub?x=1']);
    expect(options.credentials).toEqual({ accessTokens: [], headers: [], query: [], endpointQuery: [[['code', 'secret-5']], [['Sig', 'secret-6'], ['subscription-key', 'secret-7']]] });
    expect(JSON.stringify(options.config)).not.toMatch(/secret/);
  });

  it("a malformed endpoint is refused without its secret; access_token in it beside a token is refused", () => {
    const bad = parseCliArgs(['--endpoint', 'ftp://h/hub?code=secret-8']);
    expect((bad as { errors: string[] }).errors.join()).toContain('Endpoint "ftp://h/hub" uses ftp');
    const both = parseCliArgs(['--endpoint', 'http://h/hub?access_token=secret-9', '--access-token', 'secret-10']);
    expect((both as { errors: string[] }).errors).toEqual(['--endpoint carries access_token in its query, and an access token is given too: the client sends the given one there. Drop one of them.']);
    expect(JSON.stringify(both)).not.toMatch(/secret/);
  });
});

describe('the runner\'s output', () => {
  it('every line passes the one scrub of the run\'s secrets; without secrets it is the output itself', () => {
    const lines: string[] = [];
    const io = { out: (line: string) => lines.push(`out ${line}`), err: (line: string) => lines.push(`err ${line}`) };
    const scrubbed = scrubbedOutput(io, { accessTokens: ['token-value-123456'], headers: [], query: [], endpointQuery: [[['code', 'endpoint code/1']]] });
    scrubbed.out('opened http://h/hub?code=endpoint%20code%2F1 with token-value-123456');
    scrubbed.err('a library quoted token-va… and endpoint+code%2F1');
    expect(lines).toEqual(['out opened http://h/hub?code=[hidden] with [hidden]', 'err a library quoted [hidden]… and [hidden]']);
    expect(scrubbedOutput(io, { accessTokens: [], headers: [], query: [] })).toBe(io);
  });
});
