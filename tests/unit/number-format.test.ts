import { describe, expect, it } from 'vitest';
import { formatCount } from '../../core/format.ts';
import { formatBytesPerSecond, trimNumber } from '../../core/guide/units.ts';

// The formatters are made once and kept; what they print must stay what toLocaleString printed.
describe('number formatting', () => {
  const samples = [0, -0, 1, 1.2, 2_000, 7_812.5, 0.005, 0.0049, 1.23456, 999_999.999, -1_234.5678, 1e21, NaN, Infinity];

  it('trimNumber prints what toLocaleString prints, for every number of decimals', () => {
    for (const digits of [0, 1, 2, 3]) {
      for (const value of samples) expect(trimNumber(value, digits)).toBe(value.toLocaleString('en-US', { maximumFractionDigits: digits }));
    }
    expect(trimNumber(7_812.5)).toBe('7,812.5');
    expect(trimNumber(1.23456)).toBe('1.23');
  });

  it('formatCount rounds and separates thousands as before', () => {
    for (const value of samples) expect(formatCount(value)).toBe(Math.round(value).toLocaleString('en-US'));
    expect(formatCount(1_020.6)).toBe('1,021');
  });

  it('bandwidth keeps up to three decimals', () => {
    expect(formatBytesPerSecond(4.002 * 1_024_000)).toBe('4.002 MBps');
  });
});
