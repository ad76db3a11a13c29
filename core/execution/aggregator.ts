/**
 * Merges the workers' snapshots into one run: per-second points for the charts (latency
 * percentiles from the merged interval histograms) and the whole-run figures. Pure: the page
 * uses it for its workers, and so can any other consumer of worker snapshots.
 */
import type { LossSide } from '../outcome/index.ts';
import { addCauses, type ConnectCauseCounts } from '../client/index.ts';
import { emptyErrorCounts, emptyTotals, type ErrorCounts, type ErrorSample, type TextlessCalls, type WorkerSnapshot, type WorkerTotals, type WorkerPhase } from './worker-messages.ts';
import { addDropTotals, emptyDropTotals, type DropTotals } from '../drops/index.ts';
import { addFates, emptyFates, settledFates, shareUnderOneSecond, unaccountedOf, type Fates } from '../accounting/index.ts';
import { addInstanceCounts, emptyInstanceCounts, type InstanceCounts } from '../run-config/index.ts';
import {
  addPosted,
  createLatencyHistogram,
  encodeHistogram,
  summarizeLatency,
  type EncodedSecond,
  type Histogram,
  type LatencySummary,
} from '../latency/index.ts';

/** One second of the run, all workers together. */
export interface SecondPoint {
  second: number;
  latency: LatencySummary;
  /** Messages sent (inbound to the hub) and received (outbound from it) in this second. */
  sent: number;
  received: number;
  /** What became of the receptions planned in this second, wherever and whenever they arrived.
   *  Receptions arrive after their second closes, so this keeps filling in until the run ends. */
  fates: Fates;
  /** Bytes the transport carried each way in this second (IntervalCounts). */
  sentBytes: number;
  receivedBytes: number;
  connectionsOpen: number;
  /** Worst worker event-loop lag and send lag in this second, in ms. */
  eventLoopLagMs: number;
  maxSendLagMs: number;
  /** Connections back (reconnected or resumed) and lost in this second: the storm's rates. */
  reconnects: number;
  dropped: number;
}

/** One worker's report on itself over the run: when it lags, the client is the bottleneck. */
export interface WorkerHealth {
  workerIndex: number;
  /** Worst lateness of its 1-s report timer, in ms. */
  maxEventLoopLagMs: number;
  /** Worst lag of a send behind its planned time, in ms. */
  maxSendLagMs: number;
  missedSlots: number;
  connectionsOpen: number;
  lost: boolean;
  /** A lost worker's side (core/outcome/worker-loss.ts), set in the run's document; absent while
   *  running and in runs kept before it was recorded (then a lost worker was the client's). */
  lostSide?: LossSide;
}

interface PartialSecond {
  histogram: Histogram;
  sent: number;
  received: number;
  sentBytes: number;
  receivedBytes: number;
  connectionsOpen: Map<number, number>;
  eventLoopLagMs: number;
  maxSendLagMs: number;
  reconnects: number;
  dropped: number;
}

export class RunAggregator {
  /** Seconds some worker has not reported yet; their histograms are dropped once summarized. */
  readonly #open = new Map<number, PartialSecond>();
  readonly #points: SecondPoint[] = [];
  /** Each closed second's merged histogram, compressed (a few hundred bytes): the run's record. */
  readonly #secondHistograms: EncodedSecond[] = [];
  readonly #latest = new Map<number, WorkerSnapshot>();
  readonly #runLatency = createLatencyHistogram();
  readonly #runUncorrected = createLatencyHistogram();
  readonly #connectTimes = createLatencyHistogram();
  readonly #reconnectTimes = createLatencyHistogram();
  /** Workers that died: they count as finished, and what they reported before is kept. */
  readonly #lost = new Set<number>();
  /** Fates by planned second, shared with the points of those seconds, and all together. */
  readonly #fatesBySecond = new Map<number, Fates>();
  readonly #fates = emptyFates();
  /** Receptions each worker reported planned, by planned second: what a lost one never reported is
   *  the rest of its plan (addUnreportedPlan). */
  readonly #plannedByWorker = new Map<number, Map<number, number>>();
  /** Fates of the seconds already judged (see judgedShare), added once each when judged: by then
   *  their planned and in-time counts are final. */
  readonly #judged = emptyFates();
  readonly #health = new Map<number, { maxEventLoopLagMs: number; maxSendLagMs: number }>();
  /** Summaries of the whole-run histograms, made once per change rather than once per read: the
   *  page reads them on every refresh, several times between two snapshots. */
  readonly #summaries = new Map<Histogram, LatencySummary>();
  /** With several hub instances: the whole run's latency at each instance's connections. */
  readonly #instanceLatency: Histogram[] = [];

  constructor(readonly workerCount: number) {}

  markWorkerLost(workerIndex: number): void {
    if (this.#lost.has(workerIndex)) return;
    this.#lost.add(workerIndex);
    // Its connections are gone with it: no longer open, and counted as disconnects.
    const latest = this.#latest.get(workerIndex);
    if (latest && latest.connectionsOpen > 0) {
      this.#latest.set(workerIndex, { ...latest, connectionsOpen: 0, connectionsConnecting: 0, totals: { ...latest.totals, disconnects: latest.totals.disconnects + latest.connectionsOpen } });
    }
    this.#closeReportedSeconds();
  }

  add(snapshot: WorkerSnapshot): void {
    // A worker given up for lost stays lost, even if a late message of it still arrives.
    if (this.#lost.has(snapshot.workerIndex)) return;
    this.#latest.set(snapshot.workerIndex, snapshot);
    const health = this.#health.get(snapshot.workerIndex) ?? { maxEventLoopLagMs: 0, maxSendLagMs: 0 };
    health.maxEventLoopLagMs = Math.max(health.maxEventLoopLagMs, snapshot.eventLoopLagMs);
    health.maxSendLagMs = Math.max(health.maxSendLagMs, snapshot.maxSendLagMs);
    this.#health.set(snapshot.workerIndex, health);
    this.#summaries.clear();
    const point = this.#second(snapshot.second);
    addPosted(snapshot.latencyHistogram, this.#runLatency, point.histogram);
    addPosted(snapshot.uncorrectedHistogram, this.#runUncorrected);
    addPosted(snapshot.connectHistogram, this.#connectTimes);
    if (snapshot.reconnectHistogram) addPosted(snapshot.reconnectHistogram, this.#reconnectTimes);
    let reported = this.#plannedByWorker.get(snapshot.workerIndex);
    if (!reported) this.#plannedByWorker.set(snapshot.workerIndex, (reported = new Map()));
    snapshot.instanceLatencyHistograms?.forEach((posted, k) => addPosted(posted, (this.#instanceLatency[k] ??= createLatencyHistogram())));
    for (const delta of snapshot.fates) {
      addFates(this.#fatesOf(delta.second), delta);
      addFates(this.#fates, delta);
      if (delta.planned > 0) reported.set(delta.second, (reported.get(delta.second) ?? 0) + delta.planned);
    }

    point.sent += snapshot.interval.sent;
    point.received += snapshot.interval.received;
    point.sentBytes += snapshot.interval.sentBytes;
    point.receivedBytes += snapshot.interval.receivedBytes;
    point.connectionsOpen.set(snapshot.workerIndex, snapshot.connectionsOpen);
    point.eventLoopLagMs = Math.max(point.eventLoopLagMs, snapshot.eventLoopLagMs);
    point.maxSendLagMs = Math.max(point.maxSendLagMs, snapshot.maxSendLagMs);
    point.reconnects += snapshot.drops?.back ?? 0;
    point.dropped += snapshot.drops?.dropped ?? 0;
    this.#closeReportedSeconds();
  }

  isLost(workerIndex: number): boolean {
    return this.#lost.has(workerIndex);
  }

  /** True once this worker's final snapshot arrived: its figures are complete. */
  hasFinished(workerIndex: number): boolean {
    return this.#latest.get(workerIndex)?.final === true;
  }

  /** True once every worker has sent its final snapshot. */
  get finished(): boolean {
    for (let w = 0; w < this.workerCount; w++) if (!this.#lost.has(w) && !this.#latest.get(w)?.final) return false;
    return true;
  }

  /**
   * Seconds every worker has reported (a worker that has finished counts as having reported all),
   * oldest first. The last seconds of a run appear once the final snapshots arrive.
   */
  points(): readonly SecondPoint[] {
    return this.#points;
  }

  /** Per-second merged latency histograms, compressed; seconds without messages are left out. */
  secondHistograms(): readonly EncodedSecond[] {
    return this.#secondHistograms;
  }

  /** The most a reception came before its planned send time, µs, over every worker; null when
   *  none did (agents' clocks apart: core/clocks/clock-drift.ts). */
  maxNegativeLatencyUs(): number | null {
    let max = 0;
    for (const snapshot of this.#latest.values()) max = Math.max(max, snapshot.maxNegativeLatencyUs ?? 0);
    return max > 0 ? max : null;
  }

  /** Whole-run latency, from the planned send times. */
  latency(): LatencySummary {
    return this.#summaryOf(this.#runLatency);
  }

  /** Whole-run latency from the actual send times (not corrected for coordinated omission). */
  uncorrectedLatency(): LatencySummary {
    return this.#summaryOf(this.#runUncorrected);
  }

  workerHealth(): WorkerHealth[] {
    return Array.from({ length: this.workerCount }, (_, workerIndex) => {
      const snapshot = this.#latest.get(workerIndex);
      const health = this.#health.get(workerIndex);
      return {
        workerIndex,
        maxEventLoopLagMs: health?.maxEventLoopLagMs ?? 0,
        maxSendLagMs: health?.maxSendLagMs ?? 0,
        missedSlots: snapshot?.totals.missedSlots ?? 0,
        connectionsOpen: snapshot?.connectionsOpen ?? 0,
        lost: this.#lost.has(workerIndex),
      };
    });
  }

  /** Time to open a connection (negotiate, transport, handshake), over the run. */
  connectTimes(): LatencySummary {
    return this.#summaryOf(this.#connectTimes);
  }

  /** Time to reconnect (from the start of each gap to the connection being back), over the run. */
  reconnectTimes(): LatencySummary {
    return this.#summaryOf(this.#reconnectTimes);
  }

  /** Drops and reconnects over the run, all workers together. */
  dropTotals(): DropTotals {
    const sum = emptyDropTotals();
    for (const snapshot of this.#latest.values()) if (snapshot.drops) addDropTotals(sum, snapshot.drops.totals);
    return sum;
  }

  /** True when every live worker's latest snapshot was taken in one of `phases`. */
  allWorkersIn(phases: readonly WorkerPhase[]): boolean {
    for (let w = 0; w < this.workerCount; w++) {
      if (this.#lost.has(w)) continue;
      const phase = this.#latest.get(w)?.phase;
      if (!phase || !phases.includes(phase)) return false;
    }
    return true;
  }

  /** What became of every planned reception so far, all seconds together (a copy). */
  fates(): Fates {
    return addFates(emptyFates(), this.#fates);
  }

  /**
   * The run's fates with `lost` and `overCount` filled in once drained, each summed over the
   * planned seconds (core/accounting/fates.ts settledFates): what every view and the verdict read.
   */
  settledFates(drained: boolean): Fates {
    return settledFates(this.#fates, this.#fatesBySecond.values(), drained);
  }

  /** Planned receptions not yet accounted for, summed per planned second (never netted against
   *  another second's excess): the drain is over when this reaches 0. */
  unaccounted(): number {
    let sum = 0;
    for (const fates of this.#fatesBySecond.values()) sum += unaccountedOf(fates);
    return sum;
  }

  /**
   * The guide's share so far, over the receptions that can already be judged: those planned in
   * seconds before the last closed one are over 1 s old, so every one that arrived in time has
   * been reported. Null before any such reception was planned.
   */
  judgedShare(): number | null {
    return shareUnderOneSecond(this.#judged);
  }

  /** Workers given up for lost (crashed, or an agent that left). */
  get lostWorkers(): number {
    return this.#lost.size;
  }

  /** Their indices, in the order they were lost. */
  lostWorkerIndices(): number[] {
    return [...this.#lost];
  }

  /**
   * A lost worker's plan beyond what it reported (`plan`: its share's planned receptions by
   * second, core/accounting/planned-receptions.ts): planned, and never sent because the worker was lost
   * (`workerLost`), so they count against the run, never as lost in transit; whose loss it was is
   * the worker's side (core/outcome/worker-loss.ts).
   */
  addUnreportedPlan(workerIndex: number, plan: ReadonlyMap<number, number>): void {
    const reported = this.#plannedByWorker.get(workerIndex);
    for (const [second, planned] of plan) {
      const missing = planned - (reported?.get(second) ?? 0);
      if (missing <= 0) continue;
      for (const fates of [this.#fatesOf(second), this.#fates]) {
        fates.planned += missing;
        fates.notSent.workerLost += missing;
      }
      reported?.set(second, planned);
    }
    // With every worker lost, the seconds were closed before this plan was known: the seconds it
    // adds past the last point become points too, so the per-second fates sum to the run's.
    this.#closeReportedSeconds();
  }

  totals(): WorkerTotals {
    const sum = emptyTotals();
    for (const snapshot of this.#latest.values()) {
      // A figure newer than the worker that reported (an older agent) adds nothing.
      for (const key of Object.keys(sum) as (keyof WorkerTotals)[]) sum[key] += snapshot.totals[key] ?? 0;
    }
    return sum;
  }

  /**
   * The workers' calls of the receive method without a text of any run where the profile reads
   * it, together: their counts summed, the first worker's sample (one taken while sending, when
   * any worker has one), and where this run's text was instead, as the first worker that found it
   * says. Null while none came.
   */
  textless(): TextlessCalls | null {
    const reports = [...this.#latest.values()].sort((a, b) => a.workerIndex - b.workerIndex).flatMap((s) => (s.textless ? [s.textless] : []));
    if (reports.length === 0) return null;
    const first = reports.find((t) => t.whileSending > 0) ?? reports[0]!;
    return {
      calls: reports.reduce((sum, t) => sum + t.calls, 0),
      whileSending: reports.reduce((sum, t) => sum + t.whileSending, 0),
      sample: first.sample,
      foundAt: reports.find((t) => t.foundAt !== null)?.foundAt ?? null,
    };
  }

  /** With several hub instances: the run's latency at each instance's connections so far;
   *  null when no worker measured per instance. */
  instanceLatency(): LatencySummary[] | null {
    if (this.#instanceLatency.length === 0) return null;
    return Array.from(this.#instanceLatency, (histogram) => (histogram ? this.#summaryOf(histogram) : summarizeLatency(createLatencyHistogram())));
  }

  /** With several hub instances: every worker's counts per instance so far, summed (a lost
   *  worker's up to its last report); null when no worker counted per instance. */
  instanceCounts(): InstanceCounts[] | null {
    let sum: InstanceCounts[] | null = null;
    for (const snapshot of this.#latest.values()) {
      if (!snapshot.instances) continue;
      sum ??= snapshot.instances.map(emptyInstanceCounts);
      snapshot.instances.forEach((counts, k) => sum![k] && addInstanceCounts(sum![k]!, counts));
    }
    return sum;
  }

  connectionsOpen(): number {
    let open = 0;
    for (const snapshot of this.#latest.values()) open += snapshot.connectionsOpen;
    return open;
  }

  /** Connects in flight, by the workers' latest snapshots. */
  connectionsConnecting(): number {
    let connecting = 0;
    for (const snapshot of this.#latest.values()) connecting += snapshot.connectionsConnecting;
    return connecting;
  }

  errorCounts(): ErrorCounts {
    const counts = emptyErrorCounts();
    for (const snapshot of this.#latest.values()) {
      for (const kind of Object.keys(counts) as (keyof ErrorCounts)[]) counts[kind] += snapshot.errorCounts[kind];
    }
    return counts;
  }

  /** Distinct failure messages across workers, most frequent first. */
  /** Failed connects by cause, all workers together (a lost worker's up to its last report). */
  connectCauses(): ConnectCauseCounts {
    const sum: ConnectCauseCounts = {};
    for (const snapshot of this.#latest.values()) addCauses(sum, snapshot.connectCauses);
    return sum;
  }

  errorSamples(): ErrorSample[] {
    const merged = new Map<string, ErrorSample>();
    for (const snapshot of this.#latest.values()) {
      for (const sample of snapshot.errorSamples) {
        const key = `${sample.kind}\u0000${sample.message}`;
        const existing = merged.get(key);
        if (existing) existing.count += sample.count;
        else merged.set(key, { ...sample });
      }
    }
    return [...merged.values()].sort((a, b) => b.count - a.count);
  }

  #summaryOf(histogram: Histogram): LatencySummary {
    let summary = this.#summaries.get(histogram);
    if (!summary) {
      summary = summarizeLatency(histogram);
      this.#summaries.set(histogram, summary);
    }
    return summary;
  }

  #second(second: number): PartialSecond {
    let point = this.#open.get(second);
    if (!point) {
      point = { histogram: createLatencyHistogram(), sent: 0, received: 0, sentBytes: 0, receivedBytes: 0, connectionsOpen: new Map(), eventLoopLagMs: 0, maxSendLagMs: 0, reconnects: 0, dropped: 0 };
      this.#open.set(second, point);
    }
    return point;
  }

  #fatesOf(second: number): Fates {
    let fates = this.#fatesBySecond.get(second);
    if (!fates) {
      fates = emptyFates();
      this.#fatesBySecond.set(second, fates);
    }
    return fates;
  }

  #closeReportedSeconds(): void {
    const upTo = this.#reportedUpTo();
    const closing = [...this.#open.keys()].filter((second) => second <= upTo).sort((a, b) => a - b);
    for (const second of closing) {
      const p = this.#open.get(second)!;
      this.#open.delete(second);
      if (p.histogram.totalCount > 0) this.#secondHistograms.push({ second, latency: encodeHistogram(p.histogram) });
      this.#points.push({
        second,
        latency: summarizeLatency(p.histogram),
        sent: p.sent,
        received: p.received,
        fates: this.#fatesOf(second),
        sentBytes: p.sentBytes,
        receivedBytes: p.receivedBytes,
        connectionsOpen: [...p.connectionsOpen.values()].reduce((a, b) => a + b, 0),
        eventLoopLagMs: p.eventLoopLagMs,
        maxSendLagMs: p.maxSendLagMs,
        reconnects: p.reconnects,
        dropped: p.dropped,
      });
      const judged = this.#fatesBySecond.get(second - 1);
      if (judged) addFates(this.#judged, judged);
    }
    if (upTo === Infinity) this.#closePlannedSeconds();
  }

  /**
   * Once every worker is done: the seconds planned after the last one reported (a run that ended
   * early when every connection closed still owes its plan, never sent) become silent points, so
   * the per-second fates add up to the run's and the charts show the run's planned time.
   */
  #closePlannedSeconds(): void {
    const last = this.#points.at(-1)?.second ?? 0;
    const later = [...this.#fatesBySecond.keys()].filter((second) => second > last).sort((a, b) => a - b);
    if (later.length === 0) return;
    for (let second = last + 1; second <= later.at(-1)!; second++) {
      this.#points.push({
        second,
        latency: summarizeLatency(createLatencyHistogram()),
        sent: 0,
        received: 0,
        fates: this.#fatesOf(second),
        sentBytes: 0,
        receivedBytes: 0,
        connectionsOpen: 0,
        eventLoopLagMs: 0,
        maxSendLagMs: 0,
        reconnects: 0,
        dropped: 0,
      });
    }
  }

  #reportedUpTo(): number {
    let upTo = Infinity;
    for (let w = 0; w < this.workerCount; w++) {
      if (this.#lost.has(w)) continue;
      const snapshot = this.#latest.get(w);
      if (!snapshot) return -1;
      if (!snapshot.final) upTo = Math.min(upTo, snapshot.second);
    }
    return upTo;
  }
}
