/**
 * The tool's one error type: a message for people and a code for programs. Callers tell kinds
 * apart by the code, never by the wording: the runner maps codes to exit codes (cli/output.ts),
 * the page to its wording (src/lib/problem-text.ts). Like the SignalR client's own typed errors
 * (HttpError, TimeoutError) beside it. A truly internal invariant stays a plain Error: any error
 * without a code reads as `internal` (a bug in the tool, never a verdict on the service).
 */

/**
 * - badInput: what a person typed or chose is wrong (a setting, a name); say what to change;
 * - parse: a file or answer that is not what this tool reads (not JSON, another format or version, damaged);
 * - notFound: what was asked for is no longer there (a kept run deleted in another tab);
 * - couldNotConnect: the hub or a server's page did not answer (refused the connection, no such host);
 * - refused: the hub answered and said no (a session it does not know, a method it refuses);
 * - internal: a bug in the tool.
 */
export type BenchErrorCode = 'badInput' | 'parse' | 'notFound' | 'couldNotConnect' | 'refused' | 'internal';

export class BenchError extends Error {
  override readonly name = 'BenchError';

  constructor(
    readonly code: BenchErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The code of any thrown value: a BenchError's own, `internal` for everything else. */
export function errorCodeOf(error: unknown): BenchErrorCode {
  return error instanceof BenchError ? error.code : 'internal';
}

/** The message of any thrown value. */
export function errorMessageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
