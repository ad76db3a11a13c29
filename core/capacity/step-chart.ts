/**
 * What the dashboard's capacity chart draws, from a search: per step, sorted by load, its p99 and
 * whether it broke; the guide's 1 s; the held step named; a load axis that fits the steps; and the
 * published rate (or connection count) of the current edition's tier nearest above the steps, as a
 * reference line on the load axis when it falls within it, else in words. Pure.
 */
import { niceStep } from '../charts/index.ts';
import { formatCount } from '../format.ts';
import { scenarioTable } from '../guide/index.ts';
import { heldFigure } from './answer.ts';
import { stepByIndex, type CapacityResult } from './capacity-result.ts';
import { RAMP_UNITS } from './settings.ts';

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
  /** The load axis's end: a round figure just past the highest step (or the ramp's start before
   *  any), and past the tier's line only when that lies within a third more: the steps fill the
   *  chart, never squeezed into its left part by a tier far above them. */
  xMax: number;
  /** Whether the tier's line falls on the load axis. */
  tierOnChart: boolean;
  /** The tier's figure in words, e.g. "Unit1 publishes 1,000 msg/s, 3.3 times the highest step:
   *  off the chart." when its line is not drawn; null when it is, or there is none. */
  tierWords: string | null;
  /** The step whose load the answer calls held, at its point: its load, p99 and label ("held
   *  299 msg/s"); null while none has held, or when a fault ended the search (no capacity). */
  held: { load: number; p99Ms: number; label: string } | null;
}

/** How far past the highest step the tier's line may lie and still be drawn on the axis. */
const TIER_REACH = 4 / 3;

export function loadChartData(result: CapacityResult): LoadChartData {
  const load = (s: CapacityResult['steps'][number]) => (result.settings.ramp === 'rate' ? s.plannedSendsPerSec : s.connections);
  const sorted = [...result.steps].sort((a, b) => load(a) - load(b) || a.index - b.index);
  const p99 = (s: CapacityResult['steps'][number]) => (s.latency.count === 0 || s.latency.p99Us === null ? null : s.latency.p99Us / 1_000);
  const top = Math.max(0, ...sorted.map(load));
  const lines = tierLines(result);
  const tierLine = lines.find((line) => line.value >= top) ?? lines.at(-1) ?? null;
  const reach = Math.max(top, sorted.length === 0 ? result.settings.start : 0, 1);
  const tierOnChart = tierLine !== null && tierLine.value <= reach * TIER_REACH;
  const unit = RAMP_UNITS[result.settings.ramp];
  const tierWords = tierLine === null || tierOnChart ? null
    : `${tierLine.tier} publishes ${formatCount(tierLine.value)} ${unit}, ${(tierLine.value / reach).toLocaleString('en-US', { maximumFractionDigits: 1 })} times the highest step: off the chart.`;
  const heldStep = result.finding.kind === 'fault' ? null : stepByIndex(result, result.finding.heldStep);
  const heldP99 = heldStep ? p99(heldStep) : null;
  const heldLabel = heldStep && (result.settings.ramp === 'rate' ? `held ${formatCount(heldFigure(heldStep))} msg/s` : `held ${formatCount(heldStep.connections)} ${unit}`);
  return {
    load: sorted.map(load),
    p99Ms: sorted.map(p99),
    brokeP99Ms: sorted.map((s) => (s.judgement.passed === false ? p99(s) : null)),
    steps: sorted.map((s) => s.index),
    tierLine,
    xMax: axisEnd(Math.max(reach, tierOnChart ? tierLine!.value : 0)),
    tierOnChart,
    tierWords,
    held: heldStep && heldP99 !== null && heldLabel ? { load: load(heldStep), p99Ms: heldP99, label: heldLabel } : null,
  };
}

/** A round figure at least 5% past `top`: room for the last point and its label. */
function axisEnd(top: number): number {
  const step = niceStep(top / 5);
  return Math.ceil((top * 1.05) / step) * step;
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
