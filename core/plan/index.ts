// Who does what in a run, from a connection's run-wide index alone: the scenario's senders, group membership, each worker's share, the send-to-connection targets, the instance a connection opens on. Pure.
export { derangement } from './derangement.ts';
export { instanceOf } from './instance-of.ts';
export { SCENARIOS, sendsToAnother, sendsToEveryone, type ScenarioName, type ScenarioPlan, planScenario } from './scenario-roles.ts';
export {
  type ConnectionShare,
  capacityShortfall,
  connectConcurrencyPerWorker,
  splitConnections,
  splitWithinCapacity,
} from './worker-shares.ts';
