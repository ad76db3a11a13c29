// The dashboard's agents: who joined, their threads as WorkerPorts for the run coordinator, and
// the control messages and pieces that carry a run's messages over the control hub; a fleet
// run planned alike by the dashboard and the headless lead.
export { AgentRelay, type AgentRunReport } from './agent-relay.ts';
export {
  AGENTS_SECRETS_POLICIES,
  agentsSecretsNotice,
  type AgentsSecretsPolicy,
  DEFAULT_AGENTS_SECRETS,
  isPlainControl,
  newSessionSecret,
  sessionSecretProblem,
} from './agent-secrets.ts';
export { type AgentInfo, type FromAgent, type ToAgent } from './control-messages.ts';
export { type AgentView, attachFleet, CLOCK_ROUND_MAX_MS, Fleet } from './fleet.ts';
export { ENGINE_CONNECTIONS, fleetRunPorts, planFleetRun, type RemoteWorkers } from './fleet-run.ts';
