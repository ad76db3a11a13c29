/** The runner's options for a protected hub: where the token comes from, headers and query, and every refusal worded without the secret. */
import { describe, expect, it } from 'vitest';
import { credentialsOf } from '../../cli/auth-args.ts';
import { parseCliArgs } from '../../cli/args.ts';

const files: Record<string, string> = { 'users.txt': 'alpha-token\r\nbeta-token\n\n gamma-token \n', 'empty.txt': '\n \n' };
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
    expect(parse({ header: ['novalue'] }).errors[0]).toMatch(/^--header "novalue…" is not "Name: value"/);
    expect(parse({ query: ['access_token=secret-abc'] }).errors.join()).not.toContain('secret-abc');
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
});
