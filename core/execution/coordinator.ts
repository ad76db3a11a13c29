/**
 * Runs one benchmark across workers, whatever they are (Web Workers in the page, engines in the
 * same process in tests): splits the connections, starts every worker, waits until all are
 * ready, hands out what the scenario needs from the whole run (the configured receivers absent
 * at "go", send-to-connection targets), gives one common "go", and ends the drain when every
 * planned reception is accounted for, when nothing more arrives, or at the drain's cap. It
 * decides the run's outcome: finished, stopped by the user, or failed when nothing can be
 * measured. It names the run (core/execution/run-id.ts): every worker puts the id on the wire.
 */
import type { Clock, Timers } from '../clocks/index.ts';
import { derangement, planScenario, connectConcurrencyPerWorker, sendsToAnother, sendsToEveryone, splitConnections, splitWithinCapacity, type ConnectionShare } from '../plan/index.ts';
import { arrivedOf, notSentOf, plannedOfShare } from '../accounting/index.ts';
import { drainPlan, type RunConfig, tokenUsersOf, type Credentials } from '../run-config/index.ts';
import { newRunId } from './run-id.ts';
import { type RunOutcome, relayWentQuiet, silenceText, type RelayState, type WorkerLoss } from '../outcome/index.ts';
import { RunAggregator } from './aggregator.ts';
import { SilenceWatchdog } from './watchdog.ts';
import type { FromWorker, GoMessage, TextlessCalls, ToWorker, WorkerReady, WorkerTotals } from './worker-messages.ts';
import { profileOfRun } from '../profiles/index.ts';
import { textNotFoundSentence } from '../diagnosis/index.ts';
import { EXECUTION_WORDS } from './words.ts';

/** Whether a run reads its workers' connection ids ("ready"): send to connection gives each sender
 *  its target's id, a delivery to users tells the open connections of each token by them. Other
 *  runs do not, so their workers leave them out: a Unit1000 fleet's ids are 25 MB through the
 *  control hub and held by the lead until the run ends, for nothing. */
export function runNeedsConnectionIds(config: RunConfig): boolean {
  const deliver = profileOfRun(config).deliver;
  return sendsToAnother(config.scenario) || deliver === 'user' || deliver === 'users';
}

/** A way to talk to one worker. */
export interface WorkerPort {
  post(message: ToWorker): void;
  onMessage(handler: (message: FromWorker) => void): void;
  terminate(): void;
  /** For a worker whose reports a control hub relays (an agent's thread): how that hub is doing
   *  (core/outcome/worker-loss.ts). Absent for the lead's own workers. */
  relay?: () => RelayState;
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
  /** The run's id (default: a new random one); each run, each capacity step, has its own. */
  runId?: string;
  /** Tokens, headers and query parameters for a protected hub: sent to the workers in their
   *  start messages only, never kept (core/run-config/credentials.ts). */
  credentials?: Credentials;
  /** Silence after which a worker is given up for lost, ms (default: core/execution/watchdog.ts). */
  silenceLimitMs?: number;
}

export class RunCoordinator {
  readonly aggregator: RunAggregator;
  /** This run's id, on the wire in every payload header and group name (core/execution/run-id.ts). */
  readonly runId: string;
  /** Failures of whole workers (a crash), worded for people. */
  readonly workerFailures: string[] = [];
  /** How each lost worker was lost, in the order they were (core/outcome/worker-loss.ts: whose loss). */
  readonly workerLosses: WorkerLoss[] = [];
  #runStartUs = 0;
  #phase: RunPhase = 'connecting';
  readonly #ready = new Map<number, WorkerReady | null>();
  /** Each worker's part of the configured connections, from start(). */
  #shares: ConnectionShare[] = [];
  /** When every engine was ready, epoch µs; 0 before. */
  #readyUs = 0;
  /** The engines' connects, epoch µs: the first one's start and the last open (0: none reported). */
  #connectsFromUs = 0;
  #lastOpenedUs = 0;
  #sendStartUs = 0;
  #sendEndUs = 0;
  /** When the user stopped the run while it sent: no slot is planned after it. */
  #stoppedAtUs = Infinity;
  #drainTimer: unknown = null;
  #quietTimer: unknown = null;
  /** Planned receptions accounted for (arrived or known unsent) when the drain last made progress. */
  #drainAccounted = -1;
  #finishSent = false;
  /** Gives up a worker that stopped reporting without dying (core/execution/watchdog.ts). */
  readonly #watchdog: SilenceWatchdog;
  /** How the run is ending, once known; reported as the outcome when the run is done. */
  #ending: RunOutcome | null = null;
  readonly #finished: Promise<void>;
  #resolveFinished!: () => void;

  readonly #onUpdate: () => void;
  readonly #random: () => number;
  readonly #goLeadMs: number;
  readonly #capacities: readonly (number | null)[] | undefined;
  #credentials: Credentials | undefined;

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
    this.#credentials = options.credentials;
    this.#watchdog = new SilenceWatchdog(clock, timers, (workerIndex, silentMs) => this.#silent(workerIndex, silentMs), options.silenceLimitMs);
    this.runId = options.runId ?? newRunId();
    this.aggregator = new RunAggregator(ports.length);
    this.#finished = new Promise((resolve) => (this.#resolveFinished = resolve));
  }

  /** Fresh access tokens for the run's connections (the runner's --access-token-command): every
   *  worker, the agents' threads too, gets them; each connection uses them from its next request. */
  freshTokens(accessTokens: string[]): void {
    if (!this.#credentials) return;
    this.#credentials = { ...this.#credentials, accessTokens: [...accessTokens] };
    if (this.#phase === 'done') return;
    for (const port of this.ports) {
      try {
        port.post({ type: 'tokens', accessTokens });
      } catch {
        // A worker already gone (lost, or ended) needs no token.
      }
    }
  }

  /** Whether the run gave access tokens (never which): a refusal means another thing with one. */
  get hasToken(): boolean {
    // A connection string's runs connect with tokens their engines mint.
    return (this.#credentials?.accessTokens.length ?? 0) > 0 || this.#credentials?.serverless !== undefined;
  }

  get phase(): RunPhase {
    return this.#phase;
  }

  /** How the run ended; running until every worker has reported its end. */
  get outcome(): RunOutcome {
    if (this.#phase !== 'done') return { kind: 'running' };
    const totals = this.aggregator.totals();
    const mismatch = !this.#ending || this.#ending.code === 'textNotFound' ? textNotFound(this.config, totals, this.aggregator.textless()) : null;
    // A mismatch named early is said with the calls counted to the end.
    const ending = (this.#ending?.code === 'textNotFound' ? mismatch : null) ?? this.#ending ?? neverCalled(this.config, totals) ?? mismatch ?? { kind: 'finished' };
    // The workers' failures reach the page with their final snapshots: name the most frequent.
    const first = this.aggregator.errorSamples()[0];
    return ending.reason === NO_CONNECTION && first ? { ...ending, reason: `${NO_CONNECTION} ${first.message}` } : ending;
  }

  /** The run's time base (its seconds count from it), epoch µs; 0 before it starts. */
  get runStartUs(): number {
    return this.#runStartUs;
  }

  /** Planned send window, epoch microseconds; 0 before "go". `runStartUs`: when connecting
   *  began, the time the points' seconds count from (0 before start); `readyUs`: when every
   *  engine was ready and "go" went out, the ramp's end (0 before); `connectsFromUs` and
   *  `lastOpenedUs`: the first connect's start and the last open over every engine (0: unknown). */
  get sendWindowUs(): { startUs: number; endUs: number; runStartUs: number; readyUs: number; connectsFromUs: number; lastOpenedUs: number } {
    return { startUs: this.#sendStartUs, endUs: this.#sendEndUs, runStartUs: this.#runStartUs, readyUs: this.#readyUs, connectsFromUs: this.#connectsFromUs, lastOpenedUs: this.#lastOpenedUs };
  }

  /** Resolves once every worker has reported its end or been lost. */
  finished(): Promise<void> {
    return this.#finished;
  }

  start(): void {
    const shares = this.#capacities ? splitWithinCapacity(this.config.connections, this.#capacities) : splitConnections(this.config.connections, this.ports.length);
    this.#shares = shares;
    const concurrency = connectConcurrencyPerWorker(this.config.connectConcurrency, this.ports.length);
    const runStartUs = this.clock.nowUs();
    this.#runStartUs = runStartUs;
    this.ports.forEach((port, workerIndex) => {
      port.onMessage((message) => this.#receive(message));
      port.post({ type: 'start', workerIndex, config: this.config, share: shares[workerIndex]!, connectConcurrency: concurrency, runStartUs, runId: this.runId, ...(this.#credentials ? { credentials: this.#credentials } : {}) });
    });
    this.#watchdog.start(this.ports.length);
  }

  /** Ends the run early (the user's Stop): workers stop sending, what is in flight drains, then they report. */
  stop(): void {
    if (this.#ending || this.#phase === 'draining' || this.#phase === 'done') return;
    const plannedUs = this.#phase === 'running' ? Math.max(0, this.clock.nowUs() - this.#sendStartUs) : 0;
    if (this.#phase === 'running') this.#stoppedAtUs = this.clock.nowUs();
    this.#ending = { kind: 'stopped', stoppedAtSec: Math.min(this.config.durationSec, Math.floor(plannedUs / 1_000_000)) };
    if (this.#phase === 'connecting') this.#finish();
    else this.#startDrain();
  }

  terminate(): void {
    this.#clearDrainTimers();
    this.#watchdog.stop();
    for (const port of this.ports) port.terminate();
  }

  #receive(message: FromWorker): void {
    this.#watchdog.heard(message.workerIndex);
    // A worker given up for silence that speaks again stays lost: its thread was stopped.
    if (message.type === 'ready' && this.aggregator.isLost(message.workerIndex)) return;
    if (message.type === 'ready') {
      this.#ready.set(message.workerIndex, message);
      this.#goWhenAllReady();
    } else if (message.type === 'snapshot') {
      this.aggregator.add(message);
      if (message.final) this.#watchdog.forget(message.workerIndex);
      this.#failWhenAllClosed();
      this.#failWhenTextNotFound();
      if (this.#phase === 'running' && this.clock.nowUs() >= this.#sendEndUs) this.#startDrain();
      if (this.#phase === 'draining') this.#drainProgress();
    } else if (!this.aggregator.hasFinished(message.workerIndex)) {
      // (A worker that fails after its final snapshot, an engine process that dies while closing
      // its connections, owed nothing more: its figures are complete, so it is not lost.)
      // An agent out of reach because the lead lost the control hub is not known to have failed.
      const relay = message.relayLost ? this.ports[message.workerIndex]?.relay?.() : undefined;
      const loss: WorkerLoss = relay ? { workerIndex: message.workerIndex, how: 'relayQuiet', relay: { url: relay.url, isRunHub: relay.isRunHub } } : { workerIndex: message.workerIndex, how: 'failed' };
      this.#loseWorker(loss, EXECUTION_WORDS.workerFailed({ worker: message.workerIndex + 1, message: message.message }));
    }
    this.#doneWhenAllFinished();
    this.#onUpdate();
  }

  /** Every lost worker's share keeps its plan: what it never reported is planned and never sent
   *  (core/accounting/planned-receptions.ts), whoever's loss it was (core/outcome/worker-loss.ts). Nothing was
   *  planned when the run never got to "go". */
  #countLostWorkersPlans(): void {
    if (this.#sendStartUs === 0) return;
    const window = { runStartUs: this.#runStartUs, sendStartUs: this.#sendStartUs, sendEndUs: Math.min(this.#sendEndUs, this.#stoppedAtUs), warmupEndUs: this.#sendStartUs + this.config.warmupSec * 1_000_000 };
    for (const workerIndex of this.aggregator.lostWorkerIndices()) {
      const share = this.#shares[workerIndex];
      if (share) this.aggregator.addUnreportedPlan(workerIndex, plannedOfShare(this.config, share, window, tokenUsersOf(this.#credentials)));
    }
  }

  /** A worker stopped reporting without a word: lost like a crashed one; the client's failure
   *  unless the control hub relaying it went quiet with it (core/outcome/worker-loss.ts). */
  #silent(workerIndex: number, silentMs: number): void {
    if (this.#phase === 'done') return;
    const relay = this.ports[workerIndex]?.relay?.();
    const loss: WorkerLoss = relay && relayWentQuiet(silentMs, relay) ? { workerIndex, how: 'relayQuiet', relay: { url: relay.url, isRunHub: relay.isRunHub } } : { workerIndex, how: 'silent' };
    this.#loseWorker(loss, silenceText(workerIndex, silentMs, loss));
    this.#doneWhenAllFinished();
    this.#onUpdate();
  }

  /** A worker crashed or fell silent: named, stopped, its figures up to then kept, the run goes on without it. */
  #loseWorker(loss: WorkerLoss, failure: string): void {
    const { workerIndex } = loss;
    this.#watchdog.forget(workerIndex);
    if (this.aggregator.isLost(workerIndex)) return;
    this.workerFailures.push(failure);
    this.workerLosses.push(loss);
    this.aggregator.markWorkerLost(workerIndex);
    this.ports[workerIndex]?.terminate();
    // A lost worker cannot hold the others at the start line.
    this.#ready.set(workerIndex, null);
    this.#goWhenAllReady();
  }

  #doneWhenAllFinished(): void {
    if (!this.aggregator.finished || this.#phase === 'done') return;
    this.#countLostWorkersPlans();
    this.#phase = 'done';
    this.#clearDrainTimers();
    this.#watchdog.stop();
    this.#resolveFinished();
  }

  #goWhenAllReady(): void {
    if (this.#ready.size !== this.ports.length || this.#phase !== 'connecting' || this.#finishSent) return;
    const ready = [...this.#ready.values()].filter((r): r is WorkerReady => r !== null);
    const failure = nothingToMeasure(ready);
    if (failure) {
      // Waiting out the run's duration would only delay the answer.
      this.#ending = { kind: 'failed', ...failure };
      this.#finish();
      return;
    }
    this.#phase = 'running';
    // Whole microseconds: the planned times travel as integers, and a receiver compares them
    // with the warm-up's end.
    this.#readyUs = Math.round(this.clock.nowUs());
    const spans = ready.flatMap((r) => (r.connects && r.connects.lastOpenedUs > 0 ? [r.connects] : []));
    if (spans.length > 0) {
      this.#connectsFromUs = Math.round(Math.min(...spans.map((c) => c.fromUs)));
      this.#lastOpenedUs = Math.round(Math.max(...spans.map((c) => c.lastOpenedUs)));
    }
    this.#sendStartUs = this.#readyUs + this.#goLeadMs * 1_000;
    this.#sendEndUs = this.#sendStartUs + this.config.durationSec * 1_000_000;
    const common = {
      type: 'go' as const,
      sendStartUs: this.#sendStartUs,
      sendEndUs: this.#sendEndUs,
      warmupEndUs: this.#sendStartUs + this.config.warmupSec * 1_000_000,
      ...this.#absent(ready),
    };
    const targets = sendsToAnother(this.config.scenario) ? this.#targets() : null;
    this.ports.forEach((port, workerIndex) => {
      if (this.aggregator.isLost(workerIndex)) return;
      const go: GoMessage = { ...common, targets: targets?.ids.get(workerIndex) ?? [], ...(targets ? { targetIndices: targets.indices.get(workerIndex) ?? [] } : {}) };
      port.post(go);
    });
    // Workers stop sending at the planned end by themselves; the drain clock starts then.
    // Whole ms rounded up: a fractional delay is truncated, and "stop" before the planned end
    // would cut the workers' last slots out of the plan.
    this.#drainTimer = this.timers.setTimeout(() => this.#startDrain(), Math.ceil((this.#sendEndUs - this.clock.nowUs()) / 1_000));
  }

  /**
   * The configured receivers absent at "go", which every send still plans: connections not open
   * (never opened, or on a lost worker) for broadcast; members that did not join, per group.
   */
  #absent(ready: readonly WorkerReady[]): { absentReceivers: number; absentMembers: number[]; absentByToken?: number[] } {
    const open = ready.reduce((sum, r) => sum + r.connectionsOpen, 0);
    const deliver = profileOfRun(this.config).deliver;
    if (deliver === 'user' || deliver === 'users') return { absentReceivers: 0, absentMembers: [], absentByToken: this.#absentByToken() };
    if (this.config.scenario !== 'smallGroup' && this.config.scenario !== 'bigGroup') {
      return { absentReceivers: sendsToEveryone(this.config.scenario) ? Math.max(0, this.config.connections - open) : 0, absentMembers: [] };
    }
    const planned = planScenario(this.config);
    if (!planned.ok) return { absentReceivers: 0, absentMembers: [] };
    const joined = sumGroups(ready.map((r) => r.groupMembers));
    const absentMembers = Array.from({ length: planned.plan.groupCount }, (_, g) => Math.max(0, planned.plan.membersOf(g) - (joined[g] ?? 0)));
    return { absentReceivers: 0, absentMembers };
  }

  /** Deliveries to users: per access token, its configured connections not open (never opened,
   *  or on a lost worker). */
  #absentByToken(): number[] {
    const tokens = this.#credentials?.accessTokens.length ?? 0;
    const absent = new Array<number>(tokens).fill(0);
    if (tokens === 0) return absent;
    this.#shares.forEach((share, workerIndex) => {
      const ready = this.#ready.get(workerIndex) ?? null;
      for (let local = 0; local < share.count; local++) {
        if ((ready?.connectionIds[local] ?? null) === null) absent[(share.firstIndex + local) % tokens]!++;
      }
    });
    return absent;
  }

  /**
   * Every configured connection sends to another configured connection: a derangement of the
   * run-wide indices, whatever opened. A target that is not open has no id (null): its sender's
   * slots plan it all the same, as absent.
   */
  #targets(): { ids: Map<number, (string | null)[]>; indices: Map<number, number[]> } {
    const ids: (string | null)[] = [];
    const places: { workerIndex: number; local: number }[] = [];
    this.#shares.forEach((share, workerIndex) => {
      const ready = this.#ready.get(workerIndex) ?? null;
      for (let local = 0; local < share.count; local++) {
        ids.push(ready?.connectionIds[local] ?? null);
        places.push({ workerIndex, local });
      }
    });
    const perWorker = new Map<number, (string | null)[]>();
    const indices = new Map<number, number[]>();
    this.#shares.forEach((share, workerIndex) => perWorker.set(workerIndex, new Array<string | null>(share.count).fill(null)));
    if (ids.length < 2) return { ids: perWorker, indices };
    const order = derangement(ids.length, this.#random);
    this.#shares.forEach((share, workerIndex) => indices.set(workerIndex, new Array<number>(share.count).fill(0)));
    places.forEach((place, i) => {
      perWorker.get(place.workerIndex)![place.local] = ids[order[i]!] ?? null;
      indices.get(place.workerIndex)![place.local] = order[i]!;
    });
    return { ids: perWorker, indices };
  }

  /**
   * Every connection closed and none will come back (Reconnect off): nothing is left to measure,
   * so the run ends now as failed instead of waiting out its time with nothing connected.
   */
  #failWhenAllClosed(): void {
    if (this.#phase !== 'running' || this.#ending || this.config.reconnect) return;
    // Only snapshots taken after "go" count: before it, connections may still be opening.
    if (!this.aggregator.allWorkersIn(['running']) || this.aggregator.connectionsOpen() > 0) return;
    const atSec = Math.max(0, Math.floor((this.clock.nowUs() - this.#sendStartUs) / 1_000_000));
    const cause = this.aggregator.errorSamples().find((s) => s.kind === 'closed')?.message;
    this.#ending = { kind: 'failed', code: 'allClosed', reason: EXECUTION_WORDS.allClosed({ atSec, cause }) };
    this.#finish();
  }

  /**
   * The hub calls the profile's receive method, never with this run's text where the profile
   * reads it: said within seconds instead of after the run's whole duration of loss. At once when
   * this run's text is in those calls at another place; else once sending has gone on for
   * TEXT_NOT_FOUND_AFTER_MS and the calls without it keep pace with the sends (a first message
   * slower than that, with a few of another client's lines around it, is not a mismatch).
   */
  #failWhenTextNotFound(): void {
    if (this.#phase !== 'running' || this.#ending) return;
    const textless = this.aggregator.textless();
    const ending = textNotFound(this.config, this.aggregator.totals(), textless);
    if (!ending || !textless) return;
    if (textless.foundAt === null && this.clock.nowUs() - this.#sendStartUs < TEXT_NOT_FOUND_AFTER_MS * 1_000) return;
    this.#ending = ending;
    this.#finish();
  }

  #startDrain(): void {
    if (this.#phase !== 'running') return;
    this.#phase = 'draining';
    for (const port of this.ports) port.post({ type: 'stop' });
    this.#clearDrainTimers();
    const { capMs } = drainPlan(this.config);
    this.#drainTimer = this.timers.setTimeout(() => this.#finish(), capMs);
    this.#drainProgress();
  }

  /** After each snapshot of the drain: done when everything is accounted for; otherwise the quiet
   *  period restarts whenever more was accounted for, so a hub that still delivers is waited for. */
  #drainProgress(): void {
    // Only figures taken after every worker stopped sending count: an earlier snapshot can
    // balance before its worker's last sends.
    if (!this.aggregator.allWorkersIn(['draining', 'done'])) {
      if (this.#quietTimer === null) this.#restartQuiet();
      return;
    }
    const fates = this.aggregator.fates();
    if (this.aggregator.unaccounted() === 0) {
      this.#finish();
      return;
    }
    const accounted = arrivedOf(fates) + notSentOf(fates);
    if (accounted !== this.#drainAccounted) {
      this.#drainAccounted = accounted;
      this.#restartQuiet();
    }
  }

  #restartQuiet(): void {
    if (this.#quietTimer !== null) this.timers.clearTimeout(this.#quietTimer);
    this.#quietTimer = this.timers.setTimeout(() => this.#finish(), drainPlan(this.config).quietMs);
  }

  #clearDrainTimers(): void {
    if (this.#drainTimer !== null) this.timers.clearTimeout(this.#drainTimer);
    if (this.#quietTimer !== null) this.timers.clearTimeout(this.#quietTimer);
    this.#drainTimer = null;
    this.#quietTimer = null;
  }

  #finish(): void {
    if (this.#finishSent) return;
    this.#finishSent = true;
    const stoppedEarly = this.#phase === 'running' && this.#ending?.kind === 'failed';
    if (this.#phase !== 'done') this.#phase = 'draining';
    this.#clearDrainTimers();
    const drainEndUs = Math.round(this.clock.nowUs());
    for (const port of this.ports) port.post({ type: 'finish', drainEndUs, ...(stoppedEarly ? { stoppedEarly } : {}) });
  }
}

/**
 * Why a run that every worker is ready for cannot measure anything, or null: no connection
 * opened anywhere, or the hub refused the scenario's method.
 */
function nothingToMeasure(ready: readonly WorkerReady[]): Pick<RunOutcome, 'code' | 'reason'> | null {
  const refusal = ready.find((r) => r.refusal)?.refusal;
  if (refusal) return { code: 'hubRefused', reason: refusal };
  return ready.reduce((sum, r) => sum + r.connectionsOpen, 0) > 0 ? null : { code: 'noConnection', reason: NO_CONNECTION };
}

const NO_CONNECTION = EXECUTION_WORDS.noConnection();

/**
 * A run of the user's own hub profile that sent and never once heard its receive method (no
 * message of its own, of another run's or anyone's) while its connections stayed up: the hub
 * calls another client method, and every reception is lost for a name. Said with the name,
 * instead of a loss that would send people looking at the network. (The bundled contract's
 * runs keep their loss: a hub-sample that delivers nothing is stalled, not misnamed.)
 */
function neverCalled(config: RunConfig, totals: WorkerTotals): RunOutcome | null {
  const receive = config.hubProfile ? profileOfRun(config).receive : undefined;
  if (!receive || totals.sent === 0 || totals.disconnects > 0) return null;
  if (totals.received + totals.duplicated + totals.stale + totals.foreign + totals.unsolicited > 0) return null;
  return {
    kind: 'failed',
    code: 'neverCalled',
    reason: EXECUTION_WORDS.neverCalled({ method: receive.method, sent: totals.sent }),
  };
}

/** Sending time after which calls without this run's text, and none with it, name a mismatch
 *  though the text was not found elsewhere in them, ms. */
export const TEXT_NOT_FOUND_AFTER_MS = 3_000;

/**
 * A run of the user's own hub profile whose receive method the hub called, but never with a text
 * of this run (nor of another run) where the profile reads it: the profile reads the wrong
 * argument or path, or the hub does not pass the text on. Said with what the first call carried
 * there and, when this run's text was elsewhere in those calls, where (core/diagnosis words:
 * textNotFoundSentence), instead of a loss that would send people looking at the network. Only
 * calls while sending count as evidence (a hub's welcome messages come before), and only when
 * they keep pace with the sends (at least one for every two) or carry the text elsewhere: a few
 * lines of another client beside a hub that delivers nothing are not a mismatch.
 */
function textNotFound(config: RunConfig, totals: WorkerTotals, textless: TextlessCalls | null): RunOutcome | null {
  const receive = config.hubProfile ? profileOfRun(config).receive : undefined;
  if (!receive || !textless || totals.sent === 0 || textless.whileSending === 0) return null;
  // Some call carried a text of a run where the profile reads it (warm-up and probe included): the place is right.
  if (totals.receiveCalls > textless.calls || totals.received + totals.duplicated + totals.stale + totals.foreign > 0) return null;
  if (textless.foundAt === null && 2 * textless.whileSending < totals.sent) return null;
  const mismatch = { method: receive.method, calls: totals.receiveCalls, place: receive.arg, sample: textless.sample, foundAt: textless.foundAt };
  return { kind: 'failed', code: 'textNotFound', reason: textNotFoundSentence(mismatch), textNotFound: mismatch };
}

function sumGroups(perWorker: number[][]): number[] {
  const length = Math.max(0, ...perWorker.map((g) => g.length));
  return Array.from({ length }, (_, g) => perWorker.reduce((sum, groups) => sum + (groups[g] ?? 0), 0));
}
