/**
 * The figures a threshold can name: what the run's document already holds, under its own names
 * (latency's p50Us … meanUs, the verdict's delivery and share under 1 s, the fates' lost and
 * never sent, the totals' duplicated, altered and failed connections, the points' rates), each
 * read from a finished RunResult. A figure the document lacks (p95, the least latency) is not a
 * metric: the grammar refuses it by name (grammar.ts). Pure.
 */
import { notSentOf } from '../accounting/index.ts';
import { runRates } from '../execution/index.ts';
import { type RunResult } from '../result/index.ts';

/**
 * What a metric measures, which says the units its limit may be written in:
 * - time: a latency in ms (plain numbers are ms, as in k6; `s` too);
 * - share: a fraction of the planned receptions (`%`, or a plain fraction 0..1 as k6's rates);
 * - receptions, connections: a count (plain), or with `%` a share of those planned;
 * - rate: messages a second (plain, or `msg/s`).
 */
export type MetricKind = 'time' | 'share' | 'receptions' | 'connections' | 'rate';

/** Every metric, in the order the help and the errors list them, with its kind. */
export const METRICS = {
  p50: 'time',
  p90: 'time',
  p99: 'time',
  'p99.9': 'time',
  max: 'time',
  mean: 'time',
  delivery: 'share',
  underOneSecond: 'share',
  lost: 'receptions',
  notSent: 'receptions',
  duplicated: 'receptions',
  altered: 'receptions',
  loss: 'receptions',
  connectionsFailed: 'connections',
  'sent/s': 'rate',
  'received/s': 'rate',
} as const satisfies Record<string, MetricKind>;

export type MetricName = keyof typeof METRICS;
export const METRIC_NAMES = Object.keys(METRICS) as MetricName[];

/** The latency percentiles the run records (core/latency LatencySummary), as k6's p(N) names them. */
export const RECORDED_PERCENTILES: Readonly<Record<string, MetricName>> = { '50': 'p50', '90': 'p90', '99': 'p99', '99.9': 'p99.9' };

/** k6's names for the same figures: `avg` and `med` (p(N) is read by the grammar). */
export const K6_NAMES: Readonly<Record<string, MetricName>> = { avg: 'mean', med: 'p50' };

const LATENCY_FIGURE = { p50: 'p50Us', p90: 'p90Us', p99: 'p99Us', 'p99.9': 'p999Us', max: 'maxUs', mean: 'meanUs' } as const;

/** Why a figure is unknown in this run (it is never read as 0). */
export type Unmeasured = 'noneReceived' | 'nonePlanned' | 'notDrained';

/** A figure of the run: its value (ms, a fraction, a count or msg/s) and, for counts and shares,
 *  what it is of (planned receptions or connections); or why it is unknown. */
export interface Measured {
  value: number | null;
  of: number | null;
  unmeasured: Unmeasured | null;
}

const known = (value: number, of: number | null = null): Measured => ({ value, of, unmeasured: null });
const unknown = (why: Unmeasured, of: number | null = null): Measured => ({ value: null, of, unmeasured: why });

/** The metric's figure in the run, in its kind's base unit (ms, a fraction 0..1, a count, msg/s). */
export function measure(result: RunResult, metric: MetricName): Measured {
  const { fates, totals } = result;
  switch (metric) {
    case 'p50': case 'p90': case 'p99': case 'p99.9': case 'max': case 'mean': {
      const us = result.latency.count > 0 ? result.latency[LATENCY_FIGURE[metric]] : null;
      return us === null ? unknown('noneReceived') : known(us / 1_000);
    }
    case 'delivery': return result.verdict.delivery === null ? unknown('nonePlanned', fates.planned) : known(result.verdict.delivery, fates.planned);
    case 'underOneSecond': return result.verdict.share === null ? unknown('nonePlanned', fates.planned) : known(result.verdict.share, fates.planned);
    // Lost is what is left once the drain is over: a run that never drained has no known loss.
    case 'lost': return fates.lost === null ? unknown('notDrained', fates.planned) : known(fates.lost, fates.planned);
    case 'notSent': return known(notSentOf(fates), fates.planned);
    case 'duplicated': return known(totals.duplicated, fates.planned);
    case 'altered': return known(totals.altered, fates.planned);
    // The loss rule's figure (loss-rule.ts): every planned reception that did not arrive exactly once.
    case 'loss': return fates.lost === null ? unknown('notDrained', fates.planned) : known(fates.lost + notSentOf(fates) + totals.duplicated, fates.planned);
    case 'connectionsFailed': return known(totals.connectionsFailed, result.config.connections);
    // The whole run's mean over its seconds of sending, as the comparison reads it (core/execution recent-rates.ts).
    case 'sent/s': return known(runRates(result).inboundPerSec);
    case 'received/s': return known(runRates(result).outboundPerSec);
  }
}
