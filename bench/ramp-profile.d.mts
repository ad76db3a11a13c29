// Types of bench/ramp-profile.mjs, for the tests.
export function parseArgs(argv: string[]): { connections: number; clients: string[]; repeats: number; port: number; concurrency: number; frequency: number };
export function placeOf(frame: string): string;
export function packageOf(frame: string): string;
export function nearestJs(frames: readonly string[]): string | null;
export function samplesWithin(text: string, fromS: number, toS: number): string[][];
export interface Profile {
  opened: number;
  samples: string[][];
}
export function sideBySide(runner: Profile, control: Profile, key: (frames: string[]) => string, usPerSample: number): { key: string; runnerUs: number; controlUs: number }[];
