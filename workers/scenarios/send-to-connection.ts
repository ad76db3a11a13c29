/**
 * Send to connection: every connection sends to one other connection, chosen by the page as a
 * derangement of all the run's connection ids (nobody sends to itself). The guide's "send to
 * connection" use case.
 */
import { noPreparation, PROBE_PAYLOAD, PROBE_TS, type Scenario } from './scenario.ts';

export const sendToConnection = (): Scenario => ({
  prepare: noPreparation,
  probe: (pooled) => ({ method: 'SendToConnection', args: [pooled.connection.connectionId, PROBE_TS, PROBE_PAYLOAD] }),
  sendSpec(_pooled, localIndex, go) {
    const target = go.targets[localIndex];
    return target ? { method: 'SendToConnection', args: (ts, payload) => [target, ts, payload], recipients: 1 } : null;
  },
});
