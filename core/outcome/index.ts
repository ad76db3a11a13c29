// How a run ended and the guide's verdict on it, and whose loss a lost worker is. Pure.
export {
  OUTCOME_LABELS,
  type OutcomeKind,
  REQUIRED_SHARE,
  type RunOutcome,
  type RunVerdict,
  type VerdictDisplay,
  drained,
  outcomeText,
  runVerdict,
  verdictDisplay,
} from './outcome.ts';
export {
  type LossSide,
  type RelayState,
  type WorkerLoss,
  controlLostText,
  lossSides,
  lostEnginesReason,
  relayWentQuiet,
  silenceText,
} from './worker-loss.ts';
