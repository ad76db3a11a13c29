/**
 * What became of every planned reception: the accounting behind the guide's rule.
 *
 * Every measured slot that comes due plans its receptions from the configuration (1 for echo and
 * send to connection, every configured connection for broadcast, every configured member of the
 * group for a group send), whether it is then sent or not, and whatever opened or joined (wrk2:
 * every planned request counts). Each planned reception ends in exactly one bucket: arrived in
 * under 1 s, arrived later, arrived after the drain, never sent (with why: a receiver that never
 * connected or never joined its group is one reason), or lost. Lost is what is left once the drain
 * is over; before that it is unknown (in flight).
 *
 * So `arrived + never sent <= planned` always holds. More than planned is an accounting error (a
 * reception counted that was never planned, or a slot counted unsent that was delivered): it is
 * kept as its own figure (`overCount`) and fails the run, never netted against what was lost.
 *
 * Receptions are attributed to the second their slot was *planned* in, not the second they
 * arrived, so the buckets of every second sum to that second's planned count.
 */
import { ACCOUNTING_WORDS } from './words.ts';

/** Why a slot that came due was not sent. */
export const NOT_SENT_REASONS = ['backedUp', 'reconnecting', 'writeFailed', 'disconnected', 'clientBehind', 'receiverAbsent', 'workerLost', 'runStopped'] as const;
export type NotSentReason = (typeof NOT_SENT_REASONS)[number];

export const NOT_SENT_LABELS: Record<NotSentReason, string> = ACCOUNTING_WORDS.notSent;

/** Counts of planned receptions, by what became of them. */
export interface Fates {
  /** Receptions planned by every measured slot that came due. */
  planned: number;
  /** Arrived in under 1 s from the planned send time: the guide's rule counts only these. */
  underOneSecond: number;
  /** Arrived 1 s or more after the planned send time, before the drain ended. */
  late: number;
  /** Arrived after the drain had ended (an agent that heard "finish" late): arrived, but too late to pass. */
  afterDrain: number;
  /** Never sent, by reason: each slot's planned receptions. */
  notSent: Record<NotSentReason, number>;
  /** Planned, never arrived: known once the drain is over, null until then (unknown, never 0).
   *  Filled in by {@link withLost}; the live counts leave it null. */
  lost: number | null;
  /** Arrived or never sent beyond what was planned: an accounting error, 0 in a sound run, never
   *  netted against `lost` (see the module comment). Like `lost`, known once the drain is over and
   *  null until then; filled in by {@link withLost}. Absent in runs kept before it was checked. */
  overCount?: number | null;
}

/** The fates of the slots planned in one second of the run (see the module comment). */
export interface SecondFates extends Fates {
  second: number;
}

export function emptyFates(): Fates {
  return { planned: 0, underOneSecond: 0, late: 0, afterDrain: 0, notSent: { backedUp: 0, reconnecting: 0, writeFailed: 0, disconnected: 0, clientBehind: 0, receiverAbsent: 0, workerLost: 0, runStopped: 0 }, lost: null };
}

/** Adds `delta` into `into` (in place) and returns it; `lost` and `overCount` are left as they were (they are derived). */
export function addFates(into: Fates, delta: Fates): Fates {
  into.planned += delta.planned;
  into.underOneSecond += delta.underOneSecond;
  into.late += delta.late;
  into.afterDrain += delta.afterDrain;
  for (const reason of NOT_SENT_REASONS) into.notSent[reason] += delta.notSent[reason];
  return into;
}

export function notSentOf(fates: Fates): number {
  let total = 0;
  for (const reason of NOT_SENT_REASONS) total += fates.notSent[reason];
  return total;
}

/** Planned receptions that arrived, whenever. */
export function arrivedOf(fates: Fates): number {
  return fates.underOneSecond + fates.late + fates.afterDrain;
}

/** Planned receptions neither arrived nor known unsent: in flight during a run, lost after its
 *  drain. Never below 0: what goes beyond the plan is {@link excessOf}, an error of its own. */
export function unaccountedOf(fates: Fates): number {
  return Math.max(0, fates.planned - arrivedOf(fates) - notSentOf(fates));
}

/** Arrived or never sent beyond the plan: the invariant `arrived + notSent <= planned` broken. */
export function excessOf(fates: Fates): number {
  return Math.max(0, arrivedOf(fates) + notSentOf(fates) - fates.planned);
}

/** Lost receptions once the drain is over; null while they may still be in flight (unknown, never 0).
 *  A `lost` already filled in (the run's, summed per planned second) is taken as it is. */
export function lostOf(fates: Fates, drained: boolean): number | null {
  return drained ? (fates.lost ?? unaccountedOf(fates)) : null;
}

/** The accounting error once the drain is over (0 in a sound run); null before (a receiver's
 *  snapshot may be counted before its sender's, so a live excess is not yet an error). */
export function overCountOf(fates: Fates, drained: boolean): number | null {
  return drained ? (fates.overCount ?? excessOf(fates)) : null;
}

/** A copy with `lost` and `overCount` filled in from its own counts once drained, else null. */
export function withLost(fates: Fates, drained: boolean): Fates {
  return { ...fates, notSent: { ...fates.notSent }, lost: drained ? unaccountedOf(fates) : null, overCount: drained ? excessOf(fates) : null };
}

/**
 * The run's fates with `lost` and `overCount` summed over its planned seconds: a second that
 * counted more than it planned cannot hide another second's loss. Null before the drain.
 */
export function settledFates(total: Fates, bySecond: Iterable<Fates>, drained: boolean): Fates {
  if (!drained) return withLost(total, false);
  let lost = 0;
  let overCount = 0;
  for (const second of bySecond) {
    lost += unaccountedOf(second);
    overCount += excessOf(second);
  }
  return { ...withLost(total, true), lost, overCount };
}

/** The guide's share: arrived in under 1 s over planned; null when nothing was planned. */
export function shareUnderOneSecond(fates: Fates): number | null {
  return fates.planned === 0 ? null : fates.underOneSecond / fates.planned;
}

/** Delivery: arrived (at any time) over planned; null when nothing was planned. */
export function deliveryOf(fates: Fates): number | null {
  return fates.planned === 0 ? null : arrivedOf(fates) / fates.planned;
}

/** The second (1-based, as the per-second series counts) a planned time falls in. The planned
 *  time is rounded as it travels (the hub's `ts` is whole µs): a sender and its receivers then put
 *  one slot in the same second, which the per-second check of the accounting relies on. */
export function plannedSecond(plannedUs: number, runStartUs: number): number {
  return Math.floor((Math.round(plannedUs) - runStartUs) / 1_000_000) + 1;
}

export type FateBucket = 'planned' | 'underOneSecond' | 'late' | 'afterDrain';

/**
 * One worker's fates, per planned second, since its last snapshot (deltas: the page adds them
 * up) and in total. Recording allocates only for a second not seen since the last snapshot.
 */
export class FatesRecorder {
  readonly totals = emptyFates();
  #pending = new Map<number, SecondFates>();

  constructor(private readonly runStartUs: number) {}

  add(plannedUs: number, bucket: FateBucket, count: number): void {
    this.#second(plannedUs)[bucket] += count;
    this.totals[bucket] += count;
  }

  addNotSent(plannedUs: number, reason: NotSentReason, count: number): void {
    this.#second(plannedUs).notSent[reason] += count;
    this.totals.notSent[reason] += count;
  }

  /** The deltas since the last call, oldest second first. */
  take(): SecondFates[] {
    const taken = [...this.#pending.values()].sort((a, b) => a.second - b.second);
    this.#pending = new Map();
    this.#last = null;
    return taken;
  }

  /** The second last added to: nearly every send and reception of a second lands in the same
   *  one, so the map is looked up about once per second instead of once per message. */
  #last: SecondFates | null = null;

  #second(plannedUs: number): SecondFates {
    const second = plannedSecond(plannedUs, this.runStartUs);
    if (this.#last?.second === second) return this.#last;
    let fates = this.#pending.get(second);
    if (!fates) {
      fates = { second, ...emptyFates() };
      this.#pending.set(second, fates);
    }
    this.#last = fates;
    return fates;
  }
}

/**
 * The buckets in words, one line for every view: "6,000 planned: 5,990 in under 1 s (99.83%),
 * 4 later, 6 lost, none never sent; delivery 99.90%". Lost reads "not counted" until drained.
 */
export function fatesText(fates: Fates): string {
  const W = ACCOUNTING_WORDS;
  if (fates.planned === 0) return W.nothingPlanned();
  const reasons = NOT_SENT_REASONS.filter((r) => fates.notSent[r] > 0).map((r) => W.notSentReason({ label: NOT_SENT_LABELS[r], count: fates.notSent[r] }));
  const buckets = [
    W.planned({ planned: fates.planned, underOneSecond: fates.underOneSecond }),
    W.later({ late: fates.late }),
    ...(fates.afterDrain > 0 ? [W.afterDrain({ afterDrain: fates.afterDrain })] : []),
    fates.lost === null ? W.inFlight({ unaccounted: unaccountedOf(fates) }) : W.lost({ lost: fates.lost }),
    W.neverSent({ notSent: notSentOf(fates), reasons }),
    ...(fates.overCount ? [W.overCount({ overCount: fates.overCount })] : []),
  ];
  return W.line({ buckets, delivery: arrivedOf(fates) / fates.planned });
}
