// The Azure SignalR Service performance guide as data and math: tables, capacity formulas, tier
// fitting and mixed workloads (the verdict is core/outcome/outcome.ts). Pure TypeScript (no DOM, no SignalR).
export * from './types.ts';
export * from './units.ts';
export * from './tables.ts';
export * from './capacity-formulas.ts';
export * from './tier-fit.ts';
export * from './appServers.ts';
export * from './caveats.ts';
export * from './workload.ts';
