// What charts draw, for the live page (uPlot) and the report (inline SVG) alike: columns and
// min/max decimation, axes and ticks, the SVG line chart, runs overlaid, and each run's colour and
// label (run-legend.ts), and when a live chart draws (on-screen.ts). Pure.
export * from './columns.ts';
export * from './decimate.ts';
export * from './on-screen.ts';
export * from './percentile-curve.ts';
export * from './run-legend.ts';
export * from './scale.ts';
export * from './series-overlay.ts';
export * from './svg-chart.ts';
export * from './time-axis.ts';
