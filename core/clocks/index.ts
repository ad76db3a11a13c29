// Time: the injectable clock and timers every room takes, and the agents' clocks (their offset
// from ours and the drift a run's latencies can be judged against). Pure.
export {
  type AgentClocks,
  clockEndText,
  type ClockJudgement,
  clockProblem,
  type ClockRound,
  clockStartText,
  judgeClocks,
} from './clock-drift.ts';
export { type ClockEstimate, type ClockSample, estimateClockOffset } from './clock-offset.ts';
export { type Clock, systemClock, systemTimers, type Timers } from './clock.ts';
