import { describe, it, expect } from 'vitest';
import { formatBytesPerSecond, parsePublishedBandwidth } from '../../../core/guide/units.ts';

describe('reading the guide\'s bandwidth cells', () => {
  it.each([
    { text: '2 MBps', bytesPerSecond: 1000 * 2048 },
    { text: '4 KBps', bytesPerSecond: 2 * 2048 },
    { text: '400 KBps', bytesPerSecond: 200 * 2048 },
    { text: '1.2 MBps', bytesPerSecond: 600 * 2048 },
    { text: '2.6 MBps', bytesPerSecond: 1300 * 2048 },
    { text: '2,000 MBps', bytesPerSecond: 1_000_000 * 2048 },
    { text: '2000 MBps', bytesPerSecond: 1_000_000 * 2048 },
  ])('"$text" is $bytesPerSecond B/s', ({ text, bytesPerSecond }) => {
    expect(parsePublishedBandwidth(text)).toBe(bytesPerSecond);
  });

  it.each(['4000 Mbps', '2 MBit/s', '20 kbit/s', '2 MB', 'two MBps'])('refuses "%s" (bits or no rate)', (text) => {
    expect(() => parsePublishedBandwidth(text)).toThrow(/expected "<number> KBps" or "<number> MBps"/);
  });
});

describe('printing bandwidth the guide\'s way', () => {
  it.each([
    { bytesPerSecond: 2_048_000, text: '2 MBps' },
    { bytesPerSecond: 409_600, text: '400 KBps' },
    { bytesPerSecond: 1_228_800, text: '1.2 MBps' },
    { bytesPerSecond: 4_098_048, text: '4.002 MBps' },
    { bytesPerSecond: 4_096_000_000, text: '4,000 MBps' },
    { bytesPerSecond: 512, text: '512 Bps' },
  ])('$bytesPerSecond B/s is "$text"', ({ bytesPerSecond, text }) => {
    expect(formatBytesPerSecond(bytesPerSecond)).toBe(text);
  });

  it('rejects a negative bandwidth', () => {
    expect(() => formatBytesPerSecond(-1)).toThrow(/non-negative/);
  });
});
