/** Where the runner's words go, what its exit codes mean (see USAGE in cli/args.ts), and how it writes its result files. */
import { writeFile } from 'node:fs/promises';

export interface Output {
  out(line: string): void;
  err(line: string): void;
}

export const consoleOutput: Output = { out: (line) => console.log(line), err: (line) => console.error(line) };

/** 0 passed, 1 not a pass, 2 bad input (nothing run), 3 nothing could be measured. */
export const EXIT = { passed: 0, notPassed: 1, badInput: 2, nothingMeasured: 3 } as const;

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
      io.err(`live-bench: the ${what} could not be written to ${file}: ${error instanceof Error ? error.message : String(error)}. ${whereElse}`);
    }
  }
  return ok;
}
