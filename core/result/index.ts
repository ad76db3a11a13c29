// A finished run as one document: the result and its upgrade from older versions, the limit and the diagnosis's evidence read from it, the agents' clocks judged. Pure.
export { runResult } from './document.ts';
export { type LimitFigures, clientLimitsOf, limitOfResult, runLimit, whileSending } from './limit.ts';
export { type RunAgent, type RunResult, lostSidesOf, parseRunResult, workersOfRun } from './result.ts';
export { runClocks } from './run-clocks.ts';
export { type EvidenceFigures, diagnosisOf, needsOriginProbe } from './run-evidence.ts';
export { upgradeFates, upgradeRunResult } from './upgrade.ts';
