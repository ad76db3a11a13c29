/** Formatting for people: milliseconds with sensible precision, counts with separators. */

export function formatMs(us: number): string {
  const ms = us / 1_000;
  if (ms < 10) return `${ms.toFixed(2)} ms`;
  if (ms < 1_000) return `${ms.toFixed(1)} ms`;
  return `${(ms / 1_000).toFixed(2)} s`;
}

export function formatCount(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}
