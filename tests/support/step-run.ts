/** Hand-made step runs for the capacity search's pure tests: only the fields a step is judged by. */
import { emptyFates, type Fates } from '../../core/accounting/fates.ts';
import { runVerdict, type RunOutcome } from '../../core/outcome/outcome.ts';
import { emptyErrorCounts, emptyTotals, type WorkerTotals } from '../../core/execution/worker-messages.ts';
import type { RunConfig } from '../../core/run-config/config.ts';
import type { RunResult } from '../../core/result/result.ts';
import { testConfig } from './finished-run.ts';

export interface StepRunSpec {
  config?: Partial<RunConfig>;
  outcome?: RunOutcome;
  planned?: number;
  /** Arrived in under 1 s, of planned. */
  underOneSecond?: number;
  late?: number;
  p99Ms?: number;
  lagMs?: number;
  totals?: Partial<WorkerTotals>;
  /** Fields of the run set as they are (connect causes, lost workers, points, fates). */
  run?: Partial<RunResult>;
}

export function stepRun(spec: StepRunSpec = {}): RunResult {
  const config = testConfig(spec.config);
  const planned = spec.planned ?? 1_000;
  const under = spec.underOneSecond ?? planned;
  const late = spec.late ?? 0;
  const outcome = spec.outcome ?? { kind: 'finished' };
  const fates: Fates = { ...emptyFates(), planned, underOneSecond: under, late, lost: planned - under - late };
  const p99Us = (spec.p99Ms ?? 5) * 1_000;
  const latency = { count: under + late, p50Us: p99Us / 2, p90Us: p99Us, p99Us, p999Us: p99Us, maxUs: p99Us, meanUs: p99Us / 2 };
  const totals = { ...emptyTotals(), sent: planned, received: under + late, connectionsOpened: config.connections, ...spec.totals };
  return {
    format: 'signalr-live-bench/run',
    version: 4,
    startedAt: '2026-01-02T03:04:05.000Z',
    config,
    client: 'test client',
    outcome,
    verdict: runVerdict({ outcome, fates, durationSec: config.durationSec, p99Us, lostWorkers: 0 }),
    fates,
    totals,
    latency,
    uncorrectedLatency: latency,
    connectTimes: latency,
    errorCounts: emptyErrorCounts(),
    errorSamples: [],
    workerFailures: [],
    workers: [{ workerIndex: 0, maxEventLoopLagMs: spec.lagMs ?? 2, maxSendLagMs: 1, missedSlots: totals.missedSlots, connectionsOpen: config.connections, lost: false }],
    points: [1, 2, 3].map((second) => ({
      second,
      latency,
      sent: planned / 3,
      received: (under + late) / 3,
      fates: emptyFates(),
      reconnects: 0,
      dropped: 0,
      sentBytes: 0,
      receivedBytes: 0,
      connectionsOpen: config.connections,
      eventLoopLagMs: spec.lagMs ?? 2,
      maxSendLagMs: 1,
    })),
    histograms: [],
    ...spec.run,
  };
}
