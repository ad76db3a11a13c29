// Time: the injectable clock and timers every room takes, and the agents' clocks (their offset
// from ours and the drift a run's latencies can be judged against). Pure.
export * from './clock-drift.ts';
export * from './clock-offset.ts';
export * from './clock.ts';
