/** The scenario of a run: its hub profile (its own, or the bundled contract's built-in one) on its plan. */
import type { StartMessage } from '../../core/execution/index.ts';
import type { ScenarioPlan } from '../../core/plan/index.ts';
import { profileEnvOf, tokenUsersOf } from '../../core/run-config/index.ts';
import { BUILT_IN_PROFILES, profileOfRun, runReceivers } from '../../core/profiles/index.ts';
import { profileScenario } from './profile-scenario.ts';
import type { Scenario } from './scenario.ts';

/** @param start the worker's start message (configuration, run id, credentials); @param plan its plan. */
export function createScenario(start: Pick<StartMessage, 'config' | 'runId' | 'credentials'>, plan: ScenarioPlan): Scenario {
  const { config } = start;
  const profile = profileOfRun(config);
  return profileScenario({
    profile,
    builtIn: profile === BUILT_IN_PROFILES[config.scenario],
    plan,
    connections: config.connections,
    runId: start.runId,
    receivers: runReceivers({ deliver: profile.deliver, connections: config.connections, plan, tokenUsers: tokenUsersOf(start.credentials) }),
    env: profileEnvOf(start.credentials),
  });
}
