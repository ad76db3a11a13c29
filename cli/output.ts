/** Where the runner's words go, and what its exit codes mean (see USAGE in cli/args.ts). */
export interface Output {
  out(line: string): void;
  err(line: string): void;
}

export const consoleOutput: Output = { out: (line) => console.log(line), err: (line) => console.error(line) };

/** 0 passed, 1 not a pass, 2 bad input (nothing run), 3 nothing could be measured. */
export const EXIT = { passed: 0, notPassed: 1, badInput: 2, nothingMeasured: 3 } as const;
