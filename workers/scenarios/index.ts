/** The scenario of a run, by name. */
import type { ScenarioName, ScenarioPlan } from '../../core/run/index.ts';
import { broadcast } from './broadcast.ts';
import { echo } from './echo.ts';
import { group } from './group.ts';
import type { Scenario } from './scenario.ts';
import { sendToConnection } from './send-to-connection.ts';

/** @param connections configured connections of the run; @param runId the run's id (core/run/id.ts). */
export function createScenario(name: ScenarioName, plan: ScenarioPlan, connections: number, runId: string): Scenario {
  switch (name) {
    case 'echo':
      return echo();
    case 'broadcast':
      return broadcast(plan, connections);
    case 'smallGroup':
    case 'bigGroup':
      return group(plan, runId);
    case 'sendToConnection':
      return sendToConnection();
  }
}
