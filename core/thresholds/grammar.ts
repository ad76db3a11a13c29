/**
 * k6's small threshold grammar, as CI authors write it: `<metric><operator><value>[unit]`, one
 * expression per --threshold: 'p99<250ms', k6's 'p(99)<250', 'delivery>=99.9%', 'lost==0'.
 * Operators < <= > >= == != (k6's === too); times in ms (plain numbers, as in k6) or s, shares in
 * % or as a plain fraction (k6's rates), counts plain or with % as a share of what was planned.
 * The one parser of thresholds: the old flags (--max-p99-ms, --min-delivery, --allow-loss) are
 * written as expressions and read here too (aliasThreshold). A problem comes back as a code and
 * its values; words.ts says it. Pure.
 */
import { K6_NAMES, METRICS, METRIC_NAMES, RECORDED_PERCENTILES, type MetricKind, type MetricName } from './metrics.ts';

export const OPERATORS = ['<', '<=', '>', '>=', '==', '!='] as const;
export type Operator = (typeof OPERATORS)[number];

export interface Threshold {
  /** As written (trimmed), or as the old flag's alias writes it. */
  expression: string;
  /** The old flag it stands for, e.g. "--max-p99-ms 250"; null for a --threshold. */
  alias: string | null;
  metric: MetricName;
  operator: Operator;
  /** In the metric's base unit: ms for a time, a fraction 0..1 for a share, a count, msg/s. */
  limit: number;
  /** A count compared as a share of what was planned (its limit was written with %). */
  asShare: boolean;
}

/** What is wrong with an expression, with the values its sentence quotes (words.ts). */
export type ThresholdProblem =
  | { code: 'empty' }
  | { code: 'noOperator' }
  | { code: 'singleEquals'; metric: string }
  | { code: 'noMetric'; operator: string }
  | { code: 'unknownMetric'; name: string }
  | { code: 'percentileNotRecorded'; name: string; percentile: string }
  | { code: 'minNotRecorded'; name: string }
  | { code: 'whichRate'; name: string }
  | { code: 'noValue'; metric: MetricName; operator: Operator }
  | { code: 'notAValue'; metric: MetricName; operator: Operator; value: string; kind: MetricKind }
  | { code: 'shareAboveWhole'; metric: MetricName; operator: Operator; value: string };

export type ParsedThreshold = { ok: true; threshold: Threshold } | { ok: false; problem: ThresholdProblem };

/** The first comparison in the text: the metric before it, the value after (k6's === is ==; a
 *  lone = or a reversed =< is caught to be said). */
const COMPARISON = /^(.*?)(===|==|!=|<=|>=|=<|=>|<|>|=)(.*)$/s;
/** A plain number, then an optional unit. */
const VALUE = /^(\d+(?:\.\d*)?|\.\d+)\s*([a-z%/]*)$/i;

/** Reads one expression: a threshold, or what is wrong with it. */
export function parseThreshold(text: string, alias: string | null = null): ParsedThreshold {
  const expression = text.trim();
  const fail = (problem: ThresholdProblem): ParsedThreshold => ({ ok: false, problem });
  if (expression === '') return fail({ code: 'empty' });
  const match = COMPARISON.exec(expression);
  if (!match) return fail({ code: 'noOperator' });
  const [, left, written, right] = match as unknown as [string, string, string, string];
  const name = left.trim();
  if (written === '=' || written === '=<' || written === '=>') return fail({ code: 'singleEquals', metric: name });
  const operator = (written === '===' ? '==' : written) as Operator;
  if (name === '') return fail({ code: 'noMetric', operator });
  const named = metricOf(name);
  if ('code' in named) return fail(named);
  const { metric } = named;
  const valueText = right.trim();
  if (valueText === '') return fail({ code: 'noValue', metric, operator });
  const value = limitOf(METRICS[metric], valueText);
  if (value === 'shareAboveWhole') return fail({ code: 'shareAboveWhole', metric, operator, value: valueText });
  if (value === null) return fail({ code: 'notAValue', metric, operator, value: valueText, kind: METRICS[metric] });
  return { ok: true, threshold: { expression, alias, metric, operator, limit: value.limit, asShare: value.asShare } };
}

/** A fraction as a percentage without float noise: 0.007 is 0.7, not 0.7000000000000001. */
export const percentOf = (fraction: number) => Number((fraction * 100).toPrecision(12));
/** A percentage as a fraction, likewise: 99.9% is 0.999, not 0.9990000000000001. */
const fractionOf = (percent: number) => Number((percent / 100).toPrecision(12));

/**
 * The threshold an old flag stands for, read by the same parser: --max-p99-ms 250 is
 * 'p99<=250ms', --min-delivery 0.999 is 'delivery>=99.9%', --allow-loss 0.001 is 'loss<=0.1%'.
 * Their values are checked by the flags' own checks first (cli/args.ts); a value those pass is
 * always a valid limit here.
 */
export const ALIASES = {
  'max-p99-ms': (value: number) => `p99<=${value}ms`,
  'min-delivery': (ratio: number) => `delivery>=${percentOf(ratio)}%`,
  'allow-loss': (ratio: number) => `loss<=${percentOf(ratio)}%`,
} as const;
export type AliasFlag = keyof typeof ALIASES;

export function aliasThreshold(flag: AliasFlag, value: number): Threshold {
  const parsed = parseThreshold(ALIASES[flag](value), `--${flag} ${value}`);
  if (!parsed.ok) throw new Error(`--${flag} ${value} is not a valid limit: ${parsed.problem.code}`);
  return parsed.threshold;
}

/** A metric's own name, k6's p(N), avg or med, in any case; or why the name is not one. */
function metricOf(name: string): { metric: MetricName } | ThresholdProblem {
  const lower = name.toLowerCase().replace(/\s+/g, '');
  const byName = METRIC_NAMES.find((metric) => metric.toLowerCase() === lower) ?? K6_NAMES[lower];
  if (byName) return { metric: byName };
  // p99, p(99), p(99.90): a percentile, recorded or not.
  const percentile = /^p\(?(\d+(?:\.\d+)?)\)?$/.exec(lower)?.[1];
  if (percentile !== undefined && (lower.includes('(') === lower.endsWith(')'))) {
    const n = String(Number(percentile));
    const recorded = RECORDED_PERCENTILES[n];
    if (recorded) return { metric: recorded };
    if (Number(n) > 0 && Number(n) < 100) return { code: 'percentileNotRecorded', name, percentile: n };
  }
  if (lower === 'min') return { code: 'minNotRecorded', name };
  if (lower === 'msg/s' || lower === 'rate' || lower === 'msgps') return { code: 'whichRate', name };
  return { code: 'unknownMetric', name };
}

/** The limit in the kind's base unit; null when the text is not a value of that kind. */
function limitOf(kind: MetricKind, text: string): { limit: number; asShare: boolean } | 'shareAboveWhole' | null {
  const match = VALUE.exec(text);
  if (!match) return null;
  const number = Number(match[1]);
  const unit = match[2]!.toLowerCase();
  if (!Number.isFinite(number)) return null;
  switch (kind) {
    case 'time':
      if (unit === '' || unit === 'ms') return { limit: number, asShare: false };
      return unit === 's' ? { limit: number * 1_000, asShare: false } : null;
    case 'share':
      if (unit === '%') return number > 100 ? 'shareAboveWhole' : { limit: fractionOf(number), asShare: true };
      if (unit !== '') return null;
      return number > 1 ? 'shareAboveWhole' : { limit: number, asShare: true };
    case 'receptions':
    case 'connections':
      if (unit === '') return { limit: number, asShare: false };
      if (unit !== '%') return null;
      return number > 100 ? 'shareAboveWhole' : { limit: fractionOf(number), asShare: true };
    case 'rate':
      return unit === '' || unit === 'msg/s' ? { limit: number, asShare: false } : null;
  }
}
