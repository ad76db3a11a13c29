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
