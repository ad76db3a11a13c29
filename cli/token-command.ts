/**
 * --access-token-command "<command>": a command that prints a fresh access token, run at start
 * and again before the current token expires (its JWT `exp`; else every
 * --access-token-refresh-s), so a run or a soak outlives tokens that live an hour or less.
 * Its standard output is the token and is never printed or logged; neither is its standard error
 * (it may echo the token). The expiry and each refresh are said, in times only.
 */
import { spawn } from 'node:child_process';
import { durationText, expiryText, nextRefreshDelayMs } from '../core/run-config/index.ts';
import type { Output } from './output.ts';
import { HELP_WORDS } from './help-words.ts';
import { TOKEN_WORDS } from './token-words.ts';

export interface TokenCommand {
  command: string;
  /** How often to run it when the token is not a JWT with an `exp`, s. */
  refreshSec: number;
}

export const DEFAULT_TOKEN_REFRESH_SEC = 300;
const MIN_TOKEN_REFRESH_SEC = 5;
const MAX_TOKEN_REFRESH_SEC = 86_400;
/** Longest a token command may take, ms: a command waiting on a prompt is not waited for. */
const TOKEN_COMMAND_TIMEOUT_MS = 30_000;
/** Most output read from it: a token is a few KiB. */
const MAX_TOKEN_BYTES = 64 * 1024;
/** After a failed refresh, the wait before trying again, ms (until the current token expires). */
const RETRY_MS = 5_000;

export const TOKEN_COMMAND_USAGE = HELP_WORDS.tokenCommand({ defaultRefreshSec: DEFAULT_TOKEN_REFRESH_SEC });

/** The options as given, checked; null when no command is given. */
export function tokenCommandOf(command: string | undefined, refresh: string | undefined, errors: string[]): TokenCommand | null {
  const refreshSec = refresh === undefined ? DEFAULT_TOKEN_REFRESH_SEC : Number(refresh);
  if (refresh !== undefined && (refresh.trim() === '' || !Number.isFinite(refreshSec) || refreshSec < MIN_TOKEN_REFRESH_SEC || refreshSec > MAX_TOKEN_REFRESH_SEC)) {
    errors.push(TOKEN_WORDS.refreshRange({ min: MIN_TOKEN_REFRESH_SEC, max: MAX_TOKEN_REFRESH_SEC, raw: refresh }));
  }
  if (command === undefined) {
    if (refresh !== undefined) errors.push(TOKEN_WORDS.refreshWithoutCommand());
    return null;
  }
  if (command.trim() === '') errors.push(TOKEN_WORDS.commandEmpty());
  return { command, refreshSec };
}

/** Runs the command once: its token, or why there is none (never quoting its output). */
export function fetchToken(command: string): Promise<{ token: string } | { error: string }> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', command], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let tooLong = false;
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (out.length > MAX_TOKEN_BYTES) {
        tooLong = true;
        child.kill('SIGKILL');
      }
    });
    // Read and dropped: it may echo the token.
    child.stderr.resume();
    const timer = setTimeout(() => child.kill('SIGKILL'), TOKEN_COMMAND_TIMEOUT_MS);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ error: TOKEN_WORDS.notStarted({ code: (error as { code?: string }).code ?? 'error' }) });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const token = out.trim();
      if (tooLong) resolve({ error: TOKEN_WORDS.tooLong({ kib: MAX_TOKEN_BYTES / 1024 }) });
      else if (signal) resolve({ error: TOKEN_WORDS.timedOut({ seconds: TOKEN_COMMAND_TIMEOUT_MS / 1_000 }) });
      else if (code !== 0) resolve({ error: TOKEN_WORDS.exited({ code }) });
      else if (token === '') resolve({ error: TOKEN_WORDS.printedNothing() });
      else if (/\s/.test(token)) resolve({ error: TOKEN_WORDS.severalWords() });
      else if (/[^\u0021-\u007e]/.test(token)) resolve({ error: TOKEN_WORDS.notHeaderText() });
      else resolve({ token });
    });
  });
}

/** What is said of a token just fetched: its expiry, or how often it will be fetched. */
function tokenWords(token: string, refreshSec: number, nowMs: number): string {
  const { expiresAtMs, delayMs } = nextRefreshDelayMs(token, nowMs, refreshSec);
  return TOKEN_WORDS.fetched({ expiry: expiresAtMs === null ? null : expiryText(expiresAtMs, nowMs), next: durationText(Math.round(delayMs / 1_000)) });
}

/** The first token, said with its expiry; an error to refuse the run with otherwise. */
export async function firstToken(options: TokenCommand, io: Output): Promise<{ token: string } | { error: string }> {
  const fetched = await fetchToken(options.command);
  if ('error' in fetched) return fetched;
  const { expiresAtMs } = nextRefreshDelayMs(fetched.token, Date.now(), options.refreshSec);
  if (expiresAtMs !== null && expiresAtMs <= Date.now()) return { error: TOKEN_WORDS.alreadyExpired({ expiry: expiryText(expiresAtMs, Date.now()) }) };
  io.err(TOKEN_WORDS.first({ fetched: tokenWords(fetched.token, options.refreshSec, Date.now()) }));
  return fetched;
}

/**
 * Fetches a fresh token before the current one expires, again and again until stopped; each
 * goes to `onToken` (the run's coordinator) and is said, without the token. A failed fetch is
 * said and tried again every few seconds while the current token lasts.
 */
export function refreshTokens(options: TokenCommand, first: string, io: Output, onToken: (token: string) => void): () => void {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let refreshes = 0;
  const schedule = (delayMs: number, current: string) => {
    if (stopped) return;
    timer = setTimeout(() => void refresh(current), delayMs);
    timer.unref?.();
  };
  const refresh = async (current: string) => {
    const fetched = await fetchToken(options.command);
    if (stopped) return;
    if ('error' in fetched) {
      const { expiresAtMs } = nextRefreshDelayMs(current, Date.now(), options.refreshSec);
      io.err(TOKEN_WORDS.refreshFailed({ error: fetched.error, retrySeconds: RETRY_MS / 1_000, expiry: expiresAtMs === null ? null : expiryText(expiresAtMs, Date.now()) }));
      schedule(RETRY_MS, current);
      return;
    }
    refreshes++;
    onToken(fetched.token);
    io.err(TOKEN_WORDS.refreshed({ count: refreshes, fetched: tokenWords(fetched.token, options.refreshSec, Date.now()) }));
    schedule(nextRefreshDelayMs(fetched.token, Date.now(), options.refreshSec).delayMs, fetched.token);
  };
  schedule(nextRefreshDelayMs(first, Date.now(), options.refreshSec).delayMs, first);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
