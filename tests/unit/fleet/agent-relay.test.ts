/**
 * The agent's own totals of a run (core/fleet/agent-relay.ts): reported once every thread has
 * ended, and, for an agent cut off from the control hub mid-run, available so far.
 */
import { describe, expect, it } from 'vitest';
import { AgentRelay, type AgentRunReport } from '../../../core/fleet/agent-relay.ts';
import { toPieces } from '../../../core/fleet/pieces.ts';
import { emptyTotals, type FromWorker, type ToWorker, type WorkerPort } from '../../../core/execution/index.ts';
import { FakeTime } from '../../support/fake-time.ts';

function relayWithThreads(threads: number) {
  const handlers = new Map<number, (message: FromWorker) => void>();
  const ended: AgentRunReport[] = [];
  const relay = new AgentRelay({ toDashboard: async () => {} }, new FakeTime(), (thread): WorkerPort => ({
    post: (_: ToWorker) => {},
    onMessage: (handler) => void handlers.set(thread, handler),
    terminate: () => {},
  }), (report) => ended.push(report));
  for (let thread = 0; thread < threads; thread++) {
    for (const piece of toPieces(JSON.stringify({ type: 'worker', thread, message: { type: 'start' } }))) relay.handle(piece);
  }
  /** A thread's snapshot: its totals so far (sent, received) and the receptions planned since the last. */
  const snapshot = (thread: number, sent: number, received: number, planned: number, final: boolean) =>
    handlers.get(thread)!({ type: 'snapshot', workerIndex: thread, final, totals: { ...emptyTotals(), sent, received }, fates: [{ planned }] } as unknown as FromWorker);
  return { relay, ended, snapshot };
}

describe('an agent\'s own totals of a run', () => {
  it('so far, while the run goes (what an agent cut off mid-run prints); then once at its end, and no longer "so far"', () => {
    const { relay, ended, snapshot } = relayWithThreads(2);
    expect(relay.runSoFar()).toMatchObject({ threads: 2, planned: 0 });
    snapshot(0, 4, 3, 4, false);
    snapshot(1, 4, 4, 4, false);
    snapshot(0, 8, 7, 4, false);
    expect(relay.runSoFar()).toMatchObject({ threads: 2, planned: 12, failedThreads: 0, totals: { sent: 12, received: 11 } });
    expect(ended).toHaveLength(0);
    snapshot(0, 8, 8, 0, true);
    snapshot(1, 8, 8, 4, true);
    expect(ended).toEqual([expect.objectContaining({ threads: 2, planned: 16, totals: expect.objectContaining({ sent: 16, received: 16 }) })]);
    expect(relay.runSoFar()).toBeNull();
  });

  it('none before any run', () => {
    expect(relayWithThreads(0).relay.runSoFar()).toBeNull();
  });
});
