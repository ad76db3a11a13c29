// Types of bench/tool/lib/rounds.mjs, for the tests.
export function median(values: readonly number[]): number | null;
export function seededRandom(seed: number): () => number;
export interface MedianRatio { ratio: number; low: number; high: number }
export function medianRatio(a: readonly number[], b: readonly number[], options?: { resamples?: number; confidence?: number; seed?: number }): MedianRatio | null;
export interface RoundStep { client: string; p99Ms?: number; holds: boolean; error?: string }
export interface ClientRounds {
  client: string;
  p99sMs: number[];
  medianP99Ms: number | null;
  failedRounds: number;
  errors: number;
  againstBaseline: MedianRatio | null;
}
export function summariseRounds(steps: readonly RoundStep[], baseline: string): ClientRounds[];
