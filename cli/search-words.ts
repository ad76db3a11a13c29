/**
 * The words of a capacity search run from the command line (capacity.ts): its start line, and
 * why it ended without a capacity or with one that is not yet the service's. Pure.
 */

export const SEARCH_WORDS = {
  start: (p: { scenario: string; connecting: string; instances: string; ramp: string; start: string; max: string; step: string; stepSec: number; settleSec: number; bisectSteps: number }) => `live-bench: finding the capacity of ${p.scenario} over ${p.connecting} at ${p.instances}: ${p.ramp} ramp from ${p.start} to ${p.max} by ${p.step}, ${p.stepSec} s per step (${p.settleSec} s settle), ${p.bisectSteps} bisection step(s)`,
  /** Where the figures are when a result file could not be written. */
  stepsAbove: () => 'The steps are in the lines above.',
  fault: (p: { step: number | null; cause: string | undefined; sentence: string }) => `live-bench: no capacity: step ${p.step} failed for a cause other than load (${p.cause}): ${p.sentence}`,
  firstMeasuredNothing: () => 'live-bench: even the first step measured nothing: no capacity was found. Check the errors above.',
  firstBroke: (p: { limitedBy: string | null }) => `even the first step broke${p.limitedBy === 'client' ? ', and the client set that limit' : p.limitedBy === 'unknown' ? ' (which side failed is unknown)' : ''}: no capacity was found. Lower --start, or check the errors above.`,
  clientFirst: () => 'this client broke before the service: the load it held is its own limit, not the service\'s capacity.',
  sideUnknown: () => 'which side broke is unknown: the load that held is not a capacity of the service until a run shows which side failed.',
  neverConfirmed: (p: { step: number | null }) => `the break at step ${p.step} was never run again to confirm it: one failing run is not yet a capacity; search again.`,
  notConfirmed: (p: { step: number; load: string }) => `the break was not confirmed: the same load held when run again at step ${p.step}, so the limit lies near ${p.load} rather than at it; search again to be sure.`,
  sidesDiffer: (p: { confirmStep: number; confirmBroke: string; step: number; broke: string }) => `the confirming run at step ${p.confirmStep} broke ${p.confirmBroke}, while step ${p.step} broke ${p.broke}: which side sets the limit is not settled.`,
  stoppedBeforeConfirm: () => 'the search was stopped before the break was run again to confirm it.',
  unreachableAfterBreak: () => 'the service stopped answering after the break (no connection opened), so the search could not finish.',
  unjudged: (p: { reason: string }) => `the search ended before a step broke (${p.reason}).`,
} as const;
