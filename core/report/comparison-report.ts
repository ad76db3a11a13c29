/**
 * The comparison's part of the HTML report: its verdict with what each p99 rests on (the same
 * sentences as the page, core/compare/verdict.ts), and the runs side by side: the percentile chart,
 * p99 and messages received per second on one clock and one x range, the table with the winner of
 * each column, and why a run failed. Pure.
 */
import { comparisonTable, sharedLoad, evidenceLine, failureOf, verdictTone, EVIDENCE_NOTE, type ComparedRun, type ComparisonVerdict } from '../compare/index.ts';
import { CURVE_PERCENTILES, ninesPosition, percentileCurve, overlay, onSameSeconds, p99Ms, wholeSecondsOfSending, escapeXml as esc, lineChartSvg, runColor, runLabels } from '../charts/index.ts';
import { CAUSE_LABELS, diagnosisLines } from '../diagnosis/index.ts';
import { formatCount } from '../format.ts';
import type { KeptRun } from '../history/index.ts';
import { REPORT_WORDS as W } from './words.ts';

/** The verdict paragraph and, under it, what each run's p99 rests on. */
export function comparisonVerdictHtml(verdict: ComparisonVerdict, labels: readonly string[]): string {
  if (!verdict.sentence) return '';
  const tone = verdictTone(verdict);
  const lines = verdict.evidence.map((e, i) => `<li>${esc(evidenceLine(labels[i]!, e))}</li>`).join('');
  return `<p class="verdict${tone ? ` ${tone}` : ''}" data-testid="report-verdict" data-kind="${verdict.kind}">${esc(verdict.sentence)}</p>` +
    (lines ? `\n<ul class="evidence" data-testid="report-evidence">${lines}</ul>\n<p class="muted">${esc(EVIDENCE_NOTE)}</p>` : '');
}

export function sideBySideHtml(runs: readonly KeptRun[]): string {
  const labels = runLabels(runs);
  const compared: ComparedRun[] = runs.map((run, i) => ({ label: labels[i]!, result: run.result }));
  const table = comparisonTable(compared);
  const curves = runs.map((run) => percentileCurve(run.result));
  const chart = lineChartSvg({
    title: 'Latency by percentile (whole run, from planned send time)',
    xLabel: 'percentile',
    yLabel: 'ms',
    xs: CURVE_PERCENTILES.map(ninesPosition),
    xTicks: [0, 90, 99, 99.9, 99.99, 100].map((p) => ({ value: ninesPosition(p), label: p === 100 ? 'max' : `${p}%` })),
    series: curves.map((curve, i) => ({ label: labels[i]!, color: runColor(i), values: curve.latencyMs })),
    width: 760,
  });
  const overlays = overlayCharts(runs, labels);
  const head = `<tr><th>run</th>${table.columns.map((c) => `<th title="${c.better} is better">${esc(c.label)}</th>`).join('')}</tr>`;
  const failed = runs.map((run) => failureOf(run.result));
  const cause = (i: number) => {
    const failure = failed[i];
    return failure ? `<span class="cause ${failure.side === 'service' || failure.side === 'setup' ? 'bad' : 'warn'}">${esc(CAUSE_LABELS[failure.cause])}</span>` : '';
  };
  const rows = table.rows
    .map((row, i) => `<tr><th><span class="swatch" style="background:${runColor(i)}"></span>${esc(row.label)}${cause(i)}</th>${row.cells.map((cell) => `<td${cell.winner ? ' class="win"' : ''}>${esc(cell.text)}</td>`).join('')}</tr>`)
    .join('');
  // A failed run's diagnosis in the runner's words ("Why (the service): …"), one line per run.
  const failures = failed.map((failure, i) => (failure ? `<li><strong>${esc(labels[i]!)}:</strong> ${esc(diagnosisLines(failure, 0)[0]!)}</li>` : '')).join('');
  const winners = table.winners
    .map((w) => `<li><strong>${esc(w.label)}</strong> (${w.better} is better): ${w.tie ? 'a tie' : w.tooFew !== null ? `too few messages (${formatCount(w.tooFew)} a run needed)` : w.winners.length === 0 ? 'no figure' : esc(w.winners.join(', '))}</li>`)
    .join('');
  const load = sharedLoad(runs.map((run) => run.result));
  return `<section>
<h2>${W.sideBySide()}</h2>
<p>${load === null ? W.loadsDiffer() : W.sameLoad({ load: esc(load) })}</p>
<figure>${chart}</figure>
<div class="charts">${overlays.map((svg) => `<figure>${svg}</figure>`).join('')}</div>
<div class="scroll" tabindex="0" role="region" aria-label="${W.sideBySideTable()}"><table class="compare">${head}${rows}</table></div>
<p class="muted">${W.bestNote()}</p>
${failures ? `<h3>${W.whyFailed()}</h3>\n<ul class="failures">${failures}</ul>` : ''}
<h3>${W.winners()}</h3>
<ul class="winners">${winners}</ul>
</section>`;
}

/** p99 and messages received per second, one line per run, on the send clock and one x range. */
function overlayCharts(runs: readonly KeptRun[], labels: readonly string[]): string[] {
  const results = runs.map((run) => run.result);
  const [p99, rate] = onSameSeconds([overlay(results, p99Ms), overlay(results.map(wholeSecondsOfSending), (p) => p.received)]);
  return [
    { title: 'p99 latency per second', yLabel: 'ms', data: p99! },
    { title: 'Messages received per second', yLabel: 'msg/s', data: rate! },
  ].map(({ title, yLabel, data }) =>
    lineChartSvg({ title, xLabel: 's from the first planned send', yLabel, xs: data.seconds, series: data.values.map((values, i) => ({ label: labels[i]!, color: runColor(i), values })) }),
  );
}
