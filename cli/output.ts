/** Where the runner's words go, what its exit codes mean (see USAGE in cli/args.ts), and how it writes its result files. */
import { writeFile } from 'node:fs/promises';
import { errorCodeOf, errorMessageOf, type BenchErrorCode } from '../core/errors/index.ts';
import { RUN_WORDS } from './run-words.ts';

export interface Output {
  out(line: string): void;
  err(line: string): void;
}

export const consoleOutput: Output = { out: (line) => console.log(line), err: (line) => console.error(line) };

/** 0 passed, 1 not a pass, 2 bad input (nothing run), 3 nothing could be measured, 4 the runner
 *  itself failed (an internal error: never a verdict on the service). */
export const EXIT = { passed: 0, notPassed: 1, badInput: 2, nothingMeasured: 3, crashed: 4 } as const;

/** The exit code of an error that ends the runner, by its code (core/errors/): what a person gave
 *  it (a setting, a file) is bad input; a hub that did not answer or said no leaves nothing measured;
 *  anything else is the runner's own failure. */
const EXIT_BY_CODE: Record<BenchErrorCode, number> = {
  badInput: EXIT.badInput,
  parse: EXIT.badInput,
  notFound: EXIT.badInput,
  couldNotConnect: EXIT.nothingMeasured,
  refused: EXIT.nothingMeasured,
  internal: EXIT.crashed,
};

export function exitCodeOf(error: unknown): number {
  return EXIT_BY_CODE[errorCodeOf(error)];
}

/**
 * The runner's top level (bin/live-bench.js): runs `main` and turns an error that escapes it into
 * its exit code (exitCodeOf) with its message: 4 for an internal error, so a CI job can tell the
 * tool's failure from a failed run (exit 1).
 */
export async function runCli(main: (argv: string[], io: Output) => Promise<number>, argv: string[], io: Output = consoleOutput): Promise<number> {
  try {
    return await main(argv, io);
  } catch (error) {
    const code = exitCodeOf(error);
    io.err(code === EXIT.crashed ? crashText(error) : `live-bench: ${errorMessageOf(error)}`);
    return code;
  }
}

/** "live-bench: internal error: …" with the stack's first frames, for a bug report. */
export function crashText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const frames = error instanceof Error && error.stack ? error.stack.split('\n').slice(1, 4).map((line) => line.trim()).join(' | ') : '';
  return RUN_WORDS.crashed({ code: EXIT.crashed, message, frames });
}

/** A result file: what it is (for messages), where (null: not asked for) and its text, made only when written. */
export type ResultFile = [what: string, file: string | null, content: () => string];

/**
 * Writes each file even when another fails, and says each failure with `whereElse` (where the
 * figures can still be read). Returns whether every file asked for was written.
 */
export async function writeResultFiles(files: readonly ResultFile[], io: Output, whereElse: string): Promise<boolean> {
  let ok = true;
  for (const [what, file, content] of files) {
    if (!file) continue;
    try {
      await writeFile(file, content());
    } catch (error) {
      ok = false;
      io.err(RUN_WORDS.notWritten({ what, file, why: error instanceof Error ? error.message : String(error), whereElse }));
    }
  }
  return ok;
}
