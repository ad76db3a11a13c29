/**
 * Runs one benchmark across workers, whatever they are (Web Workers in the page, engines in the
 * same process in tests): splits the connections, starts every worker, waits until all are
 * ready, gives one common "go" so the sends of all workers share one schedule, collects the
 * snapshots and knows when the run is over.
 */
import type { Clock } from './clock.ts';
import type { RunConfig } from './run-config.ts';
import { connectConcurrencyPerWorker, splitConnections } from './split.ts';
import { RunAggregator } from './run-aggregator.ts';
import type { FromWorker, ToWorker } from '../workers/protocol.ts';

/** A way to talk to one worker. */
export interface WorkerPort {
  post(message: ToWorker): void;
  onMessage(handler: (message: FromWorker) => void): void;
  terminate(): void;
}

export type RunPhase = 'connecting' | 'running' | 'draining' | 'done';

/** Time between "go" and the first planned send, in ms, so that every worker has the message in hand. */
export const GO_LEAD_MS = 250;

export class RunCoordinator {
  readonly aggregator: RunAggregator;
  /** Failures of whole workers (a crash), worded for people. */
  readonly workerFailures: string[] = [];
  #phase: RunPhase = 'connecting';
  readonly #ready = new Set<number>();
  #sendStartUs = 0;
  #sendEndUs = 0;
  readonly #finished: Promise<void>;
  #resolveFinished!: () => void;

  constructor(
    readonly config: RunConfig,
    private readonly ports: WorkerPort[],
    private readonly clock: Clock,
    /** Called after each message from a worker, for a UI to refresh. */
    private readonly onUpdate: () => void = () => {},
  ) {
    this.aggregator = new RunAggregator(ports.length);
    this.#finished = new Promise((resolve) => (this.#resolveFinished = resolve));
  }

  get phase(): RunPhase {
    return this.#phase;
  }

  /** Planned send window, epoch microseconds; 0 before "go". */
  get sendWindowUs(): { startUs: number; endUs: number } {
    return { startUs: this.#sendStartUs, endUs: this.#sendEndUs };
  }

  /** Resolves once every worker has reported its end or been lost. */
  finished(): Promise<void> {
    return this.#finished;
  }

  start(): void {
    const shares = splitConnections(this.config.connections, this.ports.length);
    const concurrency = connectConcurrencyPerWorker(this.config.connectConcurrency, this.ports.length);
    const runStartUs = this.clock.nowUs();
    this.ports.forEach((port, workerIndex) => {
      port.onMessage((message) => this.#receive(message));
      port.post({ type: 'start', workerIndex, config: this.config, share: shares[workerIndex]!, connectConcurrency: concurrency, runStartUs });
    });
  }

  /** Ends the run early: workers stop sending, drain what is in flight and report. */
  stop(): void {
    if (this.#phase === 'done') return;
    if (this.#phase !== 'connecting') this.#phase = 'draining';
    for (const port of this.ports) port.post({ type: 'stop' });
  }

  terminate(): void {
    for (const port of this.ports) port.terminate();
  }

  #receive(message: FromWorker): void {
    if (message.type === 'ready') {
      this.#ready.add(message.workerIndex);
      if (this.#ready.size === this.ports.length && this.#phase === 'connecting') this.#go();
    } else if (message.type === 'snapshot') {
      this.aggregator.add(message);
      if (message.phase === 'draining' && this.#phase === 'running') this.#phase = 'draining';
    } else {
      this.workerFailures.push(`Worker ${message.workerIndex + 1} failed and was stopped: ${message.message}. Its figures up to then are kept.`);
      this.aggregator.markWorkerLost(message.workerIndex);
      this.ports[message.workerIndex]?.terminate();
      // A lost worker cannot hold the others at the start line.
      this.#ready.add(message.workerIndex);
      if (this.#ready.size === this.ports.length && this.#phase === 'connecting') this.#go();
    }
    if (this.aggregator.finished && this.#phase !== 'done') {
      this.#phase = 'done';
      this.#resolveFinished();
    }
    this.onUpdate();
  }

  #go(): void {
    this.#phase = 'running';
    this.#sendStartUs = this.clock.nowUs() + GO_LEAD_MS * 1_000;
    this.#sendEndUs = this.#sendStartUs + this.config.durationSec * 1_000_000;
    for (const port of this.ports) port.post({ type: 'go', sendStartUs: this.#sendStartUs, sendEndUs: this.#sendEndUs });
  }
}
