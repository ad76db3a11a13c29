/**
 * One worker's run, by phase: open connections → wait for the page's "go" → run the scenario →
 * drain → report and close. Environment-agnostic: the browser worker, Node and unit tests each
 * inject the clock, the timers, the connection factory and where snapshots are posted.
 */
import { drainTimeoutMs } from '../../core/run-config.ts';
import type { Clock, Timers } from '../../core/clock.ts';
import type { FromWorker, GoMessage, StartMessage, ToWorker, WorkerPhase } from '../protocol.ts';
import { EchoScenario } from '../scenarios/echo.ts';
import type { ConnectionFactory, ErrorClassifier } from './connection.ts';
import { ConnectionPool } from './connection-pool.ts';
import { WorkerStats } from './worker-stats.ts';

export interface EngineDeps {
  clock: Clock;
  timers: Timers;
  connect: ConnectionFactory;
  classify: ErrorClassifier;
  post: (message: FromWorker) => void;
}

/** How often the drain checks for messages still in flight, in ms. */
const DRAIN_POLL_MS = 50;

export class BenchEngine {
  readonly stats = new WorkerStats();
  #phase: WorkerPhase = 'connecting';
  #start: StartMessage | null = null;
  #pool: ConnectionPool | null = null;
  #scenario: EchoScenario | null = null;
  #reportTimer: unknown = null;
  #endTimer: unknown = null;
  #second = 0;
  #lastTickLagMs = 0;
  #stopRequested = false;

  constructor(private readonly deps: EngineDeps) {}

  get phase(): WorkerPhase {
    return this.#phase;
  }

  handle(message: ToWorker): void {
    if (message.type === 'start') void this.start(message);
    else if (message.type === 'go') this.go(message);
    else if (message.type === 'stop') void this.stop();
  }

  async start(message: StartMessage): Promise<void> {
    if (this.#start) throw new Error('This worker has already started a run; start a new worker for the next run.');
    this.#start = message;
    const { config, share } = message;
    this.#pool = new ConnectionPool(
      { connect: this.deps.connect, classify: this.deps.classify, stats: this.stats },
      { endpointUrl: config.endpointUrl, transport: config.transport, protocol: config.protocol },
      share.firstIndex,
      share.count,
      message.connectConcurrency,
    );
    this.#scheduleReport();
    await this.#pool.openAll();
    if (this.#stopRequested) return this.#drain();
    this.#phase = 'ready';
    // Tell the page at once, not at the next tick: it waits for every worker before "go".
    this.deps.post({
      type: 'ready',
      workerIndex: message.workerIndex,
      connectionsOpen: this.#pool.openCount,
      connectionsFailed: this.stats.totals.connectionsFailed,
    });
  }

  go(message: GoMessage): void {
    if (this.#phase !== 'ready' || !this.#start || !this.#pool) return;
    const { config } = this.#start;
    this.#phase = 'running';
    this.#scenario = new EchoScenario({
      clock: this.deps.clock,
      timers: this.deps.timers,
      stats: this.stats,
      messageBytes: config.messageBytes,
      sendIntervalMs: config.sendIntervalMs,
      totalConnections: config.connections,
    });
    this.#scenario.start(this.#pool.connections, message.sendStartUs, message.sendEndUs);
    const untilEndMs = Math.max(0, (message.sendEndUs - this.deps.clock.nowUs()) / 1_000);
    this.#endTimer = this.deps.timers.setTimeout(() => void this.#drain(), untilEndMs);
  }

  /** Ends the run early (the user pressed Stop): whatever phase, it drains and reports. */
  async stop(): Promise<void> {
    this.#stopRequested = true;
    if (this.#phase === 'connecting') this.#pool?.abortOpening();
    else if (this.#phase === 'ready' || this.#phase === 'running') await this.#drain();
  }

  async #drain(): Promise<void> {
    if (this.#phase === 'draining' || this.#phase === 'done') return;
    this.#phase = 'draining';
    if (this.#endTimer !== null) this.deps.timers.clearTimeout(this.#endTimer);
    const scenario = this.#scenario;
    scenario?.stop();
    if (scenario && this.#start) {
      const deadlineUs = this.deps.clock.nowUs() + drainTimeoutMs(this.#start.config) * 1_000;
      while (scenario.pendingCount() > 0 && this.deps.clock.nowUs() < deadlineUs) {
        await new Promise<void>((resolve) => this.deps.timers.setTimeout(resolve, DRAIN_POLL_MS));
      }
      this.stats.totals.lost = scenario.pendingCount();
    }
    this.#phase = 'done';
    if (this.#reportTimer !== null) this.deps.timers.clearTimeout(this.#reportTimer);
    await this.#pool?.closeAll();
    this.#second++;
    this.#post(true);
  }

  /** Ticks at runStart + k s, so every worker's snapshot k covers the same second. */
  #scheduleReport(): void {
    if (!this.#start) return;
    const dueUs = this.#start.runStartUs + (this.#second + 1) * 1_000_000;
    const delayMs = Math.max(0, (dueUs - this.deps.clock.nowUs()) / 1_000);
    this.#reportTimer = this.deps.timers.setTimeout(() => {
      this.#reportTimer = null;
      if (this.#phase === 'done') return;
      // A timer that fires late means the worker's event loop is busy: the client itself may be
      // the bottleneck, and the page says so.
      this.#lastTickLagMs = Math.max(0, (this.deps.clock.nowUs() - dueUs) / 1_000);
      this.#second++;
      this.#post(false);
      this.#scheduleReport();
    }, delayMs);
  }

  #post(final: boolean): void {
    const pool = this.#pool;
    this.deps.post({
      type: 'snapshot',
      workerIndex: this.#start?.workerIndex ?? -1,
      phase: this.#phase,
      second: this.#second,
      final,
      ...this.stats.takeInterval(),
      totals: { ...this.stats.totals },
      connectionsOpen: pool?.openCount ?? 0,
      connectionsConnecting: pool?.connectingCount ?? 0,
      eventLoopLagMs: this.#lastTickLagMs,
      errorCounts: { ...this.stats.errorCounts },
      errorSamples: this.stats.errorSamples(),
    });
  }
}
