/**
 * The serverless mode's scenarios on the engine: the run's plan and accounting are those of their
 * built-in profiles (core/profiles REST_PROFILES: broadcast's senders to every connection, send to
 * connection's derangement for one reception each), and each slot goes to the REST API instead of
 * a hub method (SendSpec.rest, workers/engine/rest-sends.ts). The clients call no hub method: the
 * probe is the REST API's own (RestSends.probe), not a hub call.
 */
import type { ServerlessScenario } from '../../core/guide/index.ts';
import type { RestSends } from '../engine/rest-sends.ts';
import type { Scenario } from './scenario.ts';

export function restScenario(base: Scenario, scenario: ServerlessScenario, rest: RestSends): Scenario {
  const broadcastUrl = rest.prepared(rest.urlOf({ kind: 'broadcast' }));
  return {
    ...base,
    probe: () => [],
    sendSpec(pooled, localIndex, go) {
      const spec = base.sendSpec(pooled, localIndex, go);
      if (!spec) return null;
      if (scenario === 'restBroadcast') return { ...spec, rest: broadcastUrl };
      // The derangement's target, opened or not: one that never opened is counted absent (spec.absent).
      const targetIndex = go.targetIndices?.[localIndex];
      return targetIndex === undefined ? { ...spec, absent: spec.recipients } : { ...spec, rest: rest.prepared(rest.urlOf({ kind: 'user', targetIndex })) };
    },
  };
}
