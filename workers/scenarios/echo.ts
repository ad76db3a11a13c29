/** Echo: every connection sends to itself through the hub. The guide's "echo" use case. */
import { noPreparation, PROBE_PAYLOAD, PROBE_TS, type Scenario } from './scenario.ts';

export const echo = (): Scenario => ({
  prepare: noPreparation,
  probe: () => ({ method: 'Echo', args: [PROBE_TS, PROBE_PAYLOAD] }),
  sendSpec: () => ({ method: 'Echo', args: (ts, payload) => [ts, payload], recipients: 1, absent: 0 }),
});
