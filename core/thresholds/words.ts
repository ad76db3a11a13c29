/**
 * The words of thresholds: what is wrong with an expression and the grammar's form to write
 * instead (quoting only the expression, which holds no secret), each threshold's line in the
 * summary (✓ / ✗, as k6 prints them), the sentence of a broken one, and the loss rule's. The
 * grammar (grammar.ts) and the checks (check.ts, loss-rule.ts) return codes and values; only
 * this file writes prose, so the runner's summary, its exit reasons and its JSON agree. Pure.
 */
import { formatCount, formatMs, formatShare } from '../format.ts';
import type { ThresholdCheck } from './check.ts';
import type { Operator, ThresholdProblem } from './grammar.ts';
import { METRICS, type MetricKind, type MetricName, type Unmeasured } from './metrics.ts';

/** A limit to show in the form the grammar wants, per kind of metric. */
const EXAMPLE_VALUE: Record<MetricKind, string> = { time: '250ms', share: '99.9%', receptions: '0', connections: '0', rate: '1000' };
const KIND_WORDS: Record<MetricKind, string> = { time: 'a time', share: 'a share', receptions: 'a count or a share', connections: 'a count or a share', rate: 'a rate' };
/** What a kind's value may be written as, said after the example. */
const KIND_FORMS: Record<MetricKind, string> = {
  time: 'ms, or s; a plain number is ms',
  share: 'a percentage, or a fraction from 0 to 1',
  receptions: 'a plain count, or with % a share of the planned receptions',
  connections: 'a plain count, or with % a share of the planned connections',
  rate: 'messages a second',
};

/** "p50, p90, …" by kind, for the refusal of an unknown name. */
const metricsOfKind = (kinds: readonly MetricKind[]) => (Object.keys(METRICS) as MetricName[]).filter((m) => kinds.includes(METRICS[m])).join(', ');
const METRIC_LIST = `latency in ms ${metricsOfKind(['time'])}; shares ${metricsOfKind(['share'])}; counts or shares ${metricsOfKind(['receptions', 'connections'])}; rates ${metricsOfKind(['rate'])}`;

/** "--threshold 'p99<fast': …": the expression quoted as given. */
const given = (text: string) => `--threshold '${text}'`;

/** How a broken comparison reads after the figure: "above the limit of 250 ms". */
const RELATION: Record<Operator, (limit: string, expression: string) => string> = {
  '<': (limit) => `not below ${limit}`,
  '<=': (limit) => `above the limit of ${limit}`,
  '>': (limit) => `not above ${limit}`,
  '>=': (limit) => `below the minimum of ${limit}`,
  '==': (limit) => `not ${limit}`,
  '!=': (_limit, expression) => `which '${expression}' excludes`,
};

/** Who a figure is, at the head of its broken sentence. */
const LABELS: Record<MetricName, string> = {
  p50: 'p50',
  p90: 'p90',
  p99: 'p99',
  'p99.9': 'p99.9',
  max: 'Max latency',
  mean: 'Mean latency',
  delivery: 'Delivery',
  underOneSecond: 'Arrival in under 1 s',
  lost: 'Receptions lost',
  notSent: 'Receptions never sent',
  duplicated: 'Receptions duplicated',
  altered: 'Receptions altered',
  loss: 'Receptions lost, never sent or duplicated',
  connectionsFailed: 'Connections failed',
  'sent/s': 'The sent rate',
  'received/s': 'The received rate',
};

const UNMEASURED: Record<Unmeasured, (metric: string) => string> = {
  noneReceived: (metric) => `no message was received, so the run has no ${metric}`,
  nonePlanned: (metric) => `no reception was planned, so the run has no ${metric}`,
  notDrained: () => 'the run never drained (it was stopped or failed before its messages settled), so what was lost is unknown',
};
const UNMEASURED_NOTE: Record<Unmeasured, string> = { noneReceived: 'no message was received', nonePlanned: 'no reception was planned', notDrained: 'unknown: the run never drained' };

/** A limit as the grammar reads it back: "250 ms", "99.90%", "0", "1,000 msg/s". */
function limitText(check: Pick<ThresholdCheck, 'limit' | 'unit'>): string {
  const { limit, unit } = check;
  if (unit === 'ms') return `${limit} ms`;
  // Two decimals as the figures are shown ("99.90%"), more only when the limit has them.
  if (unit === '%') return `${Number.isInteger(Math.round(limit * 100 * 1e6) / 1e6) ? limit.toFixed(2) : String(limit)}%`;
  const number = limit.toLocaleString('en-US', { maximumFractionDigits: 6 });
  return unit === 'msg/s' ? `${number} msg/s` : number;
}

/** A measured figure as the summary shows figures: "12.3 ms", "99.95%" (floored), "3", "1,000 msg/s". */
function figureText(check: Pick<ThresholdCheck, 'measured' | 'unit'>): string {
  const { measured, unit } = check;
  if (measured === null) return '–';
  if (unit === 'ms') return formatMs(measured * 1_000);
  if (unit === '%') return formatShare(measured / 100);
  if (unit === 'msg/s') return `${measured < 100 ? measured.toFixed(1) : formatCount(measured)} msg/s`;
  return formatCount(measured);
}

/** "3 of 80 planned" for a count; "3.75% of 80 planned" for a share of one. */
const ofPlanned = (check: ThresholdCheck) => `${figureText(check)}${check.of === undefined ? '' : ` of ${formatCount(check.of)} planned`}`;

export const THRESHOLD_WORDS = {
  // What is wrong with an expression, and the grammar's form to write instead.
  empty: (p: { text: string }) => `${given(p.text)}: it is empty; write a metric, a comparison and a value, e.g. p99<250ms`,
  noOperator: (p: { text: string }) => `${given(p.text)}: there is no comparison; write one of < <= > >= == != between the metric and the value, e.g. p99<250ms`,
  singleEquals: (p: { text: string; metric: string }) => `${given(p.text)}: = is not a comparison; write ${p.metric || 'lost'}==0 for equal, or <= and >= with the < or > first`,
  noMetric: (p: { text: string; operator: string }) => `${given(p.text)}: there is no metric before ${p.operator}; write e.g. p99<250ms (the metrics: ${METRIC_LIST})`,
  unknownMetric: (p: { text: string; name: string }) => `${given(p.text)}: "${p.name}" is not a metric of the run (${METRIC_LIST}); write e.g. p99<250ms`,
  percentileNotRecorded: (p: { text: string; name: string; percentile: string }) => `${given(p.text)}: the run does not record p${p.percentile} ("${p.name}"): its latency percentiles are p50, p90, p99 and p99.9, with max and mean; write e.g. p99<250ms or p(99)<250`,
  minNotRecorded: (p: { text: string; name: string }) => `${given(p.text)}: the run does not record the least latency ("${p.name}"): its latency figures are p50, p90, p99, p99.9, max and mean; write e.g. p50<100ms`,
  whichRate: (p: { text: string; name: string }) => `${given(p.text)}: "${p.name}" does not say which messages; write sent/s (the clients' sends a second) or received/s (the receptions a second), e.g. received/s>=1000`,
  noValue: (p: { text: string; metric: MetricName; operator: Operator }) => `${given(p.text)}: there is no value after ${p.operator}; write ${p.metric}${p.operator}${EXAMPLE_VALUE[METRICS[p.metric]]} (${KIND_FORMS[METRICS[p.metric]]})`,
  notAValue: (p: { text: string; metric: MetricName; operator: Operator; value: string; kind: MetricKind }) => `${given(p.text)}: "${p.value}" is not ${KIND_WORDS[p.kind]}; write ${p.metric}${p.operator}${EXAMPLE_VALUE[p.kind]} (${KIND_FORMS[p.kind]})`,
  shareAboveWhole: (p: { text: string; metric: MetricName; operator: Operator; value: string }) => `${given(p.text)}: "${p.value}" is more than the whole: a share is 0 to 100%, or a fraction from 0 to 1; write ${p.metric}${p.operator}${METRICS[p.metric] === 'share' ? '99.9%' : '0.1%'}`,

  /** The summary's heading over the checks. */
  heading: () => 'Thresholds:',
  /** One check in the summary, as k6 prints them: "✓ 'p99<250ms' p99=12.3 ms". */
  line: (check: ThresholdCheck) => {
    const notes = [
      check.unmeasured ? UNMEASURED_NOTE[check.unmeasured] : check.of !== undefined && check.unit === '%' && METRICS[check.metric] !== 'share' ? `of ${formatCount(check.of)} planned` : null,
      check.alias ?? null,
    ].filter((note) => note !== null);
    return `  ${check.passed ? '✓' : '✗'} '${check.expression}' ${check.metric}=${figureText(check)}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`;
  },
  /** A broken threshold, said after "threshold broken: ": "p99 was 300.0 ms, above the limit of 250 ms." */
  broken: (check: ThresholdCheck) => {
    if (check.unmeasured) return `'${check.expression}': ${UNMEASURED[check.unmeasured](check.metric)}.`;
    const relation = RELATION[check.operator](limitText(check), check.expression);
    const kind = METRICS[check.metric];
    if (kind === 'receptions' || kind === 'connections') return `${LABELS[check.metric]}: ${ofPlanned(check)}, ${relation}.`;
    if (kind === 'share') return `${LABELS[check.metric]} was ${figureText(check)} of ${formatCount(check.of ?? 0)} planned receptions, ${relation}.`;
    return `${LABELS[check.metric]} was ${figureText(check)}, ${relation}.`;
  },

  /** The loss rule (loss-rule.ts): what did not arrive exactly once, and what was allowed. */
  lossParts: (p: { lost: number; notSent: number; duplicated: number }) => [
    ...(p.lost > 0 ? [`${formatCount(p.lost)} lost`] : []),
    ...(p.notSent > 0 ? [`${formatCount(p.notSent)} never sent`] : []),
    ...(p.duplicated > 0 ? [`${formatCount(p.duplicated)} duplicated`] : []),
  ].join(', '),
  lossBeyondAllowance: (p: { parts: string; share: number; planned: number; allowLossRatio: number }) => {
    const allowed = p.allowLossRatio > 0 ? `more than --allow-loss ${p.allowLossRatio} (${formatShare(p.allowLossRatio)})` : 'and no loss was allowed';
    return `${p.parts}: ${formatShare(p.share)} of ${formatCount(p.planned)} planned receptions did not arrive exactly once, ${allowed}. ` +
      'A run that loses messages is not a pass, with or without --no-guide-rule; give --allow-loss <ratio of planned> to accept a known share.';
  },
} as const;

/** A problem's sentence, with the expression as given. */
export function thresholdProblemText(text: string, problem: ThresholdProblem): string {
  switch (problem.code) {
    case 'empty': return THRESHOLD_WORDS.empty({ text });
    case 'noOperator': return THRESHOLD_WORDS.noOperator({ text });
    case 'singleEquals': return THRESHOLD_WORDS.singleEquals({ text, ...problem });
    case 'noMetric': return THRESHOLD_WORDS.noMetric({ text, ...problem });
    case 'unknownMetric': return THRESHOLD_WORDS.unknownMetric({ text, ...problem });
    case 'percentileNotRecorded': return THRESHOLD_WORDS.percentileNotRecorded({ text, ...problem });
    case 'minNotRecorded': return THRESHOLD_WORDS.minNotRecorded({ text, ...problem });
    case 'whichRate': return THRESHOLD_WORDS.whichRate({ text, ...problem });
    case 'noValue': return THRESHOLD_WORDS.noValue({ text, ...problem });
    case 'notAValue': return THRESHOLD_WORDS.notAValue({ text, ...problem });
    case 'shareAboveWhole': return THRESHOLD_WORDS.shareAboveWhole({ text, ...problem });
  }
}

/** The summary's block: the heading and one line per check; none without thresholds. */
export function thresholdLines(checks: readonly ThresholdCheck[]): string[] {
  return checks.length === 0 ? [] : [THRESHOLD_WORDS.heading(), ...checks.map(THRESHOLD_WORDS.line)];
}
