/**
 * How the Vitest suite is grouped, in one place for vite.config.ts and scripts/test-times.mjs.
 *
 * Most integration and browser files spend their seconds waiting on runs of fixed length (timed
 * sends, planned drops, a hub frozen for a while), not on the CPU, so several run side by side.
 * The files below MEASURE what this machine can do (the client's own limits, engine processes
 * splitting a load, the runner's speed at 2,000 connects): beside other files they would measure
 * the other files, so they run alone, one at a time, after every other file is done. Capacity
 * searches in the dashboard are not among them: their hubs are limited low enough (and their
 * sends far enough apart) that the browser group's load has not made the client the limit.
 */

/** Files that must run with nothing beside them, by their path from the repo root. */
export const LOAD_FILES = {
  integration: [
    // Three capacity searches side by side against hubs throttled to 200 msg/s: the client must
    // keep its schedule. Beside group 0's files on a machine at load 17 a first step's client
    // lagged 363 ms and missed 12% of its sends, and the search named the client.
    'tests/integration/capacity-cli.test.ts',
    // The client's limits (file descriptors, heap) after a first step that must hold.
    'tests/integration/client-limits-cli.test.ts',
    // 200 connections split over engine processes by themselves, and exact counts with a pass.
    'tests/integration/engine-processes.test.ts',
    // 100 connections dropped at once and resumed by stateful reconnect with a pass: beside other
    // files the resumed run failed its verdict in 2 of 3 full runs.
    'tests/integration/drops.test.ts',
    // 2,000 connects to a frozen hub given up within a bound: the runner's own speed.
    'tests/integration/hub-frozen-start.test.ts',
    // 16 agent processes and their lead on two cores, and a pass.
    'tests/integration/fleet-16.test.ts',
    // Runs through two hub-samples and a Redis that must pass: beside other files the messages
    // through Redis read p99 just over 1 s (2 of 7 failed in one fresh-clone run, 4 in another).
    'tests/integration/scale-out.test.ts',
  ],
  browser: [
    // The dashboard's run over two hub-samples on one Redis, which must pass (failed beside others once).
    'tests/browser/scale-out.test.ts',
  ],
};

/**
 * Files at a time in each group (the machine has 2 cores): integration files mostly wait on
 * timers; a browser file runs a Chromium that does use the CPU; load files run alone.
 */
export const WORKERS = { parallel: 3, browser: 2, load: 1 };

/** The order of the groups: Vitest runs a group's projects together, and groups one after another. */
export const GROUP_ORDER = { parallel: 0, browser: 1, load: 2 };

/**
 * The longest files of the browser group, longest first (seconds of a fresh-clone run,
 * 2026-12-06): they start first, so that no long file starts near the group's end while the
 * other worker sits idle (on a fresh clone Vitest has no timings and starts larger files first,
 * which left `compare-held` running alone at the group's end). Only the order depends on it: a
 * file not listed starts after these, in Vitest's order. Group 0 keeps Vitest's order: starting
 * its heaviest files together (agents, server-metrics, edges) failed timing-bound tests there at
 * load 11 to 17.
 */
export const LONGEST_FIRST = [
  'tests/browser/layout.test.ts', // 63 s
  'tests/browser/drops.test.ts', // 48
  'tests/browser/hub-profile-shapes.test.ts', // 45
  'tests/browser/server-metrics.test.ts', // 38
  'tests/browser/capacity.test.ts', // 32
  'tests/browser/compare-held.test.ts', // 29
  'tests/browser/outcomes.test.ts', // 28
];

/** The Vitest project a test file belongs to (as vite.config.ts sorts them). */
export function projectOfFile(file) {
  for (const [project, files] of Object.entries(LOAD_FILES)) if (files.includes(file)) return `${project}-load`;
  const folder = /^tests\/([^/]+)\//.exec(file)?.[1];
  return folder ?? 'other';
}
