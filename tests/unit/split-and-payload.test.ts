import { describe, expect, it } from 'vitest';
import { connectConcurrencyPerWorker, splitConnections } from '../../core/split.ts';
import { parsePayloadHeader, PayloadBuilder } from '../../core/payload.ts';

describe('splitConnections', () => {
  const cases: [number, number, number[]][] = [
    [10, 2, [5, 5]],
    [10, 3, [4, 3, 3]],
    [255, 4, [64, 64, 64, 63]],
    [1, 1, [1]],
  ];
  for (const [connections, workers, counts] of cases) {
    it(`${connections} connections over ${workers} workers → ${counts.join('/')}`, () => {
      const shares = splitConnections(connections, workers);
      expect(shares.map((s) => s.count)).toEqual(counts);
      // Run-wide indices are contiguous and cover every connection once.
      expect(shares.map((s) => s.firstIndex)).toEqual(counts.map((_, i) => counts.slice(0, i).reduce((a, b) => a + b, 0)));
    });
  }

  it('refuses zero workers with a reason', () => {
    expect(() => splitConnections(10, 0)).toThrow(/workers at least 1/);
  });

  it('keeps about the total connects in flight across workers, at least one each', () => {
    expect(connectConcurrencyPerWorker(8, 2)).toBe(4);
    expect(connectConcurrencyPerWorker(8, 3)).toBe(2);
    expect(connectConcurrencyPerWorker(8, 16)).toBe(1);
  });
});

describe('payload', () => {
  it('is exactly the configured size and carries sender, sequence and send lag', () => {
    const payload = new PayloadBuilder(2_048).build({ sender: 17, seq: 42, sendLagUs: 1234.6 });
    expect(payload).toHaveLength(2_048);
    expect(parsePayloadHeader(payload)).toEqual({ sender: 17, seq: 42, sendLagUs: 1235 });
  });

  it('is ASCII, so characters equal bytes in both protocols', () => {
    const payload = new PayloadBuilder(300).build({ sender: 1, seq: 2, sendLagUs: 3 });
    expect(new TextEncoder().encode(payload).length).toBe(300);
  });

  it('rejects payloads from other clients', () => {
    expect(parsePayloadHeader('hello world')).toBeNull();
    expect(parsePayloadHeader('a:b:c|xxx')).toBeNull();
    expect(parsePayloadHeader(42)).toBeNull();
    expect(parsePayloadHeader('-1:2:0|xx')).toBeNull();
  });
});
