/**
 * Thresholds judged against a finished run: each one's measured figure, in the unit its limit
 * is read in, and whether it held, as the runner's JSON keeps them and its summary prints them
 * (✓ / ✗, as k6 does). A figure the run does not know (no message arrived, the run never drained)
 * fails its threshold: an unknown is never a pass. Pure.
 */
import type { RunResult } from '../result/index.ts';
import { percentOf as percent, type Operator, type Threshold } from './grammar.ts';
import { measure, METRICS, type MetricName, type Unmeasured } from './metrics.ts';

/** The unit a check's limit and figure are given in (the JSON's `unit`). */
export type ThresholdUnit = 'ms' | '%' | 'receptions' | 'connections' | 'msg/s';

/** One threshold's result, as the runner's JSON document keeps it (its `thresholds`). */
export interface ThresholdCheck {
  /** As written: "p99<250ms", or the old flag's alias: "p99<=250ms". */
  expression: string;
  /** The old flag it stands for ("--max-p99-ms 250"); absent for a --threshold. */
  alias?: string;
  metric: MetricName;
  operator: Operator;
  /** The limit in `unit` (a share in %). */
  limit: number;
  /** The run's figure in `unit`; null when the run does not know it (`unmeasured` says why). */
  measured: number | null;
  unit: ThresholdUnit;
  /** What a count or a share is of: the planned receptions, or the planned connections. */
  of?: number;
  unmeasured?: Unmeasured;
  passed: boolean;
}

/** Equal within float rounding: 99.9% read as 99.9 / 100 is 0.9990000000000001, and 999 of
 *  1,000 delivered is 0.999; the two are one limit. */
const EPSILON = 1e-9;

export function holds(value: number, operator: Operator, limit: number): boolean {
  const close = Math.abs(value - limit) <= EPSILON * Math.max(1, Math.abs(limit));
  switch (operator) {
    case '<': return value < limit && !close;
    case '<=': return value <= limit || close;
    case '>': return value > limit && !close;
    case '>=': return value >= limit || close;
    case '==': return close;
    case '!=': return !close;
  }
}

function unitOf(threshold: Threshold): ThresholdUnit {
  const kind = METRICS[threshold.metric];
  if (kind === 'time') return 'ms';
  if (kind === 'rate') return 'msg/s';
  if (kind === 'share' || threshold.asShare) return '%';
  return kind;
}


export function checkThreshold(result: RunResult, threshold: Threshold): ThresholdCheck {
  const measured = measure(result, threshold.metric);
  const unit = unitOf(threshold);
  // A count written with % is compared as its share of what was planned; nothing planned, no share.
  const share = threshold.asShare && METRICS[threshold.metric] !== 'share';
  const unmeasured = measured.unmeasured ?? (share && measured.value !== null && !measured.of ? 'nonePlanned' : null);
  const value = unmeasured ? null : share ? measured.value! / measured.of! : measured.value;
  return {
    expression: threshold.expression,
    ...(threshold.alias ? { alias: threshold.alias } : {}),
    metric: threshold.metric,
    operator: threshold.operator,
    limit: unit === '%' ? percent(threshold.limit) : threshold.limit,
    measured: value === null ? null : unit === '%' ? percent(value) : value,
    unit,
    ...(measured.of !== null ? { of: measured.of } : {}),
    ...(unmeasured ? { unmeasured } : {}),
    passed: value !== null && holds(value, threshold.operator, threshold.limit),
  };
}

export function checkThresholds(result: RunResult, thresholds: readonly Threshold[]): ThresholdCheck[] {
  return thresholds.map((threshold) => checkThreshold(result, threshold));
}
