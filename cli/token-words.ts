/**
 * The words of --access-token-command (token-command.ts): its options' checks, why a run of the
 * command gave no token (never quoting its output, which may be the token), and each fetch's
 * expiry and refresh, in times only. Pure.
 */

export const TOKEN_WORDS = {
  refreshRange: (p: { min: number; max: number; raw: string }) => `--access-token-refresh-s must be seconds from ${p.min} to ${p.max}, but is "${p.raw}".`,
  refreshWithoutCommand: () => '--access-token-refresh-s goes with --access-token-command: add the command, or drop it.',
  commandEmpty: () => '--access-token-command is empty: give a command that prints a token, e.g. --access-token-command "az account get-access-token --query accessToken -o tsv".',
  notStarted: (p: { code: string }) => `--access-token-command could not be started (${p.code})`,
  tooLong: (p: { kib: number }) => `--access-token-command printed more than ${p.kib} KiB: it must print the token alone`,
  timedOut: (p: { seconds: number }) => `--access-token-command did not finish within ${p.seconds} s (stopped): it must print a token without asking anything`,
  exited: (p: { code: number | null }) => `--access-token-command exited with ${p.code} (its output is not shown: it may hold a secret); run it by hand to see why`,
  printedNothing: () => '--access-token-command printed nothing: it must print the token on its standard output',
  severalWords: () => '--access-token-command printed more than one word (a space or several lines): it must print the token alone, without "Bearer "',
  notHeaderText: () => '--access-token-command printed characters that cannot travel in an HTTP header: it must print the token as text',
  alreadyExpired: (p: { expiry: string }) => `--access-token-command gave a token that has already expired (${p.expiry}): check the command, and this machine's clock`,
  /** What is said of a token just fetched: its expiry (null: not a JWT with one) and the next fetch. */
  fetched: (p: { expiry: string | null; next: string }) => (p.expiry === null
    ? `it is not a JWT with an expiry; the next in ${p.next} (--access-token-refresh-s)`
    : `it expires at ${p.expiry}; the next in ${p.next}`),
  first: (p: { fetched: string }) => `live-bench: access token from --access-token-command: ${p.fetched}.`,
  /** `expiry`: when the current token expires, null when it is not a JWT with one. */
  refreshFailed: (p: { error: string; retrySeconds: number; expiry: string | null }) => `live-bench: warning: refreshing the access token failed: ${p.error}. Trying again in ${p.retrySeconds} s${p.expiry === null ? '' : `; the current token expires at ${p.expiry}`}.`,
  refreshed: (p: { count: number; fetched: string }) => `live-bench: access token refreshed (${p.count}) by --access-token-command: ${p.fetched}.`,
} as const;
