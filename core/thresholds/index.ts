// Thresholds: k6's small grammar over the figures a run's document holds ('p99<250ms',
// 'delivery>=99.9%', 'lost==0'), parsed in one place, judged against a finished run, and worded
// for the runner's summary and exit reasons; and the loss rule they may stand in for. Pure.
export { ALIASES, aliasThreshold, OPERATORS, parseThreshold, type AliasFlag, type Operator, type ParsedThreshold, type Threshold, type ThresholdProblem } from './grammar.ts';
export { METRICS, METRIC_NAMES, type MetricKind, type MetricName, type Unmeasured } from './metrics.ts';
export { checkThreshold, checkThresholds, holds, type ThresholdCheck, type ThresholdUnit } from './check.ts';
export { lossBeyondAllowance, lossIsBounded, lossRuleReason } from './loss-rule.ts';
export { THRESHOLD_WORDS, thresholdLines, thresholdProblemText } from './words.ts';
