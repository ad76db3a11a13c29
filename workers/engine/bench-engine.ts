/**
 * One worker's run, by phase: open connections → prepare (join groups) → report ready → on
 * "go", run the scenario until the planned end → drain (keep receiving) until the page says
 * "finish" → final snapshot, close. Environment-agnostic: the browser worker, Node and unit
 * tests each inject the clock, the timers, the connection factory and where messages go.
 */
import type { Clock, Timers } from '../../core/clocks/index.ts';
import { runNeedsConnectionIds, type FromWorker, type GoMessage, type StartMessage, type ToWorker, type WorkerPhase } from '../../core/execution/index.ts';
import { planScenario, type ScenarioPlan } from '../../core/plan/index.ts';
import { isServerlessScenario } from '../../core/guide/index.ts';
import {
  scrubSecrets,
  type Credentials,
  groupMembersPerInstance,
  hubInstances,
  instanceLists,
  recipientsPerInstance,
  tokenUsersOf,
  type InstanceCounts,
  type RunConfig,
} from '../../core/run-config/index.ts';
import { dropSettingsOf, dropTimesUs, isDropped } from '../../core/drops/index.ts';
import { createScenario } from '../scenarios/index.ts';
import type { Scenario } from '../scenarios/scenario.ts';
import type { ConnectionFactory, ErrorClassifier } from './connection.ts';
import { ConnectionPool } from './connection-pool.ts';
import { ScenarioRunner, type RunnerContext } from './scenario-runner.ts';
import { restProbe, restSendsOf, type RestPost, type RestSends, type TokenSigner } from './rest-sends.ts';
import { WorkerStats } from './worker-stats.ts';
import { ENGINE_WORDS } from './words.ts';

/** Longest wait for a profile's leave calls at the end of a run, in ms: the run is measured already. */
export const LEAVE_WAIT_MS = 2_000;

export interface EngineDeps {
  clock: Clock;
  timers: Timers;
  connect: ConnectionFactory;
  classify: ErrorClassifier;
  post: (message: FromWorker) => void;
  /** True in a browser Web Worker (its connection queue can explain slow connects). Default false. */
  inBrowser?: boolean;
  /** The REST scenarios' HTTP client; the platform's fetch when absent. */
  restPost?: RestPost;
  /** Signs the REST scenarios' tokens (hosts/engine-host.ts hands signalr/rest-tokens.ts); without
   *  it a connection string's run is refused (the page's engines never hold the key). */
  signer?: TokenSigner;
}

export class BenchEngine {
  readonly stats = new WorkerStats();
  #phase: WorkerPhase = 'connecting';
  #start: StartMessage | null = null;
  #pool: ConnectionPool | null = null;
  #runner: ScenarioRunner | null = null;
  #reportTimer: unknown = null;
  #endTimer: unknown = null;
  #dropTimers: unknown[] = [];
  #second = 0;
  #lastTickLagMs = 0;
  #finishRequested = false;
  /** The run failed before its planned end: slots still to come are never sent for that (FinishMessage). */
  #stoppedEarly = false;
  /** Every token the run has used, the replaced ones too: the scrub takes them all out. */
  #scrubbing: Credentials | undefined;
  /** A serverless run's REST API calls and client tokens; null otherwise. */
  #rest: RestSends | null = null;

  constructor(private readonly deps: EngineDeps) {}

  get phase(): WorkerPhase {
    return this.#phase;
  }

  handle(message: ToWorker): void {
    if (message.type === 'start') void this.start(message);
    else if (message.type === 'go') this.go(message);
    else if (message.type === 'stop') this.stopSending();
    else if (message.type === 'tokens') this.#freshTokens(message.accessTokens);
    else {
      this.stats.drainEndUs = message.drainEndUs ?? this.deps.clock.nowUs();
      this.#stoppedEarly = message.stoppedEarly === true;
      void this.finish();
    }
  }

  /** Fresh tokens replace the run's in place: every connection reads its token at each request
   *  (core/run-config/credentials.ts credentialsFor); the scrub keeps the old ones too. */
  #freshTokens(accessTokens: string[]): void {
    const credentials = this.#start?.credentials;
    if (!credentials) return;
    const seen = this.#scrubbing?.accessTokens ?? credentials.accessTokens;
    const scrubbing = { ...credentials, accessTokens: [...new Set([...seen, ...accessTokens])] };
    credentials.accessTokens = [...accessTokens];
    this.stats.scrub = (text) => scrubSecrets(text, scrubbing);
    this.#scrubbing = scrubbing;
  }

  async start(message: StartMessage): Promise<void> {
    if (this.#start) throw new Error(ENGINE_WORDS.startedTwice());
    this.#start = message;
    this.stats.startRun(message.runStartUs);
    // Every error text passes here: none may carry a token, header value or query value.
    this.stats.scrub = (text) => scrubSecrets(text, message.credentials);
    const { config, share } = message;
    const planned = planScenario(config);
    if (!planned.ok) throw new Error(planned.errors.join(' '));
    const rest = this.#rest = restSendsOf(message, this.deps, this.stats);
    const scenario = createScenario(message, planned.plan, rest);
    // A serverless hub's clients connect with tokens this engine mints, one user each (RestSends.clientTokens).
    const credentials = rest && message.credentials ? { ...message.credentials, mintedTokens: await rest.clientTokens(share.firstIndex, share.count) } : message.credentials;
    const runner = this.#runner = new ScenarioRunner({
      clock: this.deps.clock,
      timers: this.deps.timers,
      stats: this.stats,
      messageBytes: config.messageBytes,
      sendIntervalMs: config.sendIntervalMs,
      totalConnections: config.connections,
      warmupSec: config.warmupSec,
      runId: message.runId,
      instances: this.#instances(config, planned.plan),
      sendersHeardBy: planned.plan.sendersHeardBy,
      // A browser's nested-timer clamp would batch one schedule's sends by 4 ms: a timer each there.
      timerPerConnection: this.deps.inBrowser ?? false,
      ...(rest ? { rest } : {}),
    }, scenario);
    const pool = new ConnectionPool(
      { clock: this.deps.clock, timers: this.deps.timers, connect: this.deps.connect, classify: this.deps.classify, stats: this.stats, inBrowser: this.deps.inBrowser ?? false, onBuilt: (pooled) => runner.listen(pooled) },
      {
        endpointUrl: config.endpointUrl, endpointUrls: config.endpointUrls, transport: config.transport, protocol: config.protocol, reconnect: config.reconnect,
        reconnectPolicy: dropSettingsOf(config).reconnectPolicy, statefulReconnect: dropSettingsOf(config).statefulReconnect,
        skipNegotiation: config.skipNegotiation ?? false,
        // Every connection adds what its transport carries here: the bandwidth figures.
        wire: this.stats.wire,
      },
      share.firstIndex,
      share.count,
      message.connectConcurrency,
      credentials,
    );
    this.#pool = pool;
    this.#watchRejoins(scenario);
    this.#scheduleReport();
    await pool.openAll();
    const drop = dropSettingsOf(config);
    // A hub that stopped answering connects would hold the method check and the group joins until
    // SignalR's own time-out: the run goes on to its window without them (absent members still planned).
    const skip = this.#finishRequested || pool.hubStoppedAnswering;
    if (pool.hubStoppedAnswering) this.stats.recordError('protocol', ENGINE_WORDS.probeSkipped());
    const refusal = skip ? null
      : isServerlessScenario(config.scenario) ? await restProbe(rest, config, this.stats, pool.openCount > 0)
      : (await this.#runner.probe(pool.connections, config.endpointUrl, config.skipNegotiation ?? false)) ??
        (drop.dropAtSec !== null && drop.dropKind === 'server' ? await this.#runner.probeServerDrops(pool.connections, config.endpointUrl) : null);
    const groupMembers = skip || refusal ? [] : await scenario.prepare(pool.connections, (kind, text) => this.stats.recordError(kind, text));
    if (this.#finishRequested) return this.#end();
    this.#phase = 'ready';
    // Tell the page at once, not at the next tick: it waits for every worker before "go".
    this.deps.post({
      type: 'ready',
      workerIndex: message.workerIndex,
      connectionsOpen: pool.openCount,
      connectionsFailed: this.stats.totals.connectionsFailed,
      connectionIds: runNeedsConnectionIds(message.config) ? pool.connections.map((c) => (c.state === 'open' ? c.connection.connectionId : null)) : [],
      groupMembers,
      // The hub's words may echo what it was sent (a key in an argument): scrubbed like every error.
      refusal: refusal === null ? null : this.stats.scrub(refusal),
      connects: pool.connectsSpanUs,
    });
  }

  go(message: GoMessage): void {
    if (this.#phase !== 'ready' || !this.#pool || !this.#runner) return;
    this.#phase = 'running';
    this.#runner.start(this.#pool.connections, message);
    // Whole ms rounded up: a fractional delay is truncated and the timer would fire before the end.
    const untilEndMs = Math.max(0, Math.ceil((message.sendEndUs - this.deps.clock.nowUs()) / 1_000));
    this.#endTimer = this.deps.timers.setTimeout(() => this.stopSending(), untilEndMs);
    this.#scheduleDrops(message);
  }

  /** The planned drops (core/drops/drop-schedule.ts): each worker drops its part of the share at each time. */
  #scheduleDrops(go: GoMessage): void {
    const config = this.#start!.config;
    const drop = dropSettingsOf(config);
    for (const atUs of dropTimesUs(drop, go.sendStartUs, go.sendEndUs)) {
      const delayMs = Math.max(0, (atUs - this.deps.clock.nowUs()) / 1_000);
      this.#dropTimers.push(this.deps.timers.setTimeout(() => {
        this.#pool?.drop(drop.dropKind, (index) => isDropped(index, config.connections, drop.dropSharePercent));
      }, delayMs));
    }
  }

  #clearDrops(): void {
    for (const timer of this.#dropTimers) this.deps.timers.clearTimeout(timer);
    this.#dropTimers = [];
  }

  /** A reconnected connection has a new id and is in no group: put it back, and count the cost. */
  #watchRejoins(scenario: Scenario): void {
    if (!scenario.rejoin || !this.#pool) return;
    const rejoin = scenario.rejoin.bind(scenario);
    for (const pooled of this.#pool.connections) {
      pooled.onReconnected = () => {
        if (!this.stats.drops.needsRejoin(pooled.index)) return;
        const startedUs = this.deps.clock.nowUs();
        rejoin(pooled).then(
          () => this.stats.drops.rejoinDone(pooled.index, true, this.deps.clock.nowUs() - startedUs),
          (error: unknown) => {
            this.stats.drops.rejoinDone(pooled.index, false, this.deps.clock.nowUs() - startedUs);
            this.stats.recordError('join', ENGINE_WORDS.rejoinFailed({ error }));
          },
        );
      };
    }
  }

  /** Stops planning sends (at the planned end, or early on the user's Stop); receiving goes on. */
  stopSending(): void {
    if (this.#phase === 'connecting') {
      // Nothing was sent: there is nothing to drain.
      void this.finish();
      return;
    }
    if (this.#phase !== 'ready' && this.#phase !== 'running') return;
    this.#phase = 'draining';
    if (this.#endTimer !== null) this.deps.timers.clearTimeout(this.#endTimer);
    this.#clearDrops();
    // Nothing more is planned from now on (at the planned end, nothing was); what came due and
    // has not fired yet still goes, late, so a client that fell behind is measured as such.
    this.#runner?.endAt(this.deps.clock.nowUs());
  }

  /** Ends the run: last snapshot, connections closed. While connecting, after the connects in flight. */
  async finish(): Promise<void> {
    this.#finishRequested = true;
    if (this.#phase === 'connecting') this.#pool?.abortOpening();
    else await this.#end();
  }

  async #end(): Promise<void> {
    if (this.#phase === 'done') return;
    this.#runner?.stop(this.#stoppedEarly);
    this.#rest?.stop();
    const sent = this.#phase !== 'connecting';
    this.#phase = 'done';
    if (this.#endTimer !== null) this.deps.timers.clearTimeout(this.#endTimer);
    this.#clearDrops();
    if (this.#reportTimer !== null) this.deps.timers.clearTimeout(this.#reportTimer);
    this.#second++;
    this.#post(true);
    if (sent && this.#pool) await this.#runner?.leave(this.#pool.connections, LEAVE_WAIT_MS);
    await this.#pool?.closeAll();
  }

  /** With several hub instances: counting per instance on, and what each sender's slots plan on
   *  each (core/run-config/hub-instances.ts); undefined for one instance. */
  #instances(config: RunConfig, plan: ScenarioPlan): RunnerContext['instances'] {
    const count = hubInstances(config).length;
    if (count < 2) return undefined;
    this.stats.countInstances(count);
    const groupTable = plan.groupCount > 0 ? groupMembersPerInstance(config.connections, plan, count) : null;
    const lists = instanceLists(config, plan, count, tokenUsersOf(this.#start?.credentials));
    return { count, recipients: (sender, localIndex, go) => recipientsPerInstance(config, plan, count, sender, go.targetIndices?.[localIndex] ?? null, groupTable, lists) };
  }

  /** This worker's counts per hub instance so far, its connections' from the pool; absent for one instance. */
  #instanceCounts(): InstanceCounts[] | undefined {
    const counts = this.stats.instances;
    if (!counts || !this.#pool) return undefined;
    const { opened, failed } = this.#pool.instanceConnections(counts.length);
    return counts.map((c, k) => ({ ...c, connectionsOpened: opened[k]!, connectionsFailed: failed[k]! }));
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
      connectCauses: { ...this.stats.connectCauses },
      errorSamples: this.stats.errorSamples(),
      ...(this.stats.instances ? { instances: this.#instanceCounts() } : {}),
      ...(this.stats.textless ? { textless: { ...this.stats.textless } } : {}),
    });
  }
}
