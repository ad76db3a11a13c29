// The Azure SignalR Service tiers next to a run: expected traffic, the fitting tier, and the
// run's rates beside a tier's published ones, in words. Pure.
export {
  conditionsNote,
  editionTiers,
  expectedLine,
  expectedRates,
  fitSummary,
  formatPercent,
  judgeTiers,
  messageOf,
  rate,
  SCENARIO_WORDS,
  tierLoad,
  type TierOption,
} from './tier-figures.ts';
export { tierShareLine } from './tier-share.ts';
