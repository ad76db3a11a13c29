// Dropping connections on purpose and what it cost: the drop settings, the counters each worker
// keeps, latency before, during and after a drop, and a run's drops in one record. Pure.
export * from './drop-schedule.ts';
export * from './drop-report.ts';
export * from './totals.ts';
