// The Azure SignalR Service performance guide as data and math: tables, capacity formulas, tier
// fitting and mixed workloads (the verdict is core/outcome/outcome.ts). Pure TypeScript (no DOM, no SignalR).
export { type CellFlag, type EditionId, type ExpectedTraffic, type GuideScenario, type Scenario, type ServerlessScenario } from './types.ts';
export { formatBytesPerSecond, GUIDE_BYTES, parsePublishedBandwidth, trimNumber } from './units.ts';
export { cell, edition, EDITIONS, guideSectionUrl, isServerlessScenario, scenarioTable, SERVERLESS_SCENARIOS, tier, tiers } from './tables.ts';
export { expectedTraffic, type GuideRunConfig } from './capacity-formulas.ts';
export { demandFromTraffic, type EditionFit, fitEdition } from './tier-fit.ts';
export { estimateWorkload, type WorkloadEstimate, type WorkloadPart } from './workload.ts';
export { GUIDE_WORDS } from './words.ts';
