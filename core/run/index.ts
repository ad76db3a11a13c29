// One run: its configuration and plan (scenarios, groups, split over workers), the messages
// between page and workers, the counting of every planned message (fates, per-second points),
// the coordinator that drives the workers, and the verdict and document a run ends with. Pure.
export * from './aggregator.ts';
export * from './browser-limits.ts';
export * from './clocks.ts';
export * from './config-url.ts';
export * from './config.ts';
export * from './coordinator.ts';
export * from './document.ts';
export * from './fates.ts';
export * from './id.ts';
export * from './instance-identity.ts';
export * from './instances.ts';
export * from './labels.ts';
export * from './limit.ts';
export * from './outcome.ts';
export * from './protocol.ts';
export * from './recent-rates.ts';
export * from './result.ts';
export * from './run-evidence.ts';
export * from './scenario-plan.ts';
export * from './share-plan.ts';
export * from './skip-negotiation.ts';
export * from './split.ts';
export * from './credentials.ts';
export * from './access-token.ts';
export * from './watchdog.ts';
export * from './worker-loss.ts';
