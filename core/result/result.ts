/**
 * A finished run as one JSON document: what the headless runner writes, and what the dashboard
 * will export and import. Self-describing (format and version) so old files can be recognised.
 */
import { plannedDropOf, runDrops, type RunDrops } from '../drops/index.ts';
import { withLost, type Fates } from '../accounting/index.ts';
import type { ConnectCauseCounts } from '../client/index.ts';
import type { LatencySummary, EncodedSecond } from '../latency/index.ts';
import { drained, runVerdict, type RunOutcome, type RunVerdict, lossSides, type LossSide } from '../outcome/index.ts';
import { type RunConfig, instanceFigures, type InstanceCounts, type InstanceFigures } from '../run-config/index.ts';
import type { RunCoordinator, SecondPoint, WorkerHealth, ErrorCounts, ErrorSample, WorkerTotals } from '../execution/index.ts';
import type { ServerMetricsRecord } from '../server-metrics/index.ts';
import type { ClockJudgement, ClockRound } from '../clocks/index.ts';
import { runClocks } from './run-clocks.ts';
import { BenchError } from '../errors/index.ts';
import { RUN_RESULT_VERSION, upgradeRunResult } from './upgrade.ts';
import type { Diagnosis, HealthCheck } from '../diagnosis/index.ts';
import { RESULT_WORDS } from './words.ts';

export { RUN_RESULT_VERSION, upgradeRunResult, upgradeFates } from './upgrade.ts';

export const RUN_RESULT_FORMAT = 'signalr-live-bench/run';
/** The versions this tool reads: 2 (every planned reception counted: fates, the outcome and the
 *  verdict in the document) and 3, brought to the current one at parse (upgrade.ts), and the current 4. */
const READABLE_VERSIONS: readonly number[] = [2, 3, RUN_RESULT_VERSION];

export interface RunResult {
  format: typeof RUN_RESULT_FORMAT;
  version: typeof RUN_RESULT_VERSION;
  /** ISO 8601 time the run started. */
  startedAt: string;
  /** The run's id on the wire (core/execution/run-id.ts): in its payload headers and group names (e.g.
   *  "k3f9x0qa-group-3" on the hub). Absent in runs kept before run ids. */
  runId?: string;
  config: RunConfig;
  /** Where the load came from, e.g. "node v20.20.2" or the browser's user agent. */
  client: string;
  /** How the run ended: finished, stopped (and how far it got), failed (and why), interrupted,
   *  or running for a record still being written. */
  outcome: RunOutcome;
  /** The guide's rule over every planned reception: pass, fail, or none (no verdict). */
  verdict: RunVerdict;
  /** What became of every planned reception, all seconds together; its buckets sum to
   *  `planned` once the run has drained (`lost` is null until then), less `overCount`, the
   *  accounting error (0 in a sound run; it fails the verdict). Per second: `points[].fates`. */
  fates: Fates;
  totals: WorkerTotals;
  latency: LatencySummary;
  uncorrectedLatency: LatencySummary;
  connectTimes: LatencySummary;
  errorCounts: ErrorCounts;
  /** Failed connects by cause (core/client/connect-causes.ts): the client's own limits (EMFILE,
   *  EADDRNOTAVAIL, …) apart from the service's refusals. Absent in runs kept before causes were
   *  counted (version 2): which causes their failures had is unknown, so no upgrade fills it. */
  connectCauses?: ConnectCauseCounts;
  errorSamples: ErrorSample[];
  workerFailures: string[];
  workers: WorkerHealth[];
  /** One entry per second of the run. */
  points: SecondPoint[];
  /** Each second's merged latency histogram (HdrHistogram compressed base64, microseconds). */
  histograms: EncodedSecond[];
  /** Drops and reconnects: absent when no drop was planned and no connection was lost, and in
   *  runs kept before drops were measured. */
  drops?: RunDrops;
  /** Agents that took part (absent when the run had none). */
  agents?: RunAgent[];
  /** The server's own figures per second, read from its /metrics (absent when they were off,
   *  and in runs kept before they existed). */
  server?: ServerMetricsRecord;
  /** The planned send window, epoch µs: the first slot's time and the end of the last (warm-up
   *  included; its end is `startUs + config.warmupSec` s). Lets a reader cut other figures, such
   *  as the process's CPU, to the measured seconds. Absent when the run never reached "go", and
   *  in runs kept before it was recorded. */
  sendWindow?: SendWindow;
  /** With agents, once drained: the receptions judged against their clocks (the combined bound,
   *  the undecidable receptions, those before their planned time); null when a clock was
   *  unknown. Absent for runs without agents, and in runs kept before clocks were judged. */
  clocks?: ClockJudgement | null;
  /** With several hub instances (config.endpointUrls): each instance's connections and the
   *  receptions planned for them, in the config's order (core/run-config/hub-instances.ts); they sum to the
   *  totals. Absent for one instance, and in runs kept before. */
  instances?: InstanceFigures[];
  /** Why the run ended as it did: one cause from the catalog (core/diagnosis), its side, one
   *  sentence, what to do and the evidence, rendered unchanged by the runner, the page and the
   *  reports. Absent in runs kept before it was recorded: read it with diagnosisOf, which makes it
   *  from the same document. */
  diagnosis?: Diagnosis;
  /** The hubs' own /healthz, read by the runner at the end of a run that did not pass (evidence
   *  for the diagnosis: a hub that lost its backplane says so there). Absent when not read. */
  health?: HealthCheck[];
}

export interface SendWindow {
  startUs: number;
  endUs: number;
  /** When connecting began, epoch µs: the points' seconds count from it (core/charts/time-axis.ts puts
   *  them on the send clock). Absent in runs kept before it was recorded. */
  runStartUs?: number;
  /** When every engine was ready (its connections opened or failed, the hub's methods checked)
   *  and "go" went out, epoch µs: the ramp's end, to the microsecond where the points give the
   *  second. Absent in runs kept before it was recorded. */
  readyUs?: number;
  /** When the first connect began and the last connection opened, over every engine, epoch µs: the
   *  ramp's connects alone, without the engines' set-up before them and the method check and group
   *  joins after them (bench/peers/peers.mjs reads its peers' ramps the same way). Absent in runs
   *  kept before it was recorded, and when no connection opened. */
  connectsFromUs?: number;
  lastOpenedUs?: number;
}

/** An agent of the run: which of the run's workers were its threads, and how well its clock was known. */
export interface RunAgent {
  name: string;
  kind: 'node' | 'browser';
  client: string;
  /** The run's worker indices of its threads: [first, first + threads). */
  firstWorkerIndex: number;
  threads: number;
  /** Its clock minus the dashboard's, µs, from the clock round taken at this run's start; null
   *  when none of that round's round trips was answered (then only an echo run takes it, and it
   *  runs on its own clock). */
  clockOffsetUs: number | null;
  /** The true offset is within ± this, µs (half the round's best round trip). Cross-agent latencies
   *  (broadcast, groups, send to connection) can be off by up to the sum of two agents' bounds. */
  clockUncertaintyUs: number | null;
  /** Dashboard clock when that estimate's answer came, epoch µs; null with no estimate, absent in
   *  runs kept before clocks were measured per run. */
  clockMeasuredAtUs?: number | null;
  /** The clock round taken at the run's end (every time the agent reported is interpolated
   *  between the two rounds: core/clocks/clock-drift.ts); null when it got no answer (the agent
   *  left, or did not answer); absent in runs kept before it was taken. */
  clockEnd?: ClockRound | null;
  /** True when it left during the run. */
  lost: boolean;
}

/** The run's document without its diagnosis: runResult (run-evidence.ts) adds it. */
export function runDocument(coordinator: RunCoordinator, startedAt: Date, client: string, agents?: RunAgent[], server?: ServerMetricsRecord | null, reuse?: ReusedPoints): RunResult {
  const a = coordinator.aggregator;
  const health = workersOfRun(coordinator, agents);
  const outcome = coordinator.outcome;
  const isDrained = drained(outcome);
  const fates = a.settledFates(isDrained);
  const latency = a.latency();
  const clocks = runClocks(coordinator, agents, isDrained);
  return {
    format: RUN_RESULT_FORMAT,
    version: RUN_RESULT_VERSION,
    startedAt: startedAt.toISOString(),
    runId: coordinator.runId,
    config: coordinator.config,
    client,
    outcome,
    verdict: runVerdict({ outcome, fates, durationSec: coordinator.config.durationSec, p99Us: latency.count > 0 ? latency.p99Us : null, lostWorkers: a.lostWorkers, lostSides: lostSidesOf(health), duplicated: a.totals().duplicated, plannedDrop: plannedDropOf(coordinator.config, a.totals()), endpointUrl: coordinator.config.endpointUrl, clocks }),
    fates,
    totals: a.totals(),
    latency,
    uncorrectedLatency: a.uncorrectedLatency(),
    connectTimes: a.connectTimes(),
    errorCounts: a.errorCounts(),
    connectCauses: a.connectCauses(),
    errorSamples: a.errorSamples(),
    workerFailures: [...coordinator.workerFailures],
    workers: health,
    points: resultPoints(a.points(), isDrained, reuse),
    histograms: [...a.secondHistograms()],
    ...dropsField(coordinator),
    ...(agents && agents.length > 0
      ? { agents: agents.map((agent) => ({ ...agent, lost: health.slice(agent.firstWorkerIndex, agent.firstWorkerIndex + agent.threads).some((w) => w.lost) })) }
      : {}),
    ...(server ? { server } : {}),
    ...sendWindowField(coordinator),
    ...(clocks !== undefined ? { clocks } : {}),
    ...instancesField(coordinator.config, a.instanceCounts(), isDrained, a.instanceLatency()),
  };
}

/** Each worker's health, a lost one with its side (core/outcome/worker-loss.ts): whose loss it was,
 *  given how it was lost and whether its agent answered the run's closing clock round. */
export function workersOfRun(coordinator: Pick<RunCoordinator, 'aggregator' | 'workerLosses'>, agents?: readonly RunAgent[]): WorkerHealth[] {
  const sides = lossSides(coordinator.workerLosses, agents);
  return coordinator.aggregator.workerHealth().map((w) => (w.lost ? { ...w, lostSide: sides.get(w.workerIndex) ?? 'client' } : w));
}

/** The sides of the lost workers, for the verdict. */
export function lostSidesOf(workers: readonly WorkerHealth[]): LossSide[] {
  return workers.filter((w) => w.lost).map((w) => w.lostSide ?? 'client');
}

function instancesField(config: RunConfig, counts: InstanceCounts[] | null, isDrained: boolean, latency: LatencySummary[] | null): { instances?: InstanceFigures[] } {
  const instances = instanceFigures(config, counts, isDrained, latency);
  return instances ? { instances } : {};
}

/**
 * A run still going, written once a second (core/history/recorder.ts), needs its older seconds as
 * already copied: only seconds from `fresh` on are rewritten, so copying every second of an
 * hour-long run each second would cost time for nothing.
 */
export interface ReusedPoints {
  points: readonly SecondPoint[];
  /** Seconds before the newest that are copied again (their receptions may still arrive). */
  freshSeconds: number;
}

export function resultPoints(points: readonly SecondPoint[], isDrained: boolean, reuse?: ReusedPoints): SecondPoint[] {
  const copy = (point: SecondPoint) => ({ ...point, fates: withLost(point.fates, isDrained) });
  if (!reuse || isDrained) return points.map(copy);
  const kept = Math.max(0, Math.min(reuse.points.length - reuse.freshSeconds, points.length));
  const out = reuse.points.slice(0, kept);
  for (let i = kept; i < points.length; i++) out.push(copy(points[i]!));
  return out;
}

function sendWindowField(coordinator: RunCoordinator): { sendWindow?: SendWindow } {
  const { startUs, endUs, runStartUs, readyUs, connectsFromUs, lastOpenedUs } = coordinator.sendWindowUs;
  const connects = lastOpenedUs > 0 ? { connectsFromUs, lastOpenedUs } : {};
  return startUs > 0 ? { sendWindow: { startUs, endUs, runStartUs, readyUs, ...connects } } : {};
}

function dropsField(coordinator: RunCoordinator): { drops?: RunDrops } {
  const drops = runDrops(coordinator.config, coordinator.aggregator);
  return drops ? { drops } : {};
}

/** Reads a run result, saying what is wrong with a file that is not one. */
export function parseRunResult(text: string): RunResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new BenchError('parse', RESULT_WORDS.notJson({ reason: error instanceof Error ? error.message : String(error) }));
  }
  const doc = value as Partial<RunResult> | null;
  if (!doc || doc.format !== RUN_RESULT_FORMAT) {
    throw new BenchError('parse', RESULT_WORDS.notARun({ format: doc?.format, expected: RUN_RESULT_FORMAT }));
  }
  if ((doc.version as number | undefined) === 1) {
    throw new BenchError('parse', RESULT_WORDS.formatOne());
  }
  if (!READABLE_VERSIONS.includes(doc.version as number)) {
    throw new BenchError('parse', RESULT_WORDS.unreadableVersion({ version: doc.version, readable: READABLE_VERSIONS }));
  }
  for (const key of ['config', 'outcome', 'verdict', 'fates', 'totals', 'latency', 'points'] as const) {
    if (doc[key] === undefined) throw new BenchError('parse', RESULT_WORDS.missingField({ key }));
  }
  // Optional (absent when server metrics were off), but when present the charts read it.
  if (doc.server !== undefined && (doc.server === null || typeof doc.server !== 'object' || !Array.isArray(doc.server.points))) {
    throw new BenchError('parse', RESULT_WORDS.serverWithoutPoints());
  }
  return upgradeRunResult(doc as RunResult);
}
