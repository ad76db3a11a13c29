import { describe, expect, it } from 'vitest';
import { estimateClockOffset } from '../../../core/clocks/clock-offset.ts';

describe('clock offset estimate', () => {
  it('is null without a usable round trip', () => {
    expect(estimateClockOffset([])).toBeNull();
    expect(estimateClockOffset([{ sentUs: 10, receivedUs: 5, agentUs: 0 }])).toBeNull();
  });

  it.each([
    { name: 'agent ahead by 5 s, symmetric legs', sample: { sentUs: 1_000, receivedUs: 3_000, agentUs: 5_002_000 }, offsetUs: 5_000_000, uncertaintyUs: 1_000 },
    { name: 'agent behind by 2 ms', sample: { sentUs: 10_000, receivedUs: 10_400, agentUs: 8_200 }, offsetUs: -2_000, uncertaintyUs: 200 },
    { name: 'same clock', sample: { sentUs: 0, receivedUs: 100, agentUs: 50 }, offsetUs: 0, uncertaintyUs: 50 },
    // Math.round(-0.4) is -0, which JSON writes as 0: the stored run must read back equal.
    { name: 'a fraction behind rounds to 0, not -0', sample: { sentUs: 0, receivedUs: 101, agentUs: 50.1 }, offsetUs: 0, uncertaintyUs: 51 },
  ])('$name', ({ sample, offsetUs, uncertaintyUs }) => {
    const estimate = estimateClockOffset([sample]);
    expect(estimate).toEqual({ offsetUs, uncertaintyUs, samples: 1, measuredAtUs: sample.receivedUs });
    expect(Object.is(estimate!.offsetUs, -0)).toBe(false);
  });

  it('keeps the sample with the shortest round trip, whose error bound is the smallest', () => {
    const trueOffsetUs = 7_000;
    // Long, lopsided round trips would put the estimate far off; the short one is right within 100 us.
    const samples = [
      { sentUs: 0, receivedUs: 50_000, agentUs: 45_000 + trueOffsetUs },
      { sentUs: 100_000, receivedUs: 100_200, agentUs: 100_100 + trueOffsetUs + 40 },
      { sentUs: 200_000, receivedUs: 230_000, agentUs: 201_000 + trueOffsetUs },
    ];
    const estimate = estimateClockOffset(samples)!;
    expect(estimate.uncertaintyUs).toBe(100);
    expect(Math.abs(estimate.offsetUs - trueOffsetUs)).toBeLessThanOrEqual(estimate.uncertaintyUs);
    expect(estimate.samples).toBe(3);
    // When the estimate held: the chosen round trip's answer, not the round's last.
    expect(estimate.measuredAtUs).toBe(100_200);
  });
});
