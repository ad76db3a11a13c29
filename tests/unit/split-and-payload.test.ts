import { describe, expect, it } from 'vitest';
import { connectConcurrencyPerWorker, splitConnections } from '../../core/plan/worker-shares.ts';
import { parsePayloadHeader, PayloadBuilder, readPayloadHeader } from '../../workers/engine/payload.ts';
import { isRunId, newRunId, runGroupName } from '../../core/execution/run-id.ts';

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
  it('is exactly the configured size and carries the run id, sender, sequence, send lag and planned time', () => {
    const payload = new PayloadBuilder(2_048, 'k3f9x0qa').build({ sender: 17, seq: 42, sendLagUs: 1234.6, plannedUs: 1_764_000_000_000_000.25 });
    expect(payload).toHaveLength(2_048);
    expect(payload.startsWith('k3f9x0qa:17:42:1235:1764000000000000|')).toBe(true);
    expect(parsePayloadHeader(payload)).toEqual({ runId: 'k3f9x0qa', sender: 17, seq: 42, sendLagUs: 1235, plannedUs: 1_764_000_000_000_000 });
  });

  it('is read in place against the run id: this run\'s, another run\'s, or not the tool\'s', () => {
    const into = { sender: 0, seq: 0, sendLagUs: 0, plannedUs: 0 };
    const payload = new PayloadBuilder(128, 'k3f9x0qa').build({ sender: 3, seq: 9, sendLagUs: 0, plannedUs: 1_764_000_000_000_001 });
    expect(readPayloadHeader(payload, 'k3f9x0qa', into)).toBe('ours');
    expect(into).toEqual({ sender: 3, seq: 9, sendLagUs: 0, plannedUs: 1_764_000_000_000_001 });
    expect(readPayloadHeader(payload, 'zzzzzzzz', into)).toBe('foreign');
    // Another run's numbers are read too: its probe (planned at 0) is told from its messages.
    expect(into.plannedUs).toBe(1_764_000_000_000_001);
    expect(readPayloadHeader('welcome', 'k3f9x0qa', into)).toBe('none');
    expect(readPayloadHeader({ text: payload }, 'k3f9x0qa', into)).toBe('none');
    // The header before the planned time travelled in it: not this version's.
    expect(readPayloadHeader('k3f9x0qa:3:9:0|xxxx', 'k3f9x0qa', into)).toBe('none');
    expect(readPayloadHeader(`k3f9x0qa:3:9:0:${'1'.repeat(60)}|xx`, 'k3f9x0qa', into)).toBe('none');
  });

  it('is ASCII, so characters equal bytes in both protocols, the run id inside the configured size', () => {
    const payload = new PayloadBuilder(300, newRunId()).build({ sender: 1, seq: 2, sendLagUs: 3, plannedUs: 1_764_000_000_000_000 });
    expect(new TextEncoder().encode(payload).length).toBe(300);
    // The smallest size allowed holds the longest header of a run at its limits.
    const smallest = new PayloadBuilder(64, newRunId()).build({ sender: 999_999, seq: 9_999_999, sendLagUs: 9_999_999_999, plannedUs: 9_999_999_999_999_999 });
    expect(smallest).toHaveLength(64);
  });

  it('rejects payloads from other clients and from before run ids', () => {
    expect(parsePayloadHeader('hello world')).toBeNull();
    expect(parsePayloadHeader('a:b:c|xxx')).toBeNull();
    expect(parsePayloadHeader(42)).toBeNull();
    expect(parsePayloadHeader('k3f9x0qa:-1:2:0:5|xx')).toBeNull();
    // The header before run ids: another version of this tool is another run.
    expect(parsePayloadHeader('17:42:1235|xxxx')).toBeNull();
    expect(parsePayloadHeader('K3F9X0QA:17:42:1235|xxxx')).toBeNull();
  });
});

describe('run id', () => {
  it('is 8 base-36 characters, new each time, and names the run\'s groups within the hub-sample\'s 128', () => {
    const ids = new Set(Array.from({ length: 1_000 }, () => newRunId()));
    expect(ids.size).toBe(1_000);
    for (const id of ids) expect(isRunId(id)).toBe(true);
    expect(newRunId(() => 0)).toBe('00000000');
    expect(newRunId(() => 0.999_999_999)).toBe('zzzzzzzz');
    expect(runGroupName('k3f9x0qa', 'group-9999')).toBe('k3f9x0qa-group-9999');
    expect(runGroupName('k3f9x0qa', 'group-9999').length).toBeLessThanOrEqual(128);
  });
});
