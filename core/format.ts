/** Formatting for people: milliseconds with sensible precision, counts with separators. */

export function formatMs(us: number): string {
  const ms = us / 1_000;
  if (ms < 10) return `${ms.toFixed(2)} ms`;
  if (ms < 1_000) return `${ms.toFixed(1)} ms`;
  return `${(ms / 1_000).toFixed(2)} s`;
}

/** A signed time, e.g. a clock offset: "+1.20 ms", "-3.00 s" (formatMs scales only positive ones). */
export function formatSignedMs(us: number): string {
  return `${us < 0 ? '-' : '+'}${formatMs(Math.abs(us))}`;
}

export function formatCount(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** Bytes in binary units, as the guide counts them (1 KB = 1,024 B). */
export function formatBytes(bytes: number): string {
  if (bytes < 1_024) return `${Math.round(bytes)} B`;
  if (bytes < 1_024 * 1_024) return `${(bytes / 1_024).toFixed(1)} KB`;
  if (bytes < 1_024 ** 3) return `${(bytes / 1_024 ** 2).toFixed(1)} MB`;
  return `${(bytes / 1_024 ** 3).toFixed(2)} GB`;
}

/** "99.50%": floored to two decimals, so a failing 98.999% never reads as 99.00%. */
export function formatShare(share: number): string {
  const hundredths = Math.floor(share * 10_000 + 1e-6);
  return `${(hundredths / 100).toFixed(2)}%`;
}
