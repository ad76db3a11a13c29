/**
 * Send to connection: every configured connection sends to one other, chosen by the coordinator
 * as a derangement of the run's configured connections (nobody sends to itself). A target that
 * never opened has no id: its sender's slots still come due, their reception counted as
 * receiverAbsent. The guide's "send to connection" use case.
 */
import { noPreparation, PROBE_PAYLOAD, PROBE_TS, type Scenario } from './scenario.ts';

export const sendToConnection = (): Scenario => ({
  prepare: noPreparation,
  probe: (pooled) => ({ method: 'SendToConnection', args: [pooled.connection.connectionId, PROBE_TS, PROBE_PAYLOAD] }),
  sendSpec(_pooled, localIndex, go) {
    const target = go.targets[localIndex] ?? null;
    return { method: 'SendToConnection', args: (ts, payload) => [target, ts, payload], recipients: 1, absent: target === null ? 1 : 0 };
  },
});
