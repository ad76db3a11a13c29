// What charts draw, for the live page (uPlot) and the report (inline SVG) alike: columns and
// min/max decimation, axes and ticks, the SVG line chart, runs overlaid, and each run's colour and
// label (run-legend.ts), and when a live chart draws (on-screen.ts). Pure.
export { ChartColumns, type Columns, type Pick } from './columns.ts';
export { ChartDecimator } from './decimate.ts';
export { OnScreenDraw } from './on-screen.ts';
export { CURVE_PERCENTILES, ninesPosition, percentileCurve, type PercentileCurve } from './percentile-curve.ts';
export { runColor, runLabels } from './run-legend.ts';
export {
  cutAfter,
  formatChartValue,
  lastWholeRateIndex,
  latestValue,
  needsOwnAxis,
  niceStep,
  roundTicks,
  SECOND_STEPS,
} from './scale.ts';
export { onSameSeconds, overlay, p99Ms, wholeSecondsOfSending } from './series-overlay.ts';
export { escapeXml, lineChartSvg } from './svg-chart.ts';
export {
  firstLossSec,
  formatSendClock,
  onSendClock,
  runMarkers,
  runRange,
  sendOffsetSec,
  sharedRange,
} from './time-axis.ts';
