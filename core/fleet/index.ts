// The dashboard's agents: who joined, their threads as WorkerPorts for the run coordinator, and
// the control messages and pieces that carry a run's messages over the control hub; a fleet
// run planned alike by the dashboard and the headless lead.
export * from './agent-relay.ts';
export * from './agent-secrets.ts';
export * from './control-messages.ts';
export * from './fleet.ts';
export * from './fleet-run.ts';
