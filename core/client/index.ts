// The client's own side of a run: the one rule for keeping its schedule, failed connects by cause
// and side, and its own limits in words, so that no view blames the service for the client. Pure.
export * from './connect-causes.ts';
export * from './own-limits.ts';
export * from './schedule.ts';
