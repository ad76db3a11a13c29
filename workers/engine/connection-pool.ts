/**
 * Opens a worker's share of the connections at a paced rate (at most `concurrency` connects in
 * flight: Chromium opens 255 WebSockets in ~3 s with 8 in flight, ~5 s all at once) and keeps
 * track of their states. One connection's failure is counted and never ends the run, but
 * evidence that nothing can open does: with none open, the first GIVE_UP_AFTER_FAILURES
 * connects all failed (refused, not a hub, ...), or none answered within FIRST_ANSWER_MS (a
 * stalled hub), so the rest are not tried. Trying 100,000 refused connects 8 at a time took
 * over a minute; waiting out a frozen hub's 15-s connect timeouts, wave after wave, half a minute.
 * The connect phase is bounded too once connects were answered: none answered for
 * CONNECTS_UNANSWERED_MS while some are outstanding (a hub frozen mid-ramp), the rest are not
 * tried and the run goes on with what opened; what the others were to send or receive is still
 * planned. A slow hub is never given up on: any answer in time keeps it going.
 *
 * A connect that times out is the hub's (`timedOut`), unless this engine's own event loop was
 * stalled for much of its time limit (its timers ran late: EventLoopStalls): then the answer may
 * have come in time and sat unread, and the time-out is the client's (`clientStarved`).
 */
import type { Clock, Timers } from '../../core/clocks/index.ts';
import { instanceOf } from '../../core/plan/index.ts';
import {
  CONNECT_TIMEOUT_MS,
  CONNECTS_UNANSWERED_MS,
  FIRST_ANSWER_MS,
  GIVE_UP_AFTER_FAILURES,
  LATE_LOOK_MS,
  credentialsFor,
  connectingText,
  type Credentials,
} from '../../core/run-config/index.ts';
import type { WorkerStats } from './worker-stats.ts';
import { connectCauseOf, timeOutCause, type ConnectCause } from '../../core/client/index.ts';
import type { BenchConnection, ConnectionFactory, ConnectionOptions, ErrorClassifier } from './connection.ts';
import { ENGINE_WORDS } from './words.ts';

/** How often the connects are looked at for the evidence to stop (FIRST_ANSWER_MS, CONNECTS_UNANSWERED_MS), ms. */
const LOOK_INTERVAL_MS = 1_000;
/** Connections stopped at once at the end of a run (closeAll). */
export const CLOSE_CONCURRENCY = 256;

export type ConnectionState = 'pending' | 'connecting' | 'open' | 'reconnecting' | 'failed' | 'closed';

export interface PooledConnection {
  /** Run-wide index of this connection. */
  readonly index: number;
  readonly connection: BenchConnection;
  state: ConnectionState;
  /** Called when the connection is back as a new connection (a new id, in no group). */
  onReconnected?: () => void;
}

export interface PoolDeps {
  clock: Clock;
  timers: Timers;
  connect: ConnectionFactory;
  classify: ErrorClassifier;
  stats: WorkerStats;
  /** True in a browser, whose per-origin connection queue is a likely cause of a slow connect. */
  inBrowser: boolean;
  /** What the engine adds to each connection as it is built (its receive handlers): before its
   *  connect, so nothing that arrives early is missed. */
  onBuilt?: (pooled: PooledConnection) => void;
}

/**
 * A pooled connection whose client object is built at its first use, which for most is its
 * connect. Built up front, 10,000 connections' clients (HubConnection, HttpConnection, their
 * handlers) were ~30 MB of heap before the first connect, held through the whole ramp: every
 * major collection there marked them (the runner kept 20.8 MB after its first collection at
 * 10,000 connections, the plain-library control 11.3; bench/PEERS-RESULTS.md, issue 44).
 */
class LazyPooled implements PooledConnection {
  state: ConnectionState = 'pending';
  onReconnected?: () => void;
  #connection: BenchConnection | null = null;

  constructor(
    readonly index: number,
    private readonly build: { connect: (index: number) => BenchConnection; wire: (pooled: PooledConnection) => void },
  ) {}

  get connection(): BenchConnection {
    if (this.#connection === null) {
      this.#connection = this.build.connect(this.index);
      // Its handlers go on once it is in place: they read `connection` themselves.
      this.build.wire(this);
    }
    return this.#connection;
  }
}

export class ConnectionPool {
  readonly connections: PooledConnection[] = [];
  #aborted = false;
  #closing = false;
  /** Connects that opened (ever) and that failed, for the evidence that nothing can open. */
  #opened = 0;
  #failed = 0;
  #answered = false;
  /** When a connect last answered (opened, or failed with an answer), epoch µs. */
  #answeredUs = 0;
  /** Whether every connect failure so far was a refusal. */
  #allRefused = false;
  /** Why the pool stopped trying, once it has; resolves `#abandoned` for the connects in flight. */
  #gaveUp: string | null = null;
  /** The cause counted for connects given up in flight or never tried (null: none counted). */
  #gaveUpCause: ConnectCause | null = null;
  /** Set once the connects in flight were given up: a connect that starts later is given up at once. */
  #abandoned = false;
  /** How to end each connect in flight before its answer (given up, or its time limit). One per
   *  connect, dropped with it: a race against one promise of the pool's left a reaction on it per
   *  connect for the pool's life (~250 B of heap a connection, issue 44). */
  readonly #inFlight = new Set<(outcome: 'timeout' | 'abandoned') => void>();
  /** When the first connect began and the last one opened, epoch µs (0 before): the ramp's own
   *  span, without the set-up before it and the checks after it (WorkerReady.connects). */
  #connectsFromUs = 0;
  #lastOpenedUs = 0;

  constructor(
    private readonly deps: PoolDeps,
    private readonly options: ConnectionOptions,
    firstIndex: number,
    count: number,
    private readonly concurrency: number,
    /** The run's tokens, headers and query: connection i takes token i mod n. */
    private readonly credentials?: Credentials,
  ) {
    const build = { connect: (index: number) => this.deps.connect(this.#optionsOf(index)), wire: (pooled: PooledConnection) => this.#wire(pooled) };
    for (let i = 0; i < count; i++) this.connections.push(new LazyPooled(firstIndex + i, build));
  }

  /** The connects' span, epoch µs: from the first connect's start to the last open (0 when none opened). */
  get connectsSpanUs(): { fromUs: number; lastOpenedUs: number } {
    return { fromUs: this.#connectsFromUs, lastOpenedUs: this.#lastOpenedUs };
  }

  get openCount(): number {
    return this.connections.filter((c) => c.state === 'open').length;
  }

  /** True once the opening stopped because the hub stopped answering connects mid-ramp: anything
   *  more asked of it before "go" (the method check, group joins) would wait on it too. */
  get hubStoppedAnswering(): boolean {
    return this.#gaveUpCause === 'stoppedAnswering';
  }

  get connectingCount(): number {
    return this.connections.filter((c) => c.state === 'connecting').length;
  }

  /** Resolves when every connection is open or has failed (or opening was aborted or given up). */
  async openAll(): Promise<void> {
    let next = 0;
    const lane = async () => {
      while (!this.#aborted && next < this.connections.length) {
        await this.#open(this.connections[next++]!);
      }
    };
    const startUs = this.deps.clock.nowUs();
    this.#connectsFromUs = startUs;
    let look: unknown = null;
    // Looks once a second; a look that fires late judges nothing (LATE_LOOK_MS), the next one does.
    const schedule = (dueUs: number) => {
      look = this.deps.timers.setTimeout(() => {
        const nowUs = this.deps.clock.nowUs();
        this.deps.stats.stalls.timerRan(dueUs, nowUs);
        if (nowUs - dueUs < LATE_LOOK_MS * 1_000) this.#look(nowUs, startUs, next < this.connections.length);
        if (this.#gaveUp === null && !this.#aborted) schedule(nowUs + LOOK_INTERVAL_MS * 1_000);
      }, LOOK_INTERVAL_MS);
    };
    schedule(startUs + LOOK_INTERVAL_MS * 1_000);
    try {
      await Promise.all(Array.from({ length: Math.min(this.concurrency, this.connections.length) }, lane));
    } finally {
      this.deps.timers.clearTimeout(look);
    }
    if (this.#gaveUp !== null) this.#failUntried(this.#gaveUp);
  }

  /** The evidence that connecting should stop: no first answer in time, or answers that stopped. */
  #look(nowUs: number, startUs: number, untried: boolean): void {
    if (!this.#answered) {
      if (this.#opened === 0 && nowUs - startUs >= FIRST_ANSWER_MS * 1_000) {
        this.#giveUp(ENGINE_WORDS.noFirstAnswer({ seconds: FIRST_ANSWER_MS / 1_000 }), true);
      }
      return;
    }
    const silentMs = (nowUs - this.#answeredUs) / 1_000;
    if (silentMs < CONNECTS_UNANSWERED_MS || (!untried && this.connectingCount === 0)) return;
    this.#giveUp(ENGINE_WORDS.stoppedAnswering({ silentSec: Math.round(silentMs / 1_000), opened: this.#opened, connections: this.connections.length }), true, 'stoppedAnswering');
  }

  /** Stops trying: no new connects; with `abandonInFlight` (no answer to wait for), the ones in
   *  flight are given up as failed too, else they end by themselves like the ones before them.
   *  `cause`: counted for each connect given up or never tried. */
  #giveUp(reason: string, abandonInFlight: boolean, cause: ConnectCause | null = null): void {
    if (this.#gaveUp !== null) return;
    this.#gaveUp = reason;
    this.#gaveUpCause = cause;
    this.#aborted = true;
    if (!abandonInFlight) return;
    this.#abandoned = true;
    for (const cut of this.#inFlight) cut('abandoned');
  }

  /** The connections never tried count as failed too: every planned connection opened or failed. */
  #failUntried(reason: string): void {
    const untried = this.connections.filter((c) => c.state === 'pending');
    if (untried.length === 0) return;
    for (const pooled of untried) pooled.state = 'failed';
    this.deps.stats.totals.connectionsFailed += untried.length;
    const cause = this.#gaveUpCause;
    if (cause) this.deps.stats.connectCauses[cause] = (this.deps.stats.connectCauses[cause] ?? 0) + untried.length;
    this.deps.stats.recordError('connect', ENGINE_WORDS.notTried({ untried: untried.length, connections: this.connections.length, reason }));
  }

  /** Stops opening new connections; those in flight finish. */
  abortOpening(): void {
    this.#aborted = true;
  }

  /**
   * Closes every open connection, at most CLOSE_CONCURRENCY at once: a stop makes its own
   * garbage (close frames, timers, promises), and 10,000 at once raised the runner's resident
   * memory by ~10% at the very end of a run, its peak (bench/RESULTS.md, 2026-11-26 "where the
   * bytes go"). Every connection counts as closed from the start: nothing measured is left then.
   */
  async closeAll(): Promise<void> {
    this.#closing = true;
    const open = this.connections.filter((c) => c.state === 'open');
    for (const pooled of open) pooled.state = 'closed';
    let next = 0;
    const lane = async () => {
      while (next < open.length) await open[next++]!.connection.stop().catch(() => undefined);
    };
    await Promise.all(Array.from({ length: Math.min(CLOSE_CONCURRENCY, open.length) }, lane));
  }

  /**
   * A planned drop of the open connections among `indices`: a network drop cuts each transport, a
   * server drop asks the hub to abort each connection (the hub-sample's DropMe). Each gap starts
   * now, so the time to reconnect counts from the drop, whatever the transport notices later.
   */
  drop(kind: 'network' | 'server', isDropped: (index: number) => boolean): void {
    if (this.#closing) return;
    for (const pooled of this.connections) {
      if (pooled.state !== 'open' || !isDropped(pooled.index)) continue;
      const atUs = this.deps.clock.nowUs();
      if (kind === 'network') {
        if (!pooled.connection.cutTransport()) {
          this.deps.stats.recordError('closed', ENGINE_WORDS.networkDropNotMade({ transport: this.options.transport }));
          continue;
        }
        this.deps.stats.recordLost(pooled.index, atUs);
      } else {
        // The gap opens once the request is written: an unsent request drops nothing.
        pooled.connection.send('DropMe').then(() => this.deps.stats.recordLost(pooled.index, atUs), (error: unknown) => {
          this.deps.stats.recordError('closed', ENGINE_WORDS.serverDropNotMade({ error }));
        });
      }
    }
  }

  /** A connection's handlers, once its client is built (LazyPooled): the pool's, then the engine's. */
  #wire(pooled: PooledConnection): void {
    const stats = this.deps.stats;
    pooled.connection.onClose((error) => {
      if (pooled.state !== 'open' && pooled.state !== 'reconnecting') return;
      const wasOpen = pooled.state === 'open';
      pooled.state = 'closed';
      if (this.#closing) return;
      // The policy gave up (or there was none): this connection never comes back.
      stats.recordLost(pooled.index, this.deps.clock.nowUs());
      stats.drops.gaveUp(pooled.index);
      if (wasOpen) this.deps.stats.totals.disconnects++;
      const reason = error ? this.deps.classify(error, this.#optionsOf(pooled.index)).message : this.#closedWithoutError(pooled.index);
      this.deps.stats.recordError('closed', wasOpen ? `Connection closed during the run: ${reason}` : `Reconnecting gave up: ${reason}`);
    });
    // Without reconnect (or stateful reconnect) the client never reconnects (or resumes): no
    // handlers for it, and no closures per connection.
    if (this.options.reconnect) this.#watchReconnects(pooled);
    if (this.options.statefulReconnect) this.#watchResumes(pooled);
    this.deps.onBuilt?.(pooled);
  }

  /** Stateful reconnect bridges a gap inside the connection: it stays open (sends are buffered
   *  and resent), and comes back with the same id and groups. */
  #watchResumes(pooled: PooledConnection): void {
    const stats = this.deps.stats;
    const now = () => this.deps.clock.nowUs();
    pooled.connection.onTransportLost(() => {
      if (pooled.state === 'open' && !this.#closing) stats.recordLost(pooled.index, now());
    });
    pooled.connection.onResumed(() => stats.recordBack(pooled.index, now(), 'resumed'));
    pooled.connection.onResent?.((direction, messages, bytes) => stats.recordResent(direction, messages, bytes));
  }

  #watchReconnects(pooled: PooledConnection): void {
    const stats = this.deps.stats;
    const now = () => this.deps.clock.nowUs();
    pooled.connection.onReconnecting((error) => {
      if (pooled.state !== 'open' || this.#closing) return;
      pooled.state = 'reconnecting';
      this.deps.stats.totals.disconnects++;
      // A planned drop already opened this connection's gap; it is measured, not an error.
      const planned = stats.drops.inGap(pooled.index);
      stats.recordLost(pooled.index, now());
      if (planned) return;
      const reason = error ? this.deps.classify(error, this.#optionsOf(pooled.index)).message : this.#closedWithoutError(pooled.index);
      this.deps.stats.recordError('closed', ENGINE_WORDS.lostReconnecting({ reason }));
    });
    pooled.connection.onReconnected(() => {
      if (pooled.state !== 'reconnecting') return;
      pooled.state = 'open';
      this.deps.stats.totals.reconnects++;
      stats.recordBack(pooled.index, now(), 'reconnected');
      pooled.onReconnected?.();
    });
  }

  async #open(pooled: PooledConnection): Promise<void> {
    pooled.state = 'connecting';
    const startedUs = this.deps.clock.nowUs();
    const deadlineUs = startedUs + CONNECT_TIMEOUT_MS * 1_000;
    let cut: (outcome: 'timeout' | 'abandoned') => void = () => {};
    const cutShort = new Promise<'timeout' | 'abandoned'>((resolve) => (cut = resolve));
    // A browser queues connections past its per-origin limit silently, with no error: a time
    // limit turns "stuck" into a counted, explained failure instead of a slow-looking one.
    const timer = this.deps.timers.setTimeout(() => {
      this.deps.stats.stalls.timerRan(deadlineUs, this.deps.clock.nowUs());
      cut('timeout');
    }, CONNECT_TIMEOUT_MS);
    this.#inFlight.add(cut);
    if (this.#abandoned) cut('abandoned');
    try {
      const outcome = await Promise.race([pooled.connection.start().then(() => 'open' as const), cutShort]);
      if (outcome === 'abandoned') {
        pooled.state = 'failed';
        void pooled.connection.stop().catch(() => undefined);
        this.deps.stats.recordConnectFailure('connect', `${this.#where(pooled.index)}: abandoned, ${this.#gaveUp}.`, this.#gaveUpCause ?? 'timedOut');
        return;
      }
      // A connect's own time-out is no answer from the hub.
      if (outcome === 'open') this.#heard();
      if (outcome === 'timeout') {
        this.#failedOne('timeout');
        pooled.state = 'failed';
        void pooled.connection.stop().catch(() => undefined);
        this.#timedOut(pooled.index, this.deps.stats.stalls.stalledMs(startedUs, deadlineUs));
        return;
      }
      pooled.state = 'open';
      this.#opened++;
      this.#lastOpenedUs = this.deps.clock.nowUs();
      this.deps.stats.recordConnected(this.#lastOpenedUs - startedUs);
      if (this.options.statefulReconnect && pooled.connection.statefulGranted?.()) this.deps.stats.totals.statefulGranted++;
    } catch (error) {
      this.#heard();
      pooled.state = 'failed';
      const classified = this.deps.classify(error, this.#optionsOf(pooled.index));
      this.deps.stats.recordConnectFailure(classified.kind, classified.message, classified.cause);
      this.#failedOne(classified.message);
    } finally {
      this.deps.timers.clearTimeout(timer);
      this.#inFlight.delete(cut);
    }
  }

  /** A connect that got no answer in its time limit, counted with its cause: the client's when
   *  this engine's event loop was stalled `stalledMs` of it, past STARVED_SHARE (connect-causes.ts). */
  #timedOut(index: number, stalledMs: number): void {
    const where = `${this.#where(index)}: did not open within ${CONNECT_TIMEOUT_MS / 1_000} s`;
    if (timeOutCause(stalledMs, CONNECT_TIMEOUT_MS) === 'clientStarved') {
      this.deps.stats.recordConnectFailure('connect', ENGINE_WORDS.timedOutStarved({ where, stalledMs }), 'clientStarved');
      return;
    }
    // In a browser, Server-Sent Events and long polling wait in its queue of 6 per origin: a
    // time-out there is the browser's limit; elsewhere the server did not answer.
    const cause = this.deps.inBrowser && this.options.transport !== 'WebSockets' ? 'browserQueue' : 'timedOut';
    this.deps.stats.recordConnectFailure('connect', ENGINE_WORDS.timedOut({ where, inBrowser: this.deps.inBrowser }), cause);
  }

  #heard(): void {
    this.#answered = true;
    this.#answeredUs = this.deps.clock.nowUs();
  }

  /** One more connect failed (`message` says how): with none open, enough of them mean nothing will. */
  #failedOne(message: string): void {
    this.#failed++;
    this.#allRefused = (this.#failed === 1 || this.#allRefused) && connectCauseOf(message) === 'refused';
    if (this.#opened === 0 && this.#failed >= GIVE_UP_AFTER_FAILURES) {
      this.#giveUp(ENGINE_WORDS.firstFailed({ failed: this.#failed, allRefused: this.#allRefused }), false);
    }
  }

  /** Why a connection the server closed without an error may have gone. */
  #closedWithoutError(index: number): string {
    return ENGINE_WORDS.closedWithoutError({ hasToken: Boolean(credentialsFor(this.credentials, index)?.accessToken) });
  }

  /** One connection's options: the run's, with its own token (i mod n), headers and query, and
   *  its hub instance's URL (round-robin, core/run-config/hub-instances.ts). */
  #optionsOf(index: number): ConnectionOptions {
    const instances = this.options.endpointUrls;
    const endpointUrl = instances && instances.length > 1 ? instances[instanceOf(index, instances.length)]! : this.options.endpointUrl;
    return { ...this.options, index, endpointUrl, credentials: credentialsFor(this.credentials, index) };
  }

  /** Per hub instance (with several): this worker's connections that opened (ever) and that failed. */
  instanceConnections(instances: number): { opened: number[]; failed: number[] } {
    const opened = new Array<number>(instances).fill(0);
    const failed = new Array<number>(instances).fill(0);
    for (const pooled of this.connections) {
      const k = instanceOf(pooled.index, instances);
      if (pooled.state === 'failed') failed[k]!++;
      else if (pooled.state !== 'pending' && pooled.state !== 'connecting') opened[k]!++;
    }
    return { opened, failed };
  }

  #where(index: number): string {
    return `${connectingText(this.options)} to ${this.#optionsOf(index).endpointUrl}`;
  }
}
