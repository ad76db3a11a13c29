/**
 * A capacity search for spreadsheets and reports: one CSV row per step, and an HTML section (an
 * inline SVG step chart, the answer in the stage's colour, every step) for the self-contained
 * report. A search ended by a fault says so in red with its headline, what to do (faultNote) and
 * the cause at its step, never "Held". Pure.
 */
import { formatCount, formatMs, formatShare } from '../format.ts';
import { escapeXml as esc, lineChartSvg } from '../charts/index.ts';
import { answerLines, loadText } from './answer.ts';
import { type CapacityResult, type CapacityStep } from './capacity-result.ts';
import { RAMP_UNITS } from './settings.ts';
import { limitedByText } from './step-judge.ts';
import { capacityStage } from './stage.ts';
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

/** Load per step against p99 and delivery, as inline SVG. */
export function stepChartSvg(result: CapacityResult): string {
  const steps = [...result.steps].sort((a, b) => a.load - b.load);
  return lineChartSvg({
    title: `p99 and share under 1 s by load (${RAMP_UNITS[result.settings.ramp]})`,
    xLabel: RAMP_UNITS[result.settings.ramp],
    yLabel: 'ms / %',
    xs: steps.map((s) => s.load),
    series: [
      { label: 'p99 (ms)', color: '#1971c2', values: steps.map((s) => (s.latency.count === 0 || s.latency.p99Us === null ? null : s.latency.p99Us / 1_000)) },
      { label: 'under 1 s (%)', color: '#2f9e44', values: steps.map((s) => (s.verdict.share === null ? null : s.verdict.share * 100)) },
      { label: '1 s line (ms)', color: '#c92a2a', values: steps.map(() => 1_000) },
    ],
    width: 760,
  });
}

export function capacitySection(result: CapacityResult): string {
  const lines = answerLines(result);
  // The stage's one tone (stage.ts): red for a fault or nothing held, never green for a fault.
  const { tone: answerTone } = capacityStage(result);
  const { finding } = result;
  const faultAt = finding.kind === 'fault' && finding.cause ? { step: finding.brokeStep, label: CAUSE_LABELS[finding.cause] } : null;
  const rows = result.steps
    .map((s) => {
      const fault = faultAt?.step === s.index ? faultAt.label : null;
      const tone = fault || s.judgement.passed === false ? 'bad' : s.judgement.passed === true ? 'good' : 'warn';
      const word = fault ? `fault: ${fault}` : s.judgement.passed === true ? 'held' : s.judgement.passed === false ? `broke (${limitedByText(s.judgement.limitedBy)})` : 'not judged';
      return `<tr><td>${s.index}</td><td>${esc(s.phase)}</td><td>${esc(loadText(result, s))}</td><td>${formatCount(s.heldPerSec)}</td>` +
        `<td>${s.latency.count > 0 ? esc(formatMs(s.latency.p99Us)) : '–'}</td><td>${s.verdict.share === null ? '–' : esc(formatShare(s.verdict.share))}</td>` +
        `<td>${s.verdict.delivery === null ? '–' : esc(formatShare(s.verdict.delivery))}</td><td>${formatCount(s.health.maxEventLoopLagMs)} ms, ${formatCount(s.health.missedSlots)} missed</td>` +
        `<td class="${tone}">${esc(word)}</td><td>${esc(s.judgement.reasons[0] ?? '')}</td></tr>`;
    })
    .join('');
  return `<section class="capacity">
<h2>Capacity search (${esc(result.settings.ramp)} ramp)</h2>
${lines.map((line, i) => `<p${i === 0 ? ` class="verdict${answerTone === 'neutral' ? '' : ` ${answerTone}`}" data-tone="${answerTone}"` : ''}>${esc(line)}</p>`).join('\n')}
<figure>${stepChartSvg(result)}</figure>
<div class="scroll"><table class="compare"><tr><th>step</th><th>phase</th><th>load</th><th>held msg/s</th><th>p99</th><th>under 1 s</th><th>delivery</th><th>client health</th><th>verdict</th><th>why</th></tr>${rows}</table></div>
<p class="muted">Each step held ${result.settings.stepSec} s, of which the first ${result.settings.settleSec} s were not judged; a step holds when at least 99% of its planned receptions arrived in under 1 s.</p>
</section>`;
}
