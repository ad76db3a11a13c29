/** The scenario of a run, by name. */
import type { ScenarioName } from '../../core/run-config.ts';
import type { ScenarioPlan } from '../../core/scenario-plan.ts';
import { broadcast } from './broadcast.ts';
import { echo } from './echo.ts';
import { group } from './group.ts';
import type { Scenario } from './scenario.ts';
import { sendToConnection } from './send-to-connection.ts';

export function createScenario(name: ScenarioName, plan: ScenarioPlan): Scenario {
  switch (name) {
    case 'echo':
      return echo();
    case 'broadcast':
      return broadcast(plan);
    case 'smallGroup':
    case 'bigGroup':
      return group(plan);
    case 'sendToConnection':
      return sendToConnection();
  }
}
