/**
 * A capacity search for spreadsheets and reports: one CSV row per step, and an HTML section (inline
 * SVG step charts, the answer in the stage's colour, every step) for the self-contained
 * report. A search ended by a fault says so in red with its headline, what to do (faultNote) and
 * the cause at its step, never "Held". Pure.
 */
import { formatCount, formatMs, formatShare } from '../format.ts';
import { escapeXml as esc, lineChartSvg, roundTicks } from '../charts/index.ts';
import { REQUIRED_SHARE } from '../outcome/index.ts';
import { answerLines, heldFigure, loadText } from './answer.ts';
import { loadChartData } from './step-chart.ts';
import { type CapacityResult, type CapacityStep } from './capacity-result.ts';
import { RAMP_UNITS } from './settings.ts';
import { limitedByText } from './step-judge.ts';
import { capacityStage } from './stage.ts';
import { CAPACITY_WORDS as W } from './words.ts';
import { CAUSE_LABELS } from '../diagnosis/index.ts';

const CSV_COLUMNS = [
  ['step', (s) => s.index],
  ['phase', (s) => s.phase],
  ['load', (s) => s.load],
  ['connections', (s) => s.connections],
  ['send_interval_ms', (s) => s.sendIntervalMs],
  ['planned_sends_per_s', (s) => s.plannedSendsPerSec.toFixed(1)],
  ['sent_per_s', (s) => s.sentPerSec.toFixed(1)],
  ['received_per_s', (s) => s.receivedPerSec.toFixed(1)],
  ['offered_per_s', (s) => (s.offeredPerSec === undefined ? '' : s.offeredPerSec.toFixed(1))],
  ['held_per_s', (s) => s.heldPerSec.toFixed(1)],
  ['connections_opened', (s) => s.connectionsOpened],
  ['planned', (s) => s.fates.planned],
  ['under_1s', (s) => s.fates.underOneSecond],
  ['lost', (s) => s.fates.lost ?? ''],
  ['share_under_1s', (s) => s.verdict.share ?? ''],
  ['delivery', (s) => s.verdict.delivery ?? ''],
  ['p50_ms', (s) => (s.latency.count === 0 || s.latency.p50Us === null ? '' : (s.latency.p50Us / 1_000).toFixed(3))],
  ['p99_ms', (s) => (s.latency.count === 0 || s.latency.p99Us === null ? '' : (s.latency.p99Us / 1_000).toFixed(3))],
  ['event_loop_lag_ms', (s) => s.health.maxEventLoopLagMs.toFixed(1)],
  ['missed_slots', (s) => s.health.missedSlots],
  ['outcome', (s) => s.outcome.kind],
  ['held', (s) => (s.judgement.passed === null ? '' : String(s.judgement.passed))],
  ['limited_by', (s) => s.judgement.limitedBy ?? ''],
  ['why', (s) => (s.judgement.passed === false ? s.judgement.reasons[0] ?? '' : '')],
] as const satisfies readonly (readonly [string, (s: CapacityStep) => string | number])[];

export function capacityCsv(result: CapacityResult): string {
  const quote = (value: string | number) => (typeof value === 'string' && /[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : String(value));
  const rows = result.steps.map((step) => CSV_COLUMNS.map(([, pick]) => quote(pick(step))).join(','));
  return [CSV_COLUMNS.map(([name]) => name).join(','), ...rows].join('\n') + '\n';
}

/**
 * The step charts as inline SVG, one unit per axis: p99 by load (ms, with the guide's 1 s) and the
 * share under 1 s by load (%, with the guide's 99%), on round load ticks.
 */
export function stepChartsSvg(result: CapacityResult): string[] {
  const data = loadChartData(result);
  const unit = RAMP_UNITS[result.settings.ramp];
  const byLoad = [...result.steps].sort((a, b) => loadOf(result, a) - loadOf(result, b) || a.index - b.index);
  const xTicks = roundTicks(data.xMax).filter((v) => v <= data.xMax).map((value) => ({ value, label: formatCount(value) }));
  // The axis's end as the page's chart draws it: a point at 0 load is never drawn, so the x range
  // is set by a gap-only series at 0 and at the axis's end.
  const xs = [0, ...byLoad.map((s) => loadOf(result, s)), data.xMax];
  const gapped = (values: (number | null)[]) => [null, ...values, null];
  const guide = (value: number) => xs.map(() => value);
  return [
    lineChartSvg({
      title: `p99 by load (${unit})${data.held ? `: ${data.held.label}` : ''}`,
      xLabel: `load (${unit})`,
      yLabel: 'p99 (ms)',
      xs,
      xTicks,
      series: [
        { label: 'p99 of a step (ms)', color: '#e8590c', values: gapped(byLoad.map((s) => (s.latency.count === 0 || s.latency.p99Us === null ? null : s.latency.p99Us / 1_000))) },
        { label: "the guide's 1 s", color: '#c92a2a', values: guide(1_000) },
      ],
      width: 760,
    }),
    lineChartSvg({
      title: `Share of planned receptions under 1 s by load (${unit})`,
      xLabel: `load (${unit})`,
      yLabel: 'under 1 s (%)',
      xs,
      xTicks,
      series: [
        { label: 'under 1 s (%)', color: '#2f9e44', values: gapped(byLoad.map((s) => (s.verdict.share === null ? null : s.verdict.share * 100))) },
        { label: "the guide's 99%", color: '#c92a2a', values: guide(REQUIRED_SHARE * 100) },
      ],
      width: 760,
    }),
  ];
}

/** A step's load on the chart's axis: its planned sends per second, or its connections. */
function loadOf(result: CapacityResult, step: CapacityStep): number {
  return result.settings.ramp === 'rate' ? step.plannedSendsPerSec : step.connections;
}

/** The report's title: the page's headline (the stage's, core/capacity/stage.ts). */
export function capacityReportTitle(result: CapacityResult): string {
  return `Capacity search: ${capacityStage(result).title}`;
}

/**
 * The search's part of the report, answer first in the page's sentences (the report's title is
 * the stage's headline, capacityReportTitle): where it broke, then the card's lines, the charts,
 * and every step in a table that wraps its words rather than run past the page.
 */
export function capacitySection(result: CapacityResult): string {
  const stage = capacityStage(result);
  const lines = answerLines(result);
  const { finding } = result;
  const faultAt = finding.kind === 'fault' && finding.cause ? { step: finding.brokeStep, label: CAUSE_LABELS[finding.cause] } : null;
  const phaseNote = { ramp: '', bisect: ' (bisect)', confirm: ' (run again)' } as const;
  const rows = result.steps
    .map((s) => {
      const fault = faultAt?.step === s.index ? faultAt.label : null;
      const tone = fault || s.judgement.passed === false ? 'bad' : s.judgement.passed === true ? 'good' : 'warn';
      const word = fault ? `fault: ${fault}` : s.judgement.passed === true ? 'held' : s.judgement.passed === false ? `broke (${limitedByText(s.judgement.limitedBy)})` : 'not judged';
      const why = s.judgement.passed === true ? '' : s.judgement.reasons[0] ?? '';
      return `<tr><td>${s.index}${phaseNote[s.phase] ?? ''}</td><td class="wrap">${esc(loadText(result, s))}</td><td>${formatCount(heldFigure(s))}</td>` +
        `<td>${s.latency.count > 0 ? esc(formatMs(s.latency.p99Us)) : '–'}</td><td>${s.verdict.share === null ? '–' : esc(formatShare(s.verdict.share))}</td>` +
        `<td>${s.verdict.delivery === null ? '–' : esc(formatShare(s.verdict.delivery))}</td><td class="wrap">lag ${formatCount(s.health.maxEventLoopLagMs)} ms, missed ${formatCount(s.health.missedSlots)}</td>` +
        `<td class="wrap"><span class="${tone}">${esc(word)}</span>${why ? `<span class="why">${esc(why)}</span>` : ''}</td></tr>`;
    })
    .join('');
  const tone = stage.tone === 'neutral' ? '' : ` ${stage.tone}`;
  return `<section class="capacity">
<p class="verdict${tone}" data-tone="${stage.tone}" data-testid="report-capacity-broke">${esc(stage.broke || lines[0]!)}</p>
${lines.map((line) => `<p>${esc(line)}</p>`).join('\n')}
<h2>Capacity search (${esc(result.settings.ramp)} ramp)</h2>
<div class="charts">${stepChartsSvg(result).map((svg) => `<figure>${svg}</figure>`).join('')}</div>
<div class="scroll" tabindex="0" role="region" aria-label="${W.stepsTable()}"><table class="steps"><tr><th>step</th><th>load</th><th>held msg/s</th><th>p99</th><th>under 1 s</th><th>delivery</th><th>client health</th><th>verdict</th></tr>${rows}</table></div>
<p class="muted">${esc(W.stepsNote(result.settings))}</p>
</section>`;
}
