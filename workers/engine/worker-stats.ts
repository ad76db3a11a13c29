/**
 * One worker's measurements: counters, interval histograms and failures. Scenarios record into
 * it; the engine turns it into a snapshot once per second. It never computes percentiles: the
 * page does, after merging every worker's histograms.
 */
import { FatesRecorder, type NotSentReason } from '../../core/accounting/index.ts';
import {
  emptyErrorCounts,
  emptyTotals,
  type ErrorCounts,
  type ErrorKind,
  type ErrorSample,
  type IntervalCounts,
  type TextlessCalls,
  type WorkerTotals,
} from '../../core/execution/index.ts';
import { CONNECT_TIMEOUT_MS, scrubSecrets, emptyInstanceCounts, type InstanceCounts } from '../../core/run-config/index.ts';
import { createLatencyHistogram, GUIDE_LATENCY_LIMIT_US, postHistogram, recordLatencyUs, type Histogram } from '../../core/latency/index.ts';
import { DropLedger } from './drop-ledger.ts';
import { ENGINE_WORDS } from './words.ts';
import type { ConnectCause, ConnectCauseCounts } from '../../core/client/index.ts';
import type { WireBytes } from './connection.ts';

/** Distinct failure messages kept per worker; beyond this only the counts grow. */
export const MAX_ERROR_SAMPLES = 20;

/** A timer late by less than this, in ms, is the loop's ordinary work, not a stall worth keeping. */
export const MIN_STALL_MS = 50;

/**
 * Stretches in which a worker's event loop ran nothing: each a timer that ran late, from the time
 * it was due to when it ran. That is a lower bound of the stall (the loop may have been busy
 * before the timer came due), so a connect is never blamed on the client for more than was seen.
 * A connect that times out is weighed against them (core/client/connect-causes.ts timeOutCause).
 * Stalls are kept for two connect time limits: no connect waits longer.
 */
export class EventLoopStalls {
  /** In the order their timers ran, epoch µs. */
  readonly #stalls: { fromUs: number; toUs: number }[] = [];

  /** A timer due at `dueUs` ran at `ranUs`. */
  timerRan(dueUs: number, ranUs: number): void {
    if (ranUs - dueUs < MIN_STALL_MS * 1_000) return;
    this.#stalls.push({ fromUs: dueUs, toUs: ranUs });
    const keptFromUs = dueUs - 2 * CONNECT_TIMEOUT_MS * 1_000;
    while (this.#stalls[0]!.toUs < keptFromUs) this.#stalls.shift();
  }

  /** How long the loop was seen stalled within [fromUs, toUs], ms; overlapping stalls count once. */
  stalledMs(fromUs: number, toUs: number): number {
    let stalledUs = 0;
    let coveredUs = fromUs;
    for (const stall of [...this.#stalls].sort((a, b) => a.fromUs - b.fromUs)) {
      const startUs = Math.max(stall.fromUs, coveredUs);
      const endUs = Math.min(stall.toUs, toUs);
      if (endUs <= startUs) continue;
      stalledUs += endUs - startUs;
      coveredUs = endUs;
    }
    return stalledUs / 1_000;
  }
}

function emptyInterval(): IntervalCounts {
  return { sent: 0, received: 0, sentBytes: 0, receivedBytes: 0 };
}

export class WorkerStats {
  readonly totals: WorkerTotals = emptyTotals();
  readonly errorCounts: ErrorCounts = emptyErrorCounts();
  /** Failed connects by cause (core/client/connect-causes.ts): which side each failure belongs to. */
  readonly connectCauses: ConnectCauseCounts = {};
  /** When this worker's own event loop stalled, as its timers saw it (the connection pool's). */
  readonly stalls = new EventLoopStalls();
  /** The bytes every connection of this worker carried, counted by the connections themselves
   *  (ConnectionOptions.wire): the byte figures of each interval and of the totals come from it. */
  readonly wire: WireBytes = { sent: 0, received: 0 };
  /** The wire's counts when the last interval was taken. */
  readonly #wireTaken: WireBytes = { sent: 0, received: 0 };
  /** What became of every planned reception, per planned second (core/accounting/fates.ts). */
  fates = new FatesRecorder(0);
  /** Receptions after this time (the page's "finish") arrived after the drain. Epoch µs. */
  drainEndUs = Infinity;
  readonly #errorSamples = new Map<string, ErrorSample>();
  readonly #latency = createLatencyHistogram();
  readonly #uncorrected = createLatencyHistogram();
  readonly #connect = createLatencyHistogram();
  /** Drops and reconnects (core/drops/totals.ts). */
  readonly drops = new DropLedger();
  readonly #reconnect = createLatencyHistogram();
  #interval = emptyInterval();
  #maxSendLagUs = 0;
  /** The most a reception came before its planned time, over the run (not reset per interval). */
  #maxNegativeUs = 0;

  /** With several hub instances: receptions planned for and arrived at each instance's
   *  connections (core/run-config/hub-instances.ts); its connections are counted from the pool. Null for one. */
  instances: InstanceCounts[] | null = null;

  /** Counts per hub instance from now on (a run over `count` instances, 2 or more). */
  countInstances(count: number): void {
    this.instances = Array.from({ length: count }, emptyInstanceCounts);
    this.#instanceLatency = Array.from({ length: count }, createLatencyHistogram);
  }

  /** With several hub instances: each one's latency this interval (one more histogram per
   *  instance, about 80 KB each, for a p99 per instance). */
  #instanceLatency: Histogram[] | null = null;

  /** The run's time base: fates are attributed to seconds counted from it. */
  startRun(runStartUs: number): void {
    this.fates = new FatesRecorder(runStartUs);
  }

  /** A measured slot came due: its receptions are planned, whatever happens to it next. */
  recordSlot(plannedUs: number, recipients: number, perInstance?: readonly number[]): void {
    this.fates.add(plannedUs, 'planned', recipients);
    if (this.instances && perInstance) for (let k = 0; k < perInstance.length; k++) this.instances[k]!.planned += perInstance[k]!;
  }

  /** A planned slot that was not sent, and why. */
  recordNotSent(plannedUs: number, reason: NotSentReason, recipients: number): void {
    this.fates.addNotSent(plannedUs, reason, recipients);
  }

  /** A measured send handed to the connection (a write that then fails is also counted in the
   *  fates). Its bytes are counted by the connection, with everything else it wrote. */
  recordSend(sendLagUs: number, sendIntervalUs: number): void {
    this.totals.sent++;
    this.#interval.sent++;
    if (sendLagUs > this.#maxSendLagUs) this.#maxSendLagUs = sendLagUs;
    if (sendLagUs > sendIntervalUs) this.totals.missedSlots++;
  }

  /**
   * A new measured reception. Latency is from the planned send time (corrected for coordinated
   * omission) and from the actual send time. A negative latency means the sender's clock is
   * ahead of the receiver's (agents on other machines): counted as a clock-health figure and
   * recorded as 1 µs, the histogram's floor.
   */
  recordReceive(plannedUs: number, receivedUs: number, sendLagUs: number, instance = 0): void {
    const correctedUs = receivedUs - plannedUs;
    this.totals.received++;
    this.#interval.received++;
    if (correctedUs < 0) {
      this.totals.negativeLatencies++;
      if (-correctedUs > this.#maxNegativeUs) this.#maxNegativeUs = -correctedUs;
    }
    const bucket = receivedUs >= this.drainEndUs ? 'afterDrain' : correctedUs < GUIDE_LATENCY_LIMIT_US ? 'underOneSecond' : 'late';
    this.fates.add(plannedUs, bucket, 1);
    if (this.instances) {
      this.instances[instance]![bucket]++;
      recordLatencyUs(this.#instanceLatency![instance]!, correctedUs);
    }
    recordLatencyUs(this.#latency, correctedUs);
    recordLatencyUs(this.#uncorrected, correctedUs - sendLagUs);
  }

  /** A measured slot that came due and never fired before the run ended: the client fell behind.
   *  `recipients`: the slot's present receivers (the absent ones are counted apart). */
  recordUnfired(plannedUs: number, recipients: number): void {
    if (recipients > 0) this.fates.addNotSent(plannedUs, 'clientBehind', recipients);
    this.totals.missedSlots++;
  }

  /** A slot not sent because its connection was backed up (its fate is recorded with recordNotSent). */
  recordBackedUp(): void {
    this.totals.backedUp++;
    this.recordError('send', ENGINE_WORDS.backedUp());
  }

  /** Messages stateful reconnect carried a second time (BenchConnection.onResent): apart from the figures. */
  recordResent(direction: 'sent' | 'received', messages: number, bytes: number): void {
    if (direction === 'sent') {
      this.totals.resentSent += messages;
      this.totals.resentSentBytes += bytes;
    } else {
      this.totals.resentReceived += messages;
      this.totals.resentReceivedBytes += bytes;
    }
  }

  recordDuplicate(): void {
    this.totals.duplicated++;
  }

  recordStale(): void {
    this.totals.stale++;
  }

  /** A message of another run on the same hub: the tool's header with another run id. */
  recordForeign(): void {
    this.totals.foreign++;
  }

  /** A call of the receive method that is not the tool's message (no header: a hub's welcome
   *  message, another client's chat line), or a return value that is not the message sent. */
  recordUnsolicited(): void {
    this.totals.unsolicited++;
  }

  /** A new reception whose text the hub cut or changed: arrived (recordReceive), and altered. */
  recordAltered(): void {
    this.totals.altered++;
  }

  /** A call of the profile's receive method, whatever it carried. */
  recordReceiveCall(): void {
    this.totals.receiveCalls++;
  }

  /** Calls of the receive method without a text of this run where the profile reads it; null while none came. */
  textless: TextlessCalls | null = null;

  /**
   * A call of the receive method without a text of any run where the profile reads it (it is
   * unsolicited too). `sample`: what it carried, quoted, when the caller takes one (the first
   * call, and the first while sending); `foundAt`: where this run's text was in it instead, when
   * the caller looked and found it.
   */
  recordTextless(whileSending: boolean, sample: string | null, foundAt: number | string | null): void {
    const textless = (this.textless ??= { calls: 0, whileSending: 0, sample: '', foundAt: null });
    textless.calls++;
    if (whileSending) textless.whileSending++;
    if (sample !== null) textless.sample = sample;
    if (textless.foundAt === null) textless.foundAt = foundAt;
  }

  recordConnected(connectUs: number): void {
    this.totals.connectionsOpened++;
    recordLatencyUs(this.#connect, connectUs);
  }

  /** A connection lost at `atUs` (a planned drop or any other loss); once per gap. */
  recordLost(index: number, atUs: number): void {
    this.drops.lost(index, atUs);
  }

  /** A connection back at `atUs`: its time to reconnect goes into the histogram. */
  recordBack(index: number, atUs: number, how: 'resumed' | 'reconnected'): void {
    const tookUs = this.drops.back(index, atUs, how);
    if (tookUs !== null) recordLatencyUs(this.#reconnect, tookUs);
  }

  recordConnectFailure(kind: ErrorKind, message: string, cause: ConnectCause = 'other'): void {
    this.totals.connectionsFailed++;
    this.connectCauses[cause] = (this.connectCauses[cause] ?? 0) + 1;
    this.recordError(kind, message);
  }

  /** Takes secrets out of error texts (set by the engine from the run's credentials). */
  scrub: (text: string) => string = (text) => scrubSecrets(text);

  recordError(kind: ErrorKind, message: string): void {
    message = this.scrub(message);
    this.errorCounts[kind]++;
    const key = `${kind}\u0000${message}`;
    const sample = this.#errorSamples.get(key);
    if (sample) sample.count++;
    else if (this.#errorSamples.size < MAX_ERROR_SAMPLES) this.#errorSamples.set(key, { kind, message, count: 1 });
  }

  errorSamples(): ErrorSample[] {
    return [...this.#errorSamples.values()].map((sample) => ({ ...sample }));
  }

  /** The bytes carried since the last interval are this interval's; the totals, all carried so far. */
  #takeWire(): void {
    const { sent, received } = this.wire;
    this.#interval.sentBytes = sent - this.#wireTaken.sent;
    this.#interval.receivedBytes = received - this.#wireTaken.received;
    this.#wireTaken.sent = sent;
    this.#wireTaken.received = received;
    this.totals.sentBytes = sent;
    this.totals.receivedBytes = received;
  }

  /** Returns this interval's figures and starts the next interval. */
  takeInterval() {
    this.#takeWire();
    const interval = {
      latencyHistogram: postHistogram(this.#latency),
      uncorrectedHistogram: postHistogram(this.#uncorrected),
      connectHistogram: postHistogram(this.#connect),
      reconnectHistogram: postHistogram(this.#reconnect),
      drops: { totals: { ...this.drops.totals }, ...this.drops.takeInterval() },
      interval: this.#interval,
      fates: this.fates.take(),
      maxSendLagMs: this.#maxSendLagUs / 1_000,
      maxNegativeLatencyUs: this.#maxNegativeUs,
      ...(this.#instanceLatency ? { instanceLatencyHistograms: this.#instanceLatency.map(postHistogram) } : {}),
    };
    for (const histogram of this.#instanceLatency ?? []) histogram.reset();
    this.#latency.reset();
    this.#uncorrected.reset();
    this.#connect.reset();
    this.#reconnect.reset();
    this.#interval = emptyInterval();
    this.#maxSendLagUs = 0;
    return interval;
  }
}
