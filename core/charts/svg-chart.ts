/**
 * A small line chart as standalone SVG text, for reports that must open offline and without
 * scripts. Zero-based y axis (like the dashboard's charts), gaps for missing values. Pure.
 */
import { niceStep, roundTicks, secondTicks } from './scale.ts';

export interface SvgSeries {
  label: string;
  color: string;
  /** One value per x; null leaves a gap. */
  values: readonly (number | null)[];
}

export interface SvgChartSpec {
  title: string;
  xLabel: string;
  yLabel: string;
  xs: readonly number[];
  series: readonly SvgSeries[];
  /** Labelled x ticks; default five evenly spaced numbers. */
  xTicks?: readonly { value: number; label: string }[];
  /** Pixels. Defaults 640 x 280. */
  width?: number;
  height?: number;
}

const MARGIN = { left: 64, right: 16, top: 28, bottom: 44 };
const LEGEND_ROW_PX = 18;
/** Axis, tick and legend text, px: never smaller than the page's 12 px. */
const TEXT_PX = 12;
/** A generous width per legend character at TEXT_PX: entries never overprint each other. */
const LEGEND_CHAR_PX = 7.5;
const LEGEND_SWATCH_PX = 20;
const LEGEND_GAP_PX = 16;

export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

export function lineChartSvg(spec: SvgChartSpec): string {
  const width = spec.width ?? 640;
  const plotHeight = (spec.height ?? 280) - MARGIN.top - MARGIN.bottom;
  const plotWidth = width - MARGIN.left - MARGIN.right;
  const legend = legendLayout(spec.series.map((s) => s.label), plotWidth);
  const legendRows = legend.length === 0 ? 0 : Math.max(...legend.map((l) => l.row)) + 1;
  const height = MARGIN.top + plotHeight + MARGIN.bottom + legendRows * LEGEND_ROW_PX;
  const xMin = Math.min(...spec.xs, 0);
  const xMax = Math.max(...spec.xs, xMin + 1);
  const yValues = spec.series.flatMap((s) => s.values.filter((v): v is number => v !== null && Number.isFinite(v)));
  const yTicks = roundTicks(Math.max(0, ...yValues));
  const yMax = yTicks.at(-1)!;
  const x = (value: number) => MARGIN.left + ((value - xMin) / (xMax - xMin)) * plotWidth;
  const y = (value: number) => MARGIN.top + plotHeight - (value / yMax) * plotHeight;

  const parts: string[] = [];
  parts.push(`<text x="${MARGIN.left}" y="18" font-weight="600">${escapeXml(spec.title)}</text>`);
  for (const value of yTicks) {
    parts.push(`<line x1="${MARGIN.left}" x2="${MARGIN.left + plotWidth}" y1="${y(value).toFixed(1)}" y2="${y(value).toFixed(1)}" stroke="#8884"/>`);
    parts.push(`<text x="${MARGIN.left - 6}" y="${(y(value) + 4).toFixed(1)}" text-anchor="end" font-size="${TEXT_PX}">${escapeXml(shortNumber(value))}</text>`);
  }
  // Seconds tick on whole, round steps (never 3.25 s); anything else (seconds on the send clock,
  // which fall between whole ones) on round steps too, never 1.8 s.
  const wholeXs = spec.xs.every((v) => Number.isInteger(v));
  const xTicks = spec.xTicks ?? (wholeXs ? secondTicks(xMin, xMax) : roundSteps(xMin, xMax)).map((v) => ({ value: v, label: shortNumber(v) }));
  for (const tick of xTicks) {
    parts.push(`<text x="${x(tick.value).toFixed(1)}" y="${MARGIN.top + plotHeight + 16}" text-anchor="middle" font-size="${TEXT_PX}">${escapeXml(tick.label)}</text>`);
  }
  parts.push(`<text x="${MARGIN.left + plotWidth / 2}" y="${MARGIN.top + plotHeight + 34}" text-anchor="middle" font-size="${TEXT_PX + 1}">${escapeXml(spec.xLabel)}</text>`);
  parts.push(`<text transform="translate(14 ${MARGIN.top + plotHeight / 2}) rotate(-90)" text-anchor="middle" font-size="${TEXT_PX + 1}">${escapeXml(spec.yLabel)}</text>`);
  for (const series of spec.series) {
    parts.push(`<path d="${pathData(spec.xs, series.values, x, y)}" fill="none" stroke="${escapeXml(series.color)}" stroke-width="2"><title>${escapeXml(series.label)}</title></path>`);
  }
  spec.series.forEach((series, i) => {
    const lx = MARGIN.left + legend[i]!.x;
    const ly = MARGIN.top + plotHeight + MARGIN.bottom + legend[i]!.row * LEGEND_ROW_PX + 4;
    parts.push(`<rect x="${lx.toFixed(1)}" y="${ly - 9}" width="14" height="4" fill="${escapeXml(series.color)}"/>`);
    parts.push(`<text x="${(lx + 20).toFixed(1)}" y="${ly - 3}" font-size="${TEXT_PX}">${escapeXml(series.label)}</text>`);
  });
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" ` +
    `aria-label="${escapeXml(spec.title)}" font-family="system-ui, sans-serif" fill="currentColor">${parts.join('')}</svg>`
  );
}

/** Multiples of a round step (1, 2, 2.5 or 5 times a power of ten) from `min` to `max`, about five. */
function roundSteps(min: number, max: number): number[] {
  const step = niceStep((max - min) / 5);
  const ticks: number[] = [];
  for (let t = Math.ceil(min / step - 1e-9) * step; t <= max + 1e-9; t += step) ticks.push(Math.round(t / step) * step || 0);
  return ticks;
}

/** Legend entries flowed left to right, a new row when the next would pass the plot's width. */
function legendLayout(labels: readonly string[], rowWidth: number): { x: number; row: number }[] {
  let x = 0;
  let row = 0;
  return labels.map((label) => {
    const entryWidth = LEGEND_SWATCH_PX + label.length * LEGEND_CHAR_PX;
    if (x > 0 && x + entryWidth > rowWidth) {
      x = 0;
      row++;
    }
    const at = { x, row };
    x += entryWidth + LEGEND_GAP_PX;
    return at;
  });
}

/** "M x y L x y ..." with a new "M" after every gap. */
function pathData(xs: readonly number[], values: readonly (number | null)[], x: (v: number) => number, y: (v: number) => number): string {
  let d = '';
  let drawing = false;
  xs.forEach((xv, i) => {
    const value = values[i];
    if (value === null || value === undefined || !Number.isFinite(value)) {
      drawing = false;
      return;
    }
    d += `${drawing ? 'L' : 'M'}${x(xv).toFixed(1)} ${y(value).toFixed(1)} `;
    drawing = true;
  });
  return d.trim();
}

/** The next 1, 2 or 5 times a power of ten: round axis ends. */
export function niceCeiling(value: number): number {
  if (!(value > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

function shortNumber(value: number): string {
  return value.toLocaleString('en-US', { maximumFractionDigits: value < 10 ? 2 : 0 });
}
