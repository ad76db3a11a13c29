/**
 * The dashboard's run: the one module that creates Web Workers. It hands them to a
 * RunCoordinator and copies the merged figures into reactive state at most once per frame.
 */
import { plannedDropOf, runDrops, type RunDrops } from '../../core/drops/index.ts';
import { systemClock, systemTimers, type ClockJudgement } from '../../core/clocks/index.ts';
import { type Fates } from '../../core/accounting/index.ts';
import {
  RunCoordinator,
  type SecondPoint,
  type WorkerHealth,
  type RunPhase,
  type WorkerPort,
  type ErrorCounts,
  type ErrorSample,
  type FromWorker,
  type WorkerTotals,
} from '../../core/execution/index.ts';
import { drained, runVerdict, type RunOutcome, type RunVerdict } from '../../core/outcome/index.ts';
import {
  runResult,
  needsOriginProbe,
  runLimit,
  runClocks,
  clientLimitsOf,
  workersOfRun,
  lostSidesOf,
  type RunAgent,
  type RunResult,
} from '../../core/result/index.ts';
import { queryToMetrics, instanceFigures, hubInstances, type InstanceCounts, type InstanceFigures, type RunConfig } from '../../core/run-config/index.ts';
import { RecentLatency, type LatencySummary } from '../../core/latency/index.ts';
import { REWRITTEN_SECONDS } from '../../core/history/index.ts';
import { platformFetchText, ServerScraper, ServerScrapers, type ServerMetricsRecord, type LimitExplanation } from '../../core/server-metrics/index.ts';
import { firstLossSec, sendOffsetSec } from '../../core/charts/index.ts';
import { clientSchedule, type ClientSchedule } from '../../core/client/index.ts';
import { fleetRunPorts, type RemoteWorkers } from '../../core/fleet/index.ts';
import { ServerMetricsSettings } from './server-metrics.svelte.ts';
import { refreshWaitMs } from './refresh-pace.ts';
import { sessionCredentials } from './session-credentials.svelte.ts';
import { originAnswers } from './origin-probe.ts';

export interface RunView {
  phase: RunPhase;
  /** How the run ended; running until it has. */
  outcome: RunOutcome;
  /** The guide's rule over every planned reception (core/outcome/outcome.ts). */
  verdict: RunVerdict;
  /** While running: the share so far over receptions planned over 1 s ago; null otherwise. */
  judgedShare: number | null;
  /** What became of every planned reception; `lost` is null until the run has drained. */
  fates: Fates;
  totals: WorkerTotals;
  connectionsOpen: number;
  connectTimes: LatencySummary;
  latency: LatencySummary;
  uncorrectedLatency: LatencySummary;
  errorCounts: ErrorCounts;
  errorSamples: ErrorSample[];
  workerFailures: string[];
  /** Whether the client kept its schedule over the sending seconds (core/client/schedule.ts). */
  schedule: ClientSchedule;
  workers: WorkerHealth[];
  /** Agents taking part, and which workers are their threads (empty without agents). */
  agents: RunAgent[];
  /** The server's own figures from its /metrics; null when they were not read. */
  server: ServerMetricsRecord | null;
  /** Which side set the limit, in words (core/server-metrics/attribution.ts). */
  limit: LimitExplanation;
  /** Drops and reconnects; null when no drop was planned and no connection was lost. */
  drops?: RunDrops | null;
  /** Planned send window, epoch microseconds (both 0 before "go"): the run bar's elapsed time. */
  sendStartUs: number;
  sendEndUs: number;
  /** Seconds from the start of connecting (where the points' seconds count from) to the first
   *  planned send; null before "go" or when not known (core/charts/time-axis.ts). */
  sendOffsetSec: number | null;
  /** When open connections first fell after the first send, seconds on the send clock; null if never. */
  connectionsLostAtSec: number | null;
  /** Latency of the last 10 closed seconds, merged (core/latency/recent-latency.ts); null without messages. */
  recentLatency: LatencySummary | null;
  /** With agents, once drained: receptions judged against their clocks (core/clocks/clock-drift.ts). */
  clocks?: ClockJudgement | null;
  /** With several hub instances: each one's connections and receptions (core/run-config/hub-instances.ts). */
  instances?: InstanceFigures[];
}

/** Workers outside this page that take part in a run (core/fleet/fleet-run.ts). */
export type { RemoteWorkers };

/** A Web Worker running the engine (also used by a browser that is an agent of another dashboard). */
export function createWorkerPort(): WorkerPort {
  const worker = new Worker(new URL('../../hosts/bench.worker.ts', import.meta.url), { type: 'module', name: 'bench' });
  return {
    post: (message) => worker.postMessage(message),
    onMessage: (handler) => {
      worker.onmessage = (event: MessageEvent<FromWorker>) => handler(event.data);
      // A worker that cannot even load reports here, not through its own messages.
      worker.onerror = (event) => {
        event.preventDefault();
        handler({ type: 'fatal', workerIndex: -1, message: event.message || 'the worker script failed to load' });
      };
    },
    terminate: () => worker.terminate(),
  };
}

export class RunController {
  /** The run's configuration, or null before the first run. */
  config = $state.raw<RunConfig | null>(null);
  view = $state.raw<RunView | null>(null);
  points = $state.raw<readonly SecondPoint[]>([]);
  #coordinator: RunCoordinator | null = null;
  #agents: RunAgent[] = [];
  #startedAt = new Date();
  #frameRequested = false;
  #refreshedAtMs = 0;
  #refreshTimer: ReturnType<typeof setTimeout> | undefined;
  #finished: Promise<void> = Promise.resolve();
  /** Whether the endpoint's origin answered a no-cors request after every negotiate failed with no
   *  status (origin-probe.ts); null when not asked. Part of the run's evidence (core/diagnosis). */
  #originAnswered: boolean | null = null;
  /** Counts evidence that came after the run was done (the origin's answer): the keeper writes
   *  the run again when it changes, so the kept run says what the page says. */
  #lateEvidence = 0;

  get lateEvidence(): number {
    return this.#lateEvidence;
  }
  /** Reads the server's /metrics beside the run (null: not read). */
  #scraper: ServerScraper | ServerScrapers | null = null;
  /** Where the server's metrics are read: a shared link's choice, else the defaults. */
  readonly serverMetrics = new ServerMetricsSettings(queryToMetrics(globalThis.location?.search ?? ''));
  #recentLatency: LatencySummary | null = null;
  #recentWindow = new RecentLatency();

  /** The run's plan is being made: agents' clocks are measured before it starts. */
  preparing = $state(false);
  #cancelPreparing = false;

  get running(): boolean {
    return this.preparing || (this.view !== null && this.view.phase !== 'done');
  }

  /** `plan` says which agents take part in a run of a configuration, or why it cannot start
   *  (see FleetController.plan, which first measures every agent's clock); without it, runs
   *  use this page's workers only. */
  constructor(private readonly plan: (config: RunConfig) => Promise<{ remote?: RemoteWorkers; error?: string }> = async () => ({})) {}

  /** Starts a run once its plan is made; false when it cannot start (the reason is shown where
   *  `plan` puts it), was stopped while planned, or another start is being planned. */
  async start(config: RunConfig): Promise<boolean> {
    if (this.preparing) return false;
    this.preparing = true;
    this.#cancelPreparing = false;
    let planned: { remote?: RemoteWorkers; error?: string };
    try {
      planned = await this.plan(config);
    } finally {
      this.preparing = false;
    }
    const { remote, error } = planned;
    if (error) return false;
    if (this.#cancelPreparing) {
      for (const port of remote?.ports ?? []) port.terminate();
      return false;
    }
    this.#coordinator?.terminate();
    const localCount = remote && !remote.includeLocal ? 0 : config.workers;
    const local = Array.from({ length: localCount }, (_, index) => withIndex(createWorkerPort(), index));
    // Agents' threads come after this page's workers (core/fleet/fleet-run.ts).
    const { ports, goLeadMs, capacities } = fleetRunPorts(local, remote);
    const coordinator = new RunCoordinator(config, ports, systemClock, systemTimers, { credentials: sessionCredentials.credentials, onUpdate: () => this.#requestRefresh(), goLeadMs, capacities });
    this.#agents = remote?.agents ?? [];
    this.#coordinator = coordinator;
    this.#startedAt = new Date();
    this.config = config;
    this.points = [];
    const scraper = this.#startScraper(config);
    this.#recentLatency = null;
    this.#recentWindow = new RecentLatency();
    this.#originAnswered = null;
    coordinator.start();
    this.#refresh();
    this.#finished = coordinator.finished().then(async () => {
      if (this.#coordinator === coordinator) coordinator.terminate();
      // The last periodic reading is at most a second old: no extra one to wait for.
      void scraper?.stop(false);
      // "Failed to fetch" says neither nothing there nor CORS: ask the origin, before the figures are final.
      if (needsOriginProbe({ totals: coordinator.aggregator.totals(), errorSamples: coordinator.aggregator.errorSamples() })) {
        const answered = await originAnswers(config.endpointUrl);
        if (this.#coordinator === coordinator) {
          this.#originAnswered = answered;
          this.#lateEvidence += 1;
        }
      }
      // The agents' closing clock round, before the figures are final (their drift is in the verdict).
      const agents = this.#agents;
      if (remote?.close && agents.length > 0) {
        const closed = await remote.close(agents).catch(() => agents);
        if (this.#coordinator === coordinator) this.#agents = closed;
      }
      this.#refresh();
    });
    return true;
  }

  /** Resolves once the latest run has finished and its figures are in `view`. */
  finished(): Promise<void> {
    return this.#finished;
  }

  /** The finished run as a document (core/result/result.ts); null while it runs. */
  result(): RunResult | null {
    const coordinator = this.#coordinator;
    if (!coordinator || coordinator.phase !== 'done') return null;
    return runResult(coordinator, this.#startedAt, navigator.userAgent, this.#agents, this.#scraper?.record(), undefined, { originAnswered: this.#originAnswered });
  }

  /** The run so far as a document, while it runs too: what the history keeps each second. While
   *  it runs, seconds the keeper will not rewrite are taken from the last such document, not
   *  copied again (core/result/result.ts ReusedPoints); once done, every second is copied afresh. */
  partialResult(): RunResult | null {
    const coordinator = this.#coordinator;
    if (!coordinator) return null;
    const last = this.#lastPartial;
    const reuse = coordinator.phase !== 'done' && last?.coordinator === coordinator ? { points: last.result.points, freshSeconds: 2 * REWRITTEN_SECONDS } : undefined;
    const result = runResult(coordinator, this.#startedAt, navigator.userAgent, this.#agents, this.#scraper?.record(), reuse, { originAnswered: this.#originAnswered });
    this.#lastPartial = { coordinator, result };
    return result;
  }
  #lastPartial: { coordinator: RunCoordinator; result: RunResult } | null = null;

  /** Starts reading the server's metrics for a run, when they are on; a failure is said once
   *  (view.server.problem) and never touches the run. */
  #startScraper(config: RunConfig): ServerScraper | ServerScrapers | null {
    void this.#scraper?.stop(false);
    // Each hub instance's own /metrics, unless one address was typed (core/server-metrics/instances.ts).
    const instances = hubInstances(config);
    const urls = this.serverMetrics.address.trim() === '' && instances.length > 1
      ? instances.map((endpointUrl) => this.serverMetrics.urlFor(endpointUrl)).filter((url): url is string => url !== null)
      : [this.serverMetrics.urlFor(config.endpointUrl)].filter((url): url is string => url !== null);
    const scraperOf = (url: string) => new ServerScraper({ url, fetchText: platformFetchText(), clock: systemClock, timers: systemTimers, onUpdate: () => this.#requestRefresh(), onProblem: () => this.#requestRefresh() });
    this.#scraper = urls.length === 0 ? null : urls.length === 1 ? scraperOf(urls[0]!) : new ServerScrapers(urls.map(scraperOf));
    this.#scraper?.start();
    return this.#scraper;
  }

  stop(): void {
    // Stop while the agents' clocks are measured: the run never starts.
    if (this.preparing) this.#cancelPreparing = true;
    this.#coordinator?.stop();
    this.#refresh();
  }

  #requestRefresh(): void {
    if (this.#frameRequested) return;
    const waitMs = this.#coalesceMs();
    if (waitMs > 0) {
      this.#refreshTimer ??= setTimeout(() => {
        this.#refreshTimer = undefined;
        this.#requestRefresh();
      }, waitMs);
      return;
    }
    clearTimeout(this.#refreshTimer);
    this.#refreshTimer = undefined;
    this.#frameRequested = true;
    requestAnimationFrame(() => {
      this.#frameRequested = false;
      this.#refresh();
    });
  }

  /** While the run sends, the figures move once per closed second (src/lib/refresh-pace.ts). */
  #coalesceMs(): number {
    const coordinator = this.#coordinator;
    if (!coordinator) return 0;
    return refreshWaitMs(coordinator.phase === 'running', coordinator.aggregator.points().length !== this.points.length, performance.now() - this.#refreshedAtMs);
  }

  #refresh(): void {
    const coordinator = this.#coordinator;
    if (!coordinator) return;
    this.#refreshedAtMs = performance.now();
    const a = coordinator.aggregator;
    const points = a.points();
    // Seconds only ever get appended once closed, so the charts redraw once per new second,
    // not once per worker snapshot (with 4 workers that was up to 4 redraws of every point).
    if (points.length !== this.points.length) {
      this.points = [...points];
      this.#recentLatency = this.#recentWindow.of(a.secondHistograms());
    }
    const outcome = coordinator.outcome;
    const fates = a.settledFates(drained(outcome));
    const latency = a.latency();
    const server = this.#scraper?.record() ?? null;
    const clocks = runClocks(coordinator, this.#agents, drained(outcome));
    const offsetSec = sendOffsetSec(coordinator.sendWindowUs);
    const workers = workersOfRun(coordinator, this.#agents);
    this.view = {
      ...(clocks !== undefined ? { clocks } : {}),
      phase: coordinator.phase,
      outcome,
      verdict: runVerdict({ outcome, fates, durationSec: coordinator.config.durationSec, p99Us: latency.count > 0 ? latency.p99Us : null, lostWorkers: a.lostWorkers, lostSides: lostSidesOf(workers), duplicated: a.totals().duplicated, plannedDrop: plannedDropOf(coordinator.config, a.totals()), endpointUrl: coordinator.config.endpointUrl, clocks }),
      judgedShare: outcome.kind === 'running' ? a.judgedShare() : null,
      fates,
      totals: a.totals(),
      connectionsOpen: a.connectionsOpen(),
      connectTimes: a.connectTimes(),
      latency,
      uncorrectedLatency: a.uncorrectedLatency(),
      errorCounts: a.errorCounts(),
      errorSamples: a.errorSamples(),
      workerFailures: [...coordinator.workerFailures],
      schedule: clientSchedule({ points, missedSlots: a.totals().missedSlots, sent: a.totals().sent }),
      workers,
      agents: this.#agents,
      server,
      limit: runLimit({ points, missedSlots: a.totals().missedSlots, sent: a.totals().sent, server, clientLimits: clientLimitsOf({ config: coordinator.config, totals: a.totals(), connectCauses: a.connectCauses(), workers, workerFailures: coordinator.workerFailures }), workers, connectCauses: a.connectCauses() }),
      // Latency by phase merges every second's histogram: computed once the run is kept, not per frame.
      drops: runDrops(coordinator.config, a, false),
      sendStartUs: coordinator.sendWindowUs.startUs,
      sendEndUs: coordinator.sendWindowUs.endUs,
      sendOffsetSec: offsetSec,
      connectionsLostAtSec: a.totals().disconnects > 0 ? firstLossSec(points, offsetSec) : null,
      recentLatency: this.#recentLatency,
      ...instancesOf(coordinator.config, a.instanceCounts(), drained(outcome), a.instanceLatency()),
    };
  }
}

function instancesOf(config: RunConfig, counts: InstanceCounts[] | null, isDrained: boolean, latency: LatencySummary[] | null): { instances?: InstanceFigures[] } {
  const instances = instanceFigures(config, counts, isDrained, latency);
  return instances ? { instances } : {};
}

/** Fills in the worker index of load failures, which the worker itself could not report. */
function withIndex(port: WorkerPort, workerIndex: number): WorkerPort {
  return {
    ...port,
    onMessage: (handler) => port.onMessage((message) => handler(message.type === 'fatal' && message.workerIndex < 0 ? { ...message, workerIndex } : message)),
  };
}
