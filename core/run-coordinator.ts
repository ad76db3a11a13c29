/**
 * Runs one benchmark across workers, whatever they are (Web Workers in the page, engines in the
 * same process in tests): splits the connections, starts every worker, waits until all are
 * ready, hands out what the scenario needs from the whole run (connection count, group sizes,
 * send-to-connection targets), gives one common "go", and ends the drain when every expected
 * message has arrived or the drain time is up.
 */
import type { Clock, Timers } from './clock.ts';
import { derangement } from './derangement.ts';
import { drainTimeoutMs, type RunConfig } from './run-config.ts';
import { connectConcurrencyPerWorker, splitConnections, splitWithinCapacity } from './split.ts';
import { RunAggregator } from './run-aggregator.ts';
import type { FromWorker, GoMessage, ToWorker, WorkerReady } from '../workers/protocol.ts';

/** A way to talk to one worker. */
export interface WorkerPort {
  post(message: ToWorker): void;
  onMessage(handler: (message: FromWorker) => void): void;
  terminate(): void;
}

export type RunPhase = 'connecting' | 'running' | 'draining' | 'done';

/** Time between "go" and the first planned send, in ms, so that every worker has the message in hand. */
export const GO_LEAD_MS = 250;

export interface CoordinatorOptions {
  /** Called after each message from a worker, for a UI to refresh. */
  onUpdate?: () => void;
  /** Shuffles send-to-connection targets; injectable for tests. */
  random?: () => number;
  /** Time from "go" to the first planned send, ms (default GO_LEAD_MS): longer when agents get "go" over a network. */
  goLeadMs?: number;
  /** Most connections each worker can hold (null: no known limit), e.g. a browser agent's 255
   *  WebSockets; the split respects them. Default: no limits, an even split. */
  capacities?: readonly (number | null)[];
}

export class RunCoordinator {
  readonly aggregator: RunAggregator;
  /** Failures of whole workers (a crash), worded for people. */
  readonly workerFailures: string[] = [];
  #phase: RunPhase = 'connecting';
  readonly #ready = new Map<number, WorkerReady | null>();
  #sendStartUs = 0;
  #sendEndUs = 0;
  #drainTimer: unknown = null;
  #finishSent = false;
  readonly #finished: Promise<void>;
  #resolveFinished!: () => void;

  readonly #onUpdate: () => void;
  readonly #random: () => number;
  readonly #goLeadMs: number;
  readonly #capacities: readonly (number | null)[] | undefined;

  constructor(
    readonly config: RunConfig,
    private readonly ports: WorkerPort[],
    private readonly clock: Clock,
    private readonly timers: Timers,
    options: CoordinatorOptions = {},
  ) {
    this.#onUpdate = options.onUpdate ?? (() => {});
    this.#random = options.random ?? Math.random;
    this.#goLeadMs = options.goLeadMs ?? GO_LEAD_MS;
    this.#capacities = options.capacities;
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
    const shares = this.#capacities ? splitWithinCapacity(this.config.connections, this.#capacities) : splitConnections(this.config.connections, this.ports.length);
    const concurrency = connectConcurrencyPerWorker(this.config.connectConcurrency, this.ports.length);
    const runStartUs = this.clock.nowUs();
    this.ports.forEach((port, workerIndex) => {
      port.onMessage((message) => this.#receive(message));
      port.post({ type: 'start', workerIndex, config: this.config, share: shares[workerIndex]!, connectConcurrency: concurrency, runStartUs });
    });
  }

  /** Ends the run early: workers stop sending, what is in flight drains, then they report. */
  stop(): void {
    if (this.#phase === 'connecting') this.#finish();
    else if (this.#phase === 'running') this.#startDrain();
  }

  terminate(): void {
    if (this.#drainTimer !== null) this.timers.clearTimeout(this.#drainTimer);
    for (const port of this.ports) port.terminate();
  }

  #receive(message: FromWorker): void {
    if (message.type === 'ready') {
      this.#ready.set(message.workerIndex, message);
      this.#goWhenAllReady();
    } else if (message.type === 'snapshot') {
      this.aggregator.add(message);
      if (this.#phase === 'running' && this.clock.nowUs() >= this.#sendEndUs) this.#startDrain();
      if (this.#phase === 'draining' && this.#allArrived()) this.#finish();
    } else {
      this.workerFailures.push(`Worker ${message.workerIndex + 1} failed and was stopped: ${message.message}. Its figures up to then are kept.`);
      this.aggregator.markWorkerLost(message.workerIndex);
      this.ports[message.workerIndex]?.terminate();
      // A lost worker cannot hold the others at the start line.
      this.#ready.set(message.workerIndex, null);
      this.#goWhenAllReady();
    }
    if (this.aggregator.finished && this.#phase !== 'done') {
      this.#phase = 'done';
      if (this.#drainTimer !== null) this.timers.clearTimeout(this.#drainTimer);
      this.#resolveFinished();
    }
    this.#onUpdate();
  }

  #goWhenAllReady(): void {
    if (this.#ready.size !== this.ports.length || this.#phase !== 'connecting' || this.#finishSent) return;
    this.#phase = 'running';
    // Whole microseconds: the planned times travel as integers, and a receiver compares them
    // with the warm-up's end.
    this.#sendStartUs = Math.round(this.clock.nowUs()) + this.#goLeadMs * 1_000;
    this.#sendEndUs = this.#sendStartUs + this.config.durationSec * 1_000_000;
    const ready = [...this.#ready.values()].filter((r): r is WorkerReady => r !== null);
    const common = {
      type: 'go' as const,
      sendStartUs: this.#sendStartUs,
      sendEndUs: this.#sendEndUs,
      warmupEndUs: this.#sendStartUs + this.config.warmupSec * 1_000_000,
      openConnections: ready.reduce((sum, r) => sum + r.connectionsOpen, 0),
      groupMembers: sumGroups(ready.map((r) => r.groupMembers)),
    };
    const targets = this.config.scenario === 'sendToConnection' ? this.#targets() : null;
    this.ports.forEach((port, workerIndex) => {
      const go: GoMessage = { ...common, targets: targets?.get(workerIndex) ?? [] };
      port.post(go);
    });
    // Workers stop sending at the planned end by themselves; the drain clock starts then.
    this.#drainTimer = this.timers.setTimeout(() => this.#startDrain(), (this.#sendEndUs - this.clock.nowUs()) / 1_000);
  }

  /** Every open connection sends to another open connection: a derangement of the ids. */
  #targets(): Map<number, (string | null)[]> {
    const slots: { workerIndex: number; local: number; id: string }[] = [];
    for (const [workerIndex, ready] of this.#ready) {
      ready?.connectionIds.forEach((id, local) => {
        if (id) slots.push({ workerIndex, local, id });
      });
    }
    const perWorker = new Map<number, (string | null)[]>();
    for (const [workerIndex, ready] of this.#ready) perWorker.set(workerIndex, new Array(ready?.connectionIds.length ?? 0).fill(null));
    if (slots.length < 2) return perWorker;
    const order = derangement(slots.length, this.#random);
    slots.forEach((slot, i) => (perWorker.get(slot.workerIndex)![slot.local] = slots[order[i]!]!.id));
    return perWorker;
  }

  #startDrain(): void {
    if (this.#phase !== 'running') return;
    this.#phase = 'draining';
    for (const port of this.ports) port.post({ type: 'stop' });
    if (this.#drainTimer !== null) this.timers.clearTimeout(this.#drainTimer);
    this.#drainTimer = this.timers.setTimeout(() => this.#finish(), drainTimeoutMs(this.config));
  }

  #allArrived(): boolean {
    // Only figures taken after every worker stopped sending count: an earlier snapshot can
    // balance before its worker's last sends.
    if (!this.aggregator.allWorkersIn(['draining', 'done'])) return false;
    const totals = this.aggregator.totals();
    return totals.received >= totals.expected;
  }

  #finish(): void {
    if (this.#finishSent) return;
    this.#finishSent = true;
    if (this.#phase !== 'done') this.#phase = 'draining';
    if (this.#drainTimer !== null) this.timers.clearTimeout(this.#drainTimer);
    for (const port of this.ports) port.post({ type: 'finish' });
  }
}

function sumGroups(perWorker: number[][]): number[] {
  const length = Math.max(0, ...perWorker.map((g) => g.length));
  return Array.from({ length }, (_, g) => perWorker.reduce((sum, groups) => sum + (groups[g] ?? 0), 0));
}
