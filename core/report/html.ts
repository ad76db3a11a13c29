/**
 * A self-contained HTML report of one run or of runs side by side: one file, no scripts, no
 * external resources, so it opens offline and can be mailed to people who never run the tool.
 * Charts are inline SVG; the tables, verdicts and configurations are plain HTML. Pure.
 */
import { comparisonTable, sharedLoad, comparisonVerdict, failureOf, type ComparedRun } from '../compare/index.ts';
import { lastWholeRateIndex, CURVE_PERCENTILES, ninesPosition, percentileCurve, overlay, p99Ms, escapeXml as esc, lineChartSvg, runColor, runLabels } from '../charts/index.ts';
import type { RunResult } from '../run/index.ts';
import { CAUSE_LABELS, diagnosisLines } from '../diagnosis/index.ts';
import type { KeptRun } from '../history/index.ts';
import { runSection } from './run-report.ts';

export interface ReportInput {
  title: string;
  runs: readonly KeptRun[];
  generatedAt: Date;
  /** HTML sections shown before the runs, e.g. a capacity search's (core/capacity/capacity-export.ts). */
  sections?: readonly string[];
}

export function reportHtml(input: ReportInput): string {
  const { runs } = input;
  const verdict = runs.length > 1 ? comparisonVerdict(runs.map((run, i) => ({ label: runLabels(runs)[i]!, result: run.result }))) : null;
  const body = [
    `<h1>${esc(input.title)}</h1>`,
    // The answer first: which combination is best, and why the others are not.
    ...(verdict?.sentence ? [`<p class="verdict${verdict.passed ? ' good' : ''}" data-testid="report-verdict">${esc(verdict.sentence)}</p>`] : []),
    `<p class="muted">Report generated ${esc(input.generatedAt.toISOString())} by SignalR Live Bench${runs[0] ? ` ${esc(runs[0].toolVersion)}` : ''}. ` +
      `${runs.length === 1 ? 'One run' : `${runs.length} runs`}; latency is measured from each message's planned send time.</p>`,
  ];
  body.push(...(input.sections ?? []));
  if (runs.length === 0 && !input.sections?.length) body.push('<p>No runs were chosen for this report.</p>');
  if (runs.length > 1) body.push(sideBySide(runs));
  for (const run of runs) body.push(runSection(run));
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(input.title)}</title>
<style>${STYLE}</style>
</head>
<body>
${body.join('\n')}
</body>
</html>
`;
}

function sideBySide(runs: readonly KeptRun[]): string {
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
    .map((w) => `<li><strong>${esc(w.label)}</strong> (${w.better} is better): ${w.tie ? 'a tie' : w.winners.length === 0 ? 'no figure' : esc(w.winners.join(', '))}</li>`)
    .join('');
  const load = sharedLoad(runs.map((run) => run.result));
  return `<section>
<h2>Side by side</h2>
<p>${load === null ? 'The runs differ in scenario or load: compare with care.' : `The same load for every run: ${esc(load)}.`}</p>
<figure>${chart}</figure>
<div class="charts">${overlays.map((svg) => `<figure>${svg}</figure>`).join('')}</div>
<div class="scroll" tabindex="0" role="region" aria-label="Figures side by side"><table class="compare">${head}${rows}</table></div>
<p class="muted">Bold: the best value of the column; latencies within 1% of it and rates within 5% count as equally good, losses and errors are compared exactly. Bandwidth counts what the transport carried (every frame or body, its framing not included); for the same messages, fewer bytes win.</p>
${failures ? `<h3>Why a run failed</h3>\n<ul class="failures">${failures}</ul>` : ''}
<h3>Winner per column</h3>
<ul class="winners">${winners}</ul>
</section>`;
}

/** p99 and messages received per second, one line per run. */
function overlayCharts(runs: readonly KeptRun[], labels: readonly string[]): string[] {
  const results = runs.map((run) => run.result);
  return [
    { title: 'p99 latency per second', yLabel: 'ms', data: overlay(results, p99Ms) },
    { title: 'Messages received per second', yLabel: 'msg/s', data: overlay(results.map(wholeSecondsOfSending), (p) => p.received) },
  ].map(({ title, yLabel, data }) =>
    lineChartSvg({ title, xLabel: 'seconds since start', yLabel, xs: data.seconds, series: data.values.map((values, i) => ({ label: labels[i]!, color: runColor(i), values })) }),
  );
}

/** A run's points over its whole seconds of sending, as the page's rate charts draw them: the
 *  partial first and last seconds and the drain left out, so no line plunges to 0 at either end. */
function wholeSecondsOfSending(result: RunResult): RunResult {
  const sent = result.points.map((p) => p.sent);
  const first = sent.findIndex((n) => n > 0);
  const last = lastWholeRateIndex(sent, true);
  const from = first >= 0 && last > first ? first + 1 : Math.max(0, first);
  return { ...result, points: first < 0 ? [] : result.points.slice(from, last + 1) };
}

const STYLE = `
:root { color-scheme: light dark; --border: #dee2e6; --good: #237032; --bad: #c92a2a; --warn: #e67700; }
@media (prefers-color-scheme: dark) { :root { --border: #373a40; --good: #69db7c; --bad: #ff8787; --warn: #ffd43b; } body { background: #141517; color: #e9ecef; } }
body { font-family: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; margin: 2rem auto; max-width: 1200px; padding: 0 1rem; line-height: 1.4; }
section { border-top: 1px solid var(--border); padding-top: 1rem; margin-top: 1.5rem; }
table { border-collapse: collapse; }
th, td { text-align: left; padding: 0.25rem 0.75rem 0.25rem 0; vertical-align: top; border-bottom: 1px solid var(--border); }
.compare { font-size: 0.82rem; }
.compare td, .compare th { font-variant-numeric: tabular-nums; white-space: nowrap; padding-right: 0.5rem; }
/* Headers wrap between words, never inside one, so every column fits beside the others at 1280 px. */
.compare tr:first-child th { white-space: normal; overflow-wrap: normal; word-break: normal; }
/* The run's name wraps too: the figures beside it stay whole. */
.compare tr + tr th { white-space: normal; min-width: 8rem; }
.facts td { overflow-wrap: anywhere; }
.win { font-weight: 700; color: var(--good); }
.swatch { display: inline-block; width: 0.8rem; height: 0.8rem; border-radius: 2px; margin-right: 0.4rem; vertical-align: -1px; }
.scroll { overflow-x: auto; }
.muted { opacity: 0.7; }
.verdict { font-weight: 600; font-size: 1.1rem; }
.good { color: var(--good); } .bad { color: var(--bad); } .warn { color: var(--warn); }
.charts { display: flex; flex-wrap: wrap; gap: 1rem; }
figure { margin: 0.5rem 0; max-width: 100%; overflow-x: auto; }
.errors { color: var(--bad); }
.diagnosis { border-left: 4px solid var(--border); padding-left: 0.75rem; margin: 0.5rem 0; overflow-wrap: anywhere; }
.diagnosis.bad-edge { border-left-color: var(--bad); } .diagnosis.warn-edge { border-left-color: var(--warn); }
.diagnosis p, .diagnosis h3 { margin: 0.25rem 0; }
.diagnosis .why { font-size: 1rem; }
.diagnosis .sentence { font-weight: 600; }
.diagnosis ul { margin: 0.15rem 0; padding-left: 1.2rem; font-size: 0.9rem; }
.cause { display: block; font-size: 0.8rem; font-weight: 600; }
`;
