/** A kept run shown with the live run's components: its document as the summary's view. */
import { limitOfResult, type RunResult } from '../../core/result/index.ts';
import type { RunView } from './run-controller.svelte.ts';
import { firstLossSec, sendOffsetSec } from '../../core/charts/index.ts';
import { clientSchedule } from '../../core/client/index.ts';
import type { CapacityResult } from '../../core/capacity/index.ts';
import type { KeptRun } from '../../core/history/index.ts';

export function viewOfResult(result: RunResult): RunView {
  const last = result.points.at(-1);
  return {
    phase: 'done',
    outcome: result.outcome,
    verdict: result.verdict,
    judgedShare: null,
    // An interrupted run never drained: its fates say lost null (unknown), not 0.
    fates: result.fates,
    totals: result.totals,
    connectionsOpen: last?.connectionsOpen ?? 0,
    connectTimes: result.connectTimes,
    latency: result.latency,
    uncorrectedLatency: result.uncorrectedLatency,
    errorCounts: result.errorCounts,
    errorSamples: result.errorSamples,
    workerFailures: result.workerFailures,
    schedule: clientSchedule({ points: result.points, missedSlots: result.totals.missedSlots, sent: result.totals.sent }),
    workers: result.workers,
    agents: result.agents ?? [],
    // Runs kept before server metrics existed have none: the limit then rests on the client alone.
    server: result.server ?? null,
    limit: limitOfResult(result),
    drops: result.drops ?? null,
    // A kept run is over: no send window to count down, no "last 10 s" to watch.
    sendStartUs: 0,
    sendEndUs: 0,
    sendOffsetSec: sendOffsetSec(result.sendWindow),
    connectionsLostAtSec: result.totals.disconnects > 0 ? firstLossSec(result.points, sendOffsetSec(result.sendWindow)) : null,
    recentLatency: null,
    ...(result.clocks !== undefined ? { clocks: result.clocks } : {}),
    ...(result.instances ? { instances: result.instances } : {}),
  };
}

/** A kept run (and the search it is a step of, or the runs compared with it) as the presentation
 *  shows it: the same shape the page's RunController offers, done. */
export interface KeptOnStage {
  run: { view: RunView; config: RunResult['config']; points: RunResult['points']; preparing: false; result: () => RunResult };
  search: CapacityResult | null;
  /** The kept runs presented side by side, in order; empty for a run or a search. */
  compared: readonly KeptRun[];
}

export function keptOnStage(result: RunResult, search: CapacityResult | null, compared: readonly KeptRun[] = []): KeptOnStage {
  return { run: { view: viewOfResult(result), config: result.config, points: result.points, preparing: false, result: () => result }, search, compared };
}
