/**
 * One worker's measurements: counters, interval histograms and failures. Scenarios record into
 * it; the engine turns it into a snapshot once per second. It never computes percentiles: the
 * page does, after merging every worker's histograms.
 */
import { createLatencyHistogram, encodeHistogram, GUIDE_LATENCY_LIMIT_US, recordLatencyUs } from '../../core/latency.ts';
import { emptyErrorCounts, type ErrorCounts, type ErrorKind, type ErrorSample, type WorkerTotals } from '../protocol.ts';

/** Distinct failure messages kept per worker; beyond this only the counts grow. */
export const MAX_ERROR_SAMPLES = 20;

export class WorkerStats {
  readonly totals: WorkerTotals = {
    sent: 0,
    received: 0,
    duplicated: 0,
    lost: 0,
    missedSlots: 0,
    connectionsOpened: 0,
    connectionsFailed: 0,
  };
  readonly errorCounts: ErrorCounts = emptyErrorCounts();
  readonly #errorSamples = new Map<string, ErrorSample>();
  readonly #latency = createLatencyHistogram();
  readonly #uncorrected = createLatencyHistogram();
  #sentInInterval = 0;
  #receivedInInterval = 0;
  #underOneSecondInInterval = 0;
  #maxSendLagUs = 0;

  recordSend(sendLagUs: number, sendIntervalUs: number): void {
    this.totals.sent++;
    this.#sentInInterval++;
    if (sendLagUs > this.#maxSendLagUs) this.#maxSendLagUs = sendLagUs;
    if (sendLagUs > sendIntervalUs) this.totals.missedSlots++;
  }

  /** @param correctedUs receive time minus planned send time; @param uncorrectedUs minus actual send time. */
  recordReceive(correctedUs: number, uncorrectedUs: number): void {
    this.totals.received++;
    this.#receivedInInterval++;
    if (correctedUs < GUIDE_LATENCY_LIMIT_US) this.#underOneSecondInInterval++;
    recordLatencyUs(this.#latency, correctedUs);
    recordLatencyUs(this.#uncorrected, uncorrectedUs);
  }

  recordDuplicate(): void {
    this.totals.duplicated++;
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
      sentInInterval: this.#sentInInterval,
      receivedInInterval: this.#receivedInInterval,
      underOneSecondInInterval: this.#underOneSecondInInterval,
      maxSendLagMs: this.#maxSendLagUs / 1_000,
    };
    this.#latency.reset();
    this.#uncorrected.reset();
    this.#sentInInterval = 0;
    this.#receivedInInterval = 0;
    this.#underOneSecondInInterval = 0;
    this.#maxSendLagUs = 0;
    return interval;
  }
}
