/** The scenario of a run: its hub profile (its own, or the bundled contract's built-in one) on its
 *  plan; a REST scenario's sends go to the REST API (rest-scenario.ts). */
import type { StartMessage } from '../../core/execution/index.ts';
import { type ScenarioPlan } from '../../core/plan/index.ts';
import { isServerlessScenario } from '../../core/guide/index.ts';
import { profileEnvOf, tokenUsersOf } from '../../core/run-config/index.ts';
import { isBuiltInProfile, profileOfRun, runReceivers } from '../../core/profiles/index.ts';
import { profileScenario } from './profile-scenario.ts';
import { restScenario } from './rest-scenario.ts';
import type { RestSends } from '../engine/rest-sends.ts';
import type { Scenario } from './scenario.ts';

/** @param start the worker's start message (configuration, run id, credentials); @param plan its plan;
 *  @param rest a REST scenario's sender, null without a connection string (the engine then refuses the run). */
export function createScenario(start: Pick<StartMessage, 'config' | 'runId' | 'credentials'>, plan: ScenarioPlan, rest: RestSends | null = null): Scenario {
  const { config } = start;
  const profile = profileOfRun(config);
  const scenario = profileScenario({
    profile,
    builtIn: isBuiltInProfile(config, profile),
    plan,
    connections: config.connections,
    runId: start.runId,
    receivers: runReceivers({ deliver: profile.deliver, connections: config.connections, plan, tokenUsers: tokenUsersOf(start.credentials) }),
    env: profileEnvOf(start.credentials),
  });
  if (!isServerlessScenario(config.scenario)) return scenario;
  return rest ? restScenario(scenario, config.scenario, rest) : { ...scenario, probe: () => [], sendSpec: () => null };
}
