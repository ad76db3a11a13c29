// Byte units as the guide uses them. The guide prints bandwidth as "N KBps" / "N MBps" (bytes per
// second). Its own defaults fix the convention: 1,000 connections x 2,048 B every 1 s is "2 MBps"
// and 2 messages/s of 2,048 B is "4 KBps", exact only with 1 KB = 1,024 B and 1 MB = 1,000 KB.
import { BenchError } from '../errors/index.ts';
import { GUIDE_WORDS } from './words.ts';

/** How "KB" and "MB" map to bytes. */
export interface ByteConvention {
  bytesPerKB: number;
  bytesPerMB: number;
}

/** The guide's tables: 1 KB = 1,024 B, 1 MB = 1,000 KB = 1,024,000 B. */
export const GUIDE_BYTES: ByteConvention = { bytesPerKB: 1024, bytesPerMB: 1_024_000 };
/** Binary: 1 KB = 1,024 B, 1 MB = 1,024 KB. Needed for the worked example's 256-KB row to give 8,000. */
export const BINARY_BYTES: ByteConvention = { bytesPerKB: 1024, bytesPerMB: 1_048_576 };
/** SI: 1 KB = 1,000 B, 1 MB = 1,000,000 B. */
export const DECIMAL_BYTES: ByteConvention = { bytesPerKB: 1000, bytesPerMB: 1_000_000 };

/**
 * Kilobytes to bytes.
 * @param kilobytes size in KB
 * @param convention KB/MB mapping; default GUIDE_BYTES (1 KB = 1,024 B)
 */
export function kilobytesToBytes(kilobytes: number, convention: ByteConvention = GUIDE_BYTES): number {
  return kilobytes * convention.bytesPerKB;
}

/**
 * Megabytes to bytes.
 * @param megabytes size in MB
 * @param convention KB/MB mapping; default GUIDE_BYTES (1 MB = 1,024,000 B)
 */
export function megabytesToBytes(megabytes: number, convention: ByteConvention = GUIDE_BYTES): number {
  return megabytes * convention.bytesPerMB;
}

/**
 * Parses a bandwidth cell as printed in the guide ("2 MBps", "1.2 MBps", "4 KBps", "2,000 MBps")
 * into bytes per second with the guide's convention. Only byte units are accepted: a bit unit
 * ("Mbps", "MBit/s") is a misprint or mistranslation in the guide and must be flagged, not read.
 */
export function parsePublishedBandwidth(text: string): number {
  const match = /^([\d,]+(?:\.\d+)?) (KBps|MBps)$/.exec(text.trim());
  if (!match || match[1] === undefined) {
    throw new BenchError(
      'parse',
      GUIDE_WORDS.unreadableBandwidth({ text }),
    );
  }
  const amount = Number(match[1].replaceAll(',', ''));
  const bytes = match[2] === 'KBps' ? kilobytesToBytes(amount) : megabytesToBytes(amount);
  // Decimal cells such as "1.2 MBps" are whole byte counts; round away the float noise.
  return Math.round(bytes);
}

/**
 * Formats bytes per second the way the guide prints it ("2 MBps", "400 KBps", "1.2 MBps"), with up
 * to three decimals so that a value just over a limit ("4.002 MBps") does not print as the limit.
 * @param bytesPerSecond non-negative bandwidth in bytes per second
 */
export function formatBytesPerSecond(bytesPerSecond: number): string {
  if (!Number.isFinite(bytesPerSecond) || bytesPerSecond < 0) {
    // Every caller passes a computed rate: a negative one is a bug (internal), not input.
    throw new Error(GUIDE_WORDS.negativeRate({ value: bytesPerSecond }));
  }
  const { bytesPerKB, bytesPerMB } = GUIDE_BYTES;
  if (bytesPerSecond >= bytesPerMB) return `${trimNumber(bytesPerSecond / bytesPerMB, 3)} MBps`;
  if (bytesPerSecond >= bytesPerKB) return `${trimNumber(bytesPerSecond / bytesPerKB, 3)} KBps`;
  return `${trimNumber(bytesPerSecond)} Bps`;
}

/**
 * Thousands separated, no trailing zeros: 1.2, 2,000, 7,812.5.
 * @param maximumFractionDigits decimals kept at most; default 2
 */
export function trimNumber(value: number, maximumFractionDigits = 2): string {
  return numberFormat(maximumFractionDigits).format(value);
}

/** One formatter per number of decimals: `toLocaleString` with options builds a new
 *  Intl.NumberFormat on every call, which the live tier panel did dozens of times a second. */
const numberFormats = new Map<number, Intl.NumberFormat>();

function numberFormat(maximumFractionDigits: number): Intl.NumberFormat {
  let format = numberFormats.get(maximumFractionDigits);
  if (!format) {
    format = new Intl.NumberFormat('en-US', { maximumFractionDigits });
    numberFormats.set(maximumFractionDigits, format);
  }
  return format;
}
