/** Formatting for people: milliseconds with sensible precision, counts with separators, bytes in the guide's units. */
import { GUIDE_BYTES } from './guide/index.ts';

/** "1.20 ms", "12.3 ms", "1.50 s"; "–" for an unknown time (null). */
export function formatMs(us: number | null): string {
  if (us === null) return '–';
  const ms = us / 1_000;
  if (ms < 10) return `${ms.toFixed(2)} ms`;
  if (ms < 1_000) return `${ms.toFixed(1)} ms`;
  return `${(ms / 1_000).toFixed(2)} s`;
}

/** A signed time, e.g. a clock offset: "+1.20 ms", "-3.00 s" (formatMs scales only positive ones). */
export function formatSignedMs(us: number): string {
  return `${us < 0 ? '-' : '+'}${formatMs(Math.abs(us))}`;
}

/** Made once: `toLocaleString` builds a new formatter on every call. */
const countFormat = new Intl.NumberFormat('en-US');

export function formatCount(n: number): string {
  return countFormat.format(Math.round(n));
}

/**
 * Bytes in the guide's own units, the one convention of every page, report and runner line:
 * 1 KB = 1,024 B and 1 MB = 1,000 KB = 1,024,000 B (core/guide/units.ts GUIDE_BYTES; the guide's
 * "2 MBps" is 1,000 connections x 2,048 B a second), 1 GB = 1,000 MB.
 */
export function formatBytes(bytes: number): string {
  const { bytesPerKB, bytesPerMB } = GUIDE_BYTES;
  if (bytes < bytesPerKB) return `${Math.round(bytes)} B`;
  if (bytes < bytesPerMB) return `${(bytes / bytesPerKB).toFixed(1)} KB`;
  if (bytes < bytesPerMB * 1_000) return `${(bytes / bytesPerMB).toFixed(1)} MB`;
  return `${(bytes / (bytesPerMB * 1_000)).toFixed(2)} GB`;
}

/** "99.50%": floored to two decimals, so a failing 98.999% never reads as 99.00%. */
export function formatShare(share: number): string {
  const hundredths = Math.floor(share * 10_000 + 1e-6);
  return `${(hundredths / 100).toFixed(2)}%`;
}
