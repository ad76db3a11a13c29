import { describe, it, expect } from 'vitest';
import { formatMicroseconds, latencyVerdict, REQUIRED_SHARE_UNDER_ONE_SECOND } from '../../../core/guide/verdict.ts';
import { EDITIONS, edition } from '../../../core/guide/tables.ts';

describe('the guide\'s rule: 99% of messages under 1 s', () => {
  it.each(EDITIONS)('matches the %s edition\'s stated rule', (id) => {
    const rule = edition(id).defaults.latencyRule;
    expect(REQUIRED_SHARE_UNDER_ONE_SECOND).toBe(rule.shareOfMessages);
    expect(rule.underMs).toBe(1000);
  });

  it.each([
    { name: 'exactly 99% passes', share: 0.99, p99: 999_000, pass: true },
    { name: '990 of 1,000 passes', share: 990 / 1000, p99: 950_000, pass: true },
    { name: '98.99% fails', share: 0.9899, p99: 1_000_500, pass: false },
    { name: 'everything fast passes', share: 1, p99: 850, pass: true },
    { name: 'half late fails', share: 0.5, p99: 3_200_000, pass: false },
  ])('$name', ({ share, p99, pass }) => {
    expect(latencyVerdict({ shareUnderOneSecond: share, p99Microseconds: p99 }).pass).toBe(pass);
  });

  it.each([
    {
      name: 'pass',
      share: 0.995,
      p99: 412_345,
      sentence: "Pass: 99.50% of messages arrived in under 1 s (p99 412 ms), meeting the guide's rule that at least 99% arrive in under 1 s.",
    },
    {
      name: 'fail',
      share: 0.972,
      p99: 1_800_000,
      sentence: "Fail: only 97.20% of messages arrived in under 1 s (p99 1.8 s); the guide's rule needs at least 99% under 1 s, so this load is above the tier's allowed throughput.",
    },
    {
      name: 'just failing never shows as 99.00%',
      share: 0.98999,
      p99: 1_000_800,
      sentence: "Fail: only 98.99% of messages arrived in under 1 s (p99 1 s); the guide's rule needs at least 99% under 1 s, so this load is above the tier's allowed throughput.",
    },
  ])('sentence: $name', ({ share, p99, sentence }) => {
    expect(latencyVerdict({ shareUnderOneSecond: share, p99Microseconds: p99 }).sentence).toBe(sentence);
  });

  it('flags inputs that contradict each other and follows the share', () => {
    const verdict = latencyVerdict({ shareUnderOneSecond: 0.97, p99Microseconds: 800_000 });
    expect(verdict).toMatchObject({ pass: false, consistent: false });
    expect(verdict.sentence).toMatch(/The p99 and the share disagree; the verdict follows the share/);
  });

  it('tolerates histogram rounding at the 1-s line', () => {
    expect(latencyVerdict({ shareUnderOneSecond: 0.995, p99Microseconds: 1_000_500 }).consistent).toBe(true);
  });

  it.each([
    { name: 'a percentage instead of a fraction', input: { shareUnderOneSecond: 99.5, p99Microseconds: 1 }, message: /fraction from 0 to 1 .*pass 0.995, not 99.5/ },
    { name: 'a negative share', input: { shareUnderOneSecond: -0.1, p99Microseconds: 1 }, message: /shareUnderOneSecond must be a fraction/ },
    { name: 'NaN share', input: { shareUnderOneSecond: Number.NaN, p99Microseconds: 1 }, message: /shareUnderOneSecond must be a fraction/ },
    { name: 'a negative p99', input: { shareUnderOneSecond: 1, p99Microseconds: -1 }, message: /p99Microseconds must be a non-negative number of microseconds/ },
  ])('rejects $name', ({ input, message }) => {
    expect(() => latencyVerdict(input)).toThrow(message);
  });
});

describe('latency wording', () => {
  it.each([
    { us: 850, text: '850 µs' },
    { us: 12_500, text: '12.5 ms' },
    { us: 412_345, text: '412 ms' },
    { us: 1_800_000, text: '1.8 s' },
  ])('$us µs -> "$text"', ({ us, text }) => {
    expect(formatMicroseconds(us)).toBe(text);
  });
});
