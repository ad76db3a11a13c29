// What became of every planned reception (the fates), and the receptions a worker's share plans per second. Pure.
export {
  type Fates,
  FatesRecorder,
  NOT_SENT_REASONS,
  type NotSentReason,
  type SecondFates,
  addFates,
  arrivedOf,
  deliveryOf,
  emptyFates,
  fatesText,
  lostOf,
  notSentOf,
  overCountOf,
  settledFates,
  shareUnderOneSecond,
  unaccountedOf,
  withLost,
} from './fates.ts';
export { plannedOfShare } from './planned-receptions.ts';
