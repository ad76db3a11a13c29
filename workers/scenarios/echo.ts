/** Echo: every connection sends to itself through the hub. The guide's "echo" use case. */
import { noPreparation, type Scenario } from './scenario.ts';

export const echo = (): Scenario => ({
  prepare: noPreparation,
  sendSpec: () => ({ method: 'Echo', args: (ts, payload) => [ts, payload], recipients: 1 }),
});
