// A fleet of runner agents sized on paper for the guide's tiers, from measured per-agent figures.
export * from './fleet-sizing.ts';
