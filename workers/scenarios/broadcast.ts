/**
 * Broadcast: a few connections send, every connection (the senders too) receives every message;
 * latency is measured at each receiver. The guide's "broadcast" use case. Each send plans every
 * configured connection, open or not: those absent at "go" are counted apart (receiverAbsent).
 */
import type { ScenarioPlan } from '../../core/run/index.ts';
import { noPreparation, PROBE_PAYLOAD, PROBE_TS, type Scenario } from './scenario.ts';

export const broadcast = (plan: ScenarioPlan, connections: number): Scenario => ({
  prepare: noPreparation,
  probe: () => ({ method: 'Broadcast', args: [PROBE_TS, PROBE_PAYLOAD] }),
  sendSpec: (pooled, _localIndex, go) =>
    plan.isSender(pooled.index) ? { method: 'Broadcast', args: (ts, payload) => [ts, payload], recipients: connections, absent: Math.min(connections, go.absentReceivers) } : null,
});
