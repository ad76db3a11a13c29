/**
 * The accounting every run must keep, checked against the figure its arguments give: `planned`
 * equals what the configuration plans (never what managed to open), and in every second and in
 * total nothing arrived or went unsent beyond the plan (`arrived + notSent <= planned`, no
 * accounting error). Lost must then be known and be the rest.
 */
import { expect } from 'vitest';
import { arrivedOf, notSentOf, type Fates } from '../../core/accounting/fates.ts';
import type { RunResult } from '../../core/result/result.ts';

function expectWithinPlan(fates: Fates): void {
  expect(arrivedOf(fates) + notSentOf(fates)).toBeLessThanOrEqual(fates.planned);
  expect(fates.overCount).toBe(0);
  expect(fates.lost).not.toBeNull();
  expect(fates.lost).toBe(fates.planned - arrivedOf(fates) - notSentOf(fates));
}

/** @param plannedFromArguments the run's planned receptions, worked out from its arguments; for a
 *  run stopped part-way, the bounds the seconds before the stop give ([at least, at most]). */
export function expectAccounting(result: RunResult, plannedFromArguments: number | readonly [number, number]): void {
  const [least, most] = typeof plannedFromArguments === 'number' ? [plannedFromArguments, plannedFromArguments] : plannedFromArguments;
  expect(result.fates.planned).toBeGreaterThanOrEqual(least);
  expect(result.fates.planned).toBeLessThanOrEqual(most);
  expect(least).toBeGreaterThan(0);
  expect(result.points.reduce((sum, p) => sum + p.fates.planned, 0)).toBe(result.fates.planned);
  expectWithinPlan(result.fates);
  for (const point of result.points) expectWithinPlan(point.fates);
}
