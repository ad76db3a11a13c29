/**
 * One worker's measurements: counters, interval histograms and failures. Scenarios record into
 * it; the engine turns it into a snapshot once per second. It never computes percentiles: the
 * page does, after merging every worker's histograms.
 */
import { createLatencyHistogram, encodeHistogram, GUIDE_LATENCY_LIMIT_US, recordLatencyUs } from '../../core/latency.ts';
import {
  emptyErrorCounts,
  emptyTotals,
  type ErrorCounts,
  type ErrorKind,
  type ErrorSample,
  type IntervalCounts,
  type WorkerTotals,
} from '../protocol.ts';

/** Distinct failure messages kept per worker; beyond this only the counts grow. */
export const MAX_ERROR_SAMPLES = 20;

function emptyInterval(): IntervalCounts {
  return { sent: 0, received: 0, underOneSecond: 0, sentBytes: 0, receivedBytes: 0 };
}

export class WorkerStats {
  readonly totals: WorkerTotals = emptyTotals();
  readonly errorCounts: ErrorCounts = emptyErrorCounts();
  readonly #errorSamples = new Map<string, ErrorSample>();
  readonly #latency = createLatencyHistogram();
  readonly #uncorrected = createLatencyHistogram();
  readonly #connect = createLatencyHistogram();
  #interval = emptyInterval();
  #maxSendLagUs = 0;

  /** A measured send: `recipients` receptions are now expected. */
  recordSend(sendLagUs: number, sendIntervalUs: number, recipients: number, bytes: number): void {
    this.totals.sent++;
    this.totals.expected += recipients;
    this.totals.sentBytes += bytes;
    this.#interval.sent++;
    this.#interval.sentBytes += bytes;
    if (sendLagUs > this.#maxSendLagUs) this.#maxSendLagUs = sendLagUs;
    if (sendLagUs > sendIntervalUs) this.totals.missedSlots++;
  }

  /** A measured send that was never written: nothing to expect from it. */
  recordSendFailure(recipients: number, bytes: number): void {
    this.totals.sent--;
    this.totals.expected -= recipients;
    this.totals.sentBytes -= bytes;
  }

  /** @param correctedUs receive time minus planned send time; @param uncorrectedUs minus actual send time. */
  recordReceive(correctedUs: number, uncorrectedUs: number, bytes: number): void {
    this.totals.received++;
    this.totals.receivedBytes += bytes;
    this.#interval.received++;
    this.#interval.receivedBytes += bytes;
    if (correctedUs < GUIDE_LATENCY_LIMIT_US) this.#interval.underOneSecond++;
    recordLatencyUs(this.#latency, correctedUs);
    recordLatencyUs(this.#uncorrected, uncorrectedUs);
  }

  recordBackedUp(): void {
    this.totals.backedUp++;
    this.recordError('send', 'Slot not sent: the connection already held its limit of unsent messages (64 sends or 1 MiB). The hub or the network is not taking messages as fast as they are planned.');
  }

  recordDuplicate(): void {
    this.totals.duplicated++;
  }

  recordStale(): void {
    this.totals.stale++;
  }

  recordConnected(connectUs: number): void {
    this.totals.connectionsOpened++;
    recordLatencyUs(this.#connect, connectUs);
  }

  recordConnectFailure(kind: ErrorKind, message: string): void {
    this.totals.connectionsFailed++;
    this.recordError(kind, message);
  }

  recordError(kind: ErrorKind, message: string): void {
    this.errorCounts[kind]++;
    const key = `${kind}\u0000${message}`;
    const sample = this.#errorSamples.get(key);
    if (sample) sample.count++;
    else if (this.#errorSamples.size < MAX_ERROR_SAMPLES) this.#errorSamples.set(key, { kind, message, count: 1 });
  }

  errorSamples(): ErrorSample[] {
    return [...this.#errorSamples.values()].map((sample) => ({ ...sample }));
  }

  /** Returns this interval's figures and starts the next interval. */
  takeInterval() {
    const interval = {
      latencyHistogram: encodeHistogram(this.#latency),
      uncorrectedHistogram: encodeHistogram(this.#uncorrected),
      connectHistogram: encodeHistogram(this.#connect),
      interval: this.#interval,
      maxSendLagMs: this.#maxSendLagUs / 1_000,
    };
    this.#latency.reset();
    this.#uncorrected.reset();
    this.#connect.reset();
    this.#interval = emptyInterval();
    this.#maxSendLagUs = 0;
    return interval;
  }
}
