/**
 * What the dashboard's step chart draws, from a capacity search: per step, in the order run, its
 * load, p99 and share under 1 s; the guide's 1 s line; and the published rate (or connection
 * count) of the current edition's tiers near the ramp, as reference lines on the load axis. Pure.
 */
import { scenarioTable } from '../guide/index.ts';
import type { CapacityResult } from './capacity-result.ts';

export interface StepChartData {
  /** Step numbers, 1-based. */
  steps: number[];
  load: number[];
  /** null: nothing arrived in that step (a gap, not 0). */
  p99Ms: (number | null)[];
  /** Share under 1 s in percent; null when nothing was planned. */
  underOneSecondPercent: (number | null)[];
  /** Tiers whose published value lies within the chart's load range (and the first above it). */
  tierLines: { tier: string; value: number }[];
}

export const GUIDE_LIMIT_MS = 1_000;

export function stepChartData(result: CapacityResult): StepChartData {
  const steps = result.steps;
  return {
    steps: steps.map((s) => s.index),
    load: steps.map((s) => (result.settings.ramp === 'rate' ? s.plannedSendsPerSec : s.connections)),
    p99Ms: steps.map((s) => (s.latency.count === 0 || s.latency.p99Us === null ? null : s.latency.p99Us / 1_000)),
    underOneSecondPercent: steps.map((s) => (s.verdict.share === null ? null : s.verdict.share * 100)),
    tierLines: tierLines(result),
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
