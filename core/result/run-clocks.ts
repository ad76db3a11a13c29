/**
 * A finished run's receptions judged against its agents' clocks (core/clocks/clock-drift.ts): the glue
 * between the run's merged figures and the pure judgement, shared by the run document and the
 * page's live view so both give the same verdict. Decodes each second's histogram once per run
 * and set of clocks (a judged run is asked for its document more than once).
 */
import { countBetweenUs, decodeHistogram } from '../latency/index.ts';
import type { RunAggregator } from '../execution/index.ts';
import type { ScenarioName } from '../plan/index.ts';
import { judgeClocks, type AgentClocks, type ClockJudgement } from '../clocks/index.ts';

/** What the judgement reads of a run. */
export interface ClockedRun {
  config: { scenario: ScenarioName };
  aggregator: Pick<RunAggregator, 'workerCount' | 'secondHistograms' | 'totals' | 'maxNegativeLatencyUs'>;
  /** The run's time base, epoch µs (the seconds count from it). */
  runStartUs: number;
}

const judged = new WeakMap<object, { agents: readonly unknown[]; judgement: ClockJudgement | null }>();

/**
 * The judgement of a drained run with agents; undefined for a run without agents (one clock) or
 * still going; null when a clock taking part is unknown.
 */
export function runClocks(run: ClockedRun, agents: readonly (AgentClocks & { threads: number })[] | undefined, isDrained: boolean): ClockJudgement | null | undefined {
  if (!agents || agents.length === 0 || !isDrained) return undefined;
  const cached = judged.get(run.aggregator);
  if (cached && cached.agents === agents) return cached.judgement;
  const agentThreads = agents.reduce((sum, agent) => sum + agent.threads, 0);
  const seconds = run.aggregator.secondHistograms();
  const bySecond = new Map(seconds.map((s) => [s.second, s.latency]));
  const judgement = judgeClocks(agents, run.aggregator.workerCount > agentThreads, run.config.scenario !== 'echo', run.runStartUs, {
    seconds: seconds.map((s) => s.second),
    countBetween: (second, lowUs, highUs) => {
      const encoded = bySecond.get(second);
      return encoded ? countBetweenUs(decodeHistogram(encoded), lowUs, highUs) : 0;
    },
    negative: run.aggregator.totals().negativeLatencies,
    maxNegativeUs: run.aggregator.maxNegativeLatencyUs(),
  });
  judged.set(run.aggregator, { agents, judgement });
  return judgement;
}
