// The Azure SignalR Service tiers next to a run: expected traffic, the fitting tier, and the
// run's rates beside a tier's published ones, in words. Pure.
export * from './tier-figures.ts';
export * from './tier-share.ts';
