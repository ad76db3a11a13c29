/**
 * The accounting room's words: why a planned message was never sent, as the fates' line says it
 * (fates.ts fatesText), and that line's phrases. Keyed by the reasons fates.ts counts. Pure.
 */
import { formatCount, formatShare } from '../format.ts';

export const ACCOUNTING_WORDS = {
  /** Each reason a slot that came due was not sent, in a few words. */
  notSent: {
    backedUp: 'backed up (the connection held its limit of unsent messages)',
    reconnecting: 'connection reconnecting',
    writeFailed: 'write failed',
    disconnected: 'connection closed or never opened',
    clientBehind: 'the client fell behind its schedule and never sent them',
    receiverAbsent: 'the receiver never connected or never joined its group',
    workerLost: 'the worker or agent that was to send them was lost mid-run',
    runStopped: 'the run was stopped early for the failure it names, before they were sent',
  },
  /** The fates' line, bucket by bucket: "6,000 planned: 5,990 in under 1 s (99.83%), 4 later, 6 lost, 0 never sent; delivery 99.90%". */
  nothingPlanned: () => 'nothing planned',
  planned: (p: { planned: number; underOneSecond: number }) =>
    `${formatCount(p.planned)} planned: ${formatCount(p.underOneSecond)} in under 1 s (${formatShare(p.underOneSecond / p.planned)})`,
  later: (p: { late: number }) => `${formatCount(p.late)} later`,
  afterDrain: (p: { afterDrain: number }) => `${formatCount(p.afterDrain)} after the drain`,
  inFlight: (p: { unaccounted: number }) => `${formatCount(p.unaccounted)} in flight (lost not counted yet)`,
  lost: (p: { lost: number }) => `${formatCount(p.lost)} lost`,
  /** Never sent, with each reason's words and count. */
  notSentReason: (p: { label: string; count: number }) => `${p.label} ${formatCount(p.count)}`,
  neverSent: (p: { notSent: number; reasons: readonly string[] }) => `${formatCount(p.notSent)} never sent${p.reasons.length > 0 ? ` (${p.reasons.join(', ')})` : ''}`,
  overCount: (p: { overCount: number }) => `accounting error: ${formatCount(p.overCount)} counted beyond the plan`,
  line: (p: { buckets: readonly string[]; delivery: number }) => p.buckets.join(', ') + `; delivery ${formatShare(p.delivery)}`,
};
