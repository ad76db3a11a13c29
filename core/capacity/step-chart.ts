/**
 * What the dashboard's capacity chart draws, from a search: per step, sorted by load, its p99 and
 * whether it broke; the guide's 1 s; and the published rate (or connection count) of the current
 * edition's tier nearest above the steps, as a reference line on the load axis. Pure.
 */
import { scenarioTable } from '../guide/index.ts';
import type { CapacityResult } from './capacity-result.ts';

export const GUIDE_LIMIT_MS = 1_000;

/** The load-against-p99 chart: one point per step, sorted by load (a bisect step sits between
 *  the loads around it, never back along the axis); steps of equal load in the order run. */
export interface LoadChartData {
  /** The ramp's load, ascending. */
  load: number[];
  /** null: nothing arrived in that step (a gap, not 0). */
  p99Ms: (number | null)[];
  /** The step's p99 where it broke, else null: drawn in the broken colour. */
  brokeP99Ms: (number | null)[];
  /** Step numbers, in the same order. */
  steps: number[];
  /** The current edition's tier nearest above the held load (or the last below), on the load axis. */
  tierLine: { tier: string; value: number } | null;
}

export function loadChartData(result: CapacityResult): LoadChartData {
  const load = (s: CapacityResult['steps'][number]) => (result.settings.ramp === 'rate' ? s.plannedSendsPerSec : s.connections);
  const sorted = [...result.steps].sort((a, b) => load(a) - load(b) || a.index - b.index);
  const p99 = (s: CapacityResult['steps'][number]) => (s.latency.count === 0 || s.latency.p99Us === null ? null : s.latency.p99Us / 1_000);
  const top = Math.max(0, ...sorted.map(load));
  const lines = tierLines(result);
  return {
    load: sorted.map(load),
    p99Ms: sorted.map(p99),
    brokeP99Ms: sorted.map((s) => (s.judgement.passed === false ? p99(s) : null)),
    steps: sorted.map((s) => s.index),
    tierLine: lines.find((line) => line.value >= top) ?? lines.at(-1) ?? null,
  };
}

function tierLines(result: CapacityResult): { tier: string; value: number }[] {
  const column = result.settings.ramp === 'rate' ? 'inboundMessagesPerSecond' : 'connections';
  const rows = scenarioTable('current', result.base.scenario).rows;
  const values = Object.entries(rows)
    .map(([tier, row]) => ({ tier, value: row[column] }))
    .filter((line): line is { tier: string; value: number } => typeof line.value === 'number' && line.value > 0)
    .sort((a, b) => a.value - b.value);
  const top = result.settings.max;
  const firstAbove = values.findIndex((line) => line.value > top);
  return firstAbove < 0 ? values : values.slice(0, firstAbove + 1);
}
