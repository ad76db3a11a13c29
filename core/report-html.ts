/**
 * A self-contained HTML report of one run or of runs side by side: one file, no scripts, no
 * external resources, so it opens offline and can be mailed to people who never run the tool.
 * Charts are inline SVG; the tables, verdicts and configurations are plain HTML. Pure.
 */
import { comparisonTable, CURVE_PERCENTILES, ninesPosition, percentileCurve, sharedLoad, type ComparedRun } from './comparison.ts';
import { configToQuery } from './config-url.ts';
import { formatBytes, formatCount, formatMs } from './format.ts';
import type { KeptRun } from './kept-run.ts';
import { combinationLabel, PROTOCOL_LABELS, SCENARIO_LABELS, TRANSPORT_LABELS } from './labels.ts';
import { editionTiers } from './tier-view.ts';
import { escapeXml as esc, lineChartSvg } from './svg-chart.ts';

/** One color per run, in order; the dashboard's comparison chart uses the same. */
export const RUN_COLORS = ['#1971c2', '#e8590c', '#2f9e44', '#ae3ec9', '#c92a2a', '#0c8599', '#f08c00', '#5c940d'];

export interface ReportInput {
  title: string;
  runs: readonly KeptRun[];
  generatedAt: Date;
}

export function reportHtml(input: ReportInput): string {
  const { runs } = input;
  const body = [
    `<h1>${esc(input.title)}</h1>`,
    `<p class="muted">Report generated ${esc(input.generatedAt.toISOString())} by SignalR Live Bench${runs[0] ? ` ${esc(runs[0].toolVersion)}` : ''}. ` +
      `${runs.length === 1 ? 'One run' : `${runs.length} runs`}; latency is measured from each message's planned send time.</p>`,
  ];
  if (runs.length === 0) body.push('<p>No runs were chosen for this report.</p>');
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

/** The label each run gets in tables and legends: its name, numbered when names repeat. */
export function runLabels(runs: readonly KeptRun[]): string[] {
  return runs.map((run, i) => (runs.filter((r) => r.name === run.name).length > 1 ? `${i + 1}. ${run.name}` : run.name));
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
    series: curves.map((curve, i) => ({ label: labels[i]!, color: RUN_COLORS[i % RUN_COLORS.length]!, values: curve.latencyMs })),
    width: 760,
  });
  const head = `<tr><th>run</th>${table.columns.map((c) => `<th title="${c.better} is better">${esc(c.label)}</th>`).join('')}</tr>`;
  const rows = table.rows
    .map((row, i) => `<tr><th><span class="swatch" style="background:${RUN_COLORS[i % RUN_COLORS.length]}"></span>${esc(row.label)}</th>${row.cells.map((cell) => `<td${cell.winner ? ' class="win"' : ''}>${esc(cell.text)}</td>`).join('')}</tr>`)
    .join('');
  const winners = table.winners
    .map((w) => `<li><strong>${esc(w.label)}</strong> (${w.better} is better): ${w.tie ? 'a tie' : w.winners.length === 0 ? 'no figure' : esc(w.winners.join(', '))}</li>`)
    .join('');
  const load = sharedLoad(runs.map((run) => run.result));
  return `<section>
<h2>Side by side</h2>
<p>${load === null ? 'The runs differ in scenario or load: compare with care.' : `The same load for every run: ${esc(load)}.`}</p>
<figure>${chart}</figure>
<div class="scroll"><table class="compare">${head}${rows}</table></div>
<p class="muted">Bold: the best value of the column. Bandwidth counts encoded hub messages; for the same messages, fewer bytes win.</p>
<h3>Winner per column</h3>
<ul class="winners">${winners}</ul>
</section>`;
}

function runSection(run: KeptRun): string {
  const r = run.result;
  const c = r.config;
  const errors = Object.entries(r.errorCounts).filter(([, n]) => n > 0);
  const status =
    run.status === 'interrupted'
      ? '<p class="warn">This run was interrupted (the page was reloaded or closed): the figures cover what it had recorded until then; losses were never counted.</p>'
      : run.status === 'running'
        ? '<p class="warn">This run was still going when the report was made: the figures are partial.</p>'
        : '';
  const verdict = run.verdict
    ? `<p class="verdict ${run.verdict.pass ? 'good' : 'bad'}">${esc(run.verdict.sentence)}</p>`
    : '<p class="verdict">No message arrived, so the guide\'s latency rule cannot be applied.</p>';
  const config: [string, string][] = [
    ['Endpoint', c.endpointUrl],
    ['Scenario', SCENARIO_LABELS[c.scenario]],
    ['Transport + protocol', `${TRANSPORT_LABELS[c.transport]} + ${PROTOCOL_LABELS[c.protocol]}`],
    ['Connections', formatCount(c.connections)],
    ['Workers', formatCount(c.workers)],
    ['Message size', `${formatCount(c.messageBytes)} B`],
    ['Send interval', `${formatCount(c.sendIntervalMs)} ms`],
    ['Duration', `${formatCount(c.durationSec)} s${c.warmupSec > 0 ? ` (first ${c.warmupSec} s warm-up, left out)` : ''}`],
    ['Reconnect', c.reconnect ? 'on' : 'off'],
    ['Setup as a link query', `?${configToQuery(c)}`],
    ['Started', r.startedAt],
    ['Client', r.client],
    ['Versions', `SignalR Live Bench ${run.toolVersion}, @microsoft/signalr ${run.signalrClientVersion}`],
  ];
  const figures: [string, string][] = [
    ['Messages', `sent ${formatCount(r.totals.sent)} · expected receptions ${formatCount(r.totals.expected)} · received ${formatCount(r.totals.received)} · lost ${run.status === 'complete' ? formatCount(r.lost) : 'not counted'} · duplicated ${formatCount(r.totals.duplicated)}`],
    ['Latency', r.latency.count === 0 ? 'no message arrived' : `p50 ${formatMs(r.latency.p50Us)} · p90 ${formatMs(r.latency.p90Us)} · p99 ${formatMs(r.latency.p99Us)} · p99.9 ${formatMs(r.latency.p999Us)} · max ${formatMs(r.latency.maxUs)} (from actual send time: p99 ${formatMs(r.uncorrectedLatency.p99Us)})`],
    ['Connect time', r.connectTimes.count === 0 ? 'no connection opened' : `p50 ${formatMs(r.connectTimes.p50Us)} · p99 ${formatMs(r.connectTimes.p99Us)} · max ${formatMs(r.connectTimes.maxUs)} · ${formatCount(r.totals.connectionsOpened)} opened, ${formatCount(r.totals.connectionsFailed)} failed`],
    ['Bytes', `sent ${formatBytes(r.totals.sentBytes)}, received ${formatBytes(r.totals.receivedBytes)} (encoded hub messages)`],
    ['Errors', errors.length === 0 ? 'none' : errors.map(([kind, n]) => `${kind} ${formatCount(n)}`).join(', ')],
    ['Client health', `worst event-loop lag ${Math.max(0, ...r.workers.map((w) => w.maxEventLoopLagMs)).toFixed(1)} ms, sends that missed their slot ${formatCount(r.totals.missedSlots)}`],
    ['Guide tier', tierLine(run)],
  ];
  const seconds = r.points.map((p) => p.second);
  const ms = (count: number, us: number) => (count === 0 ? null : us / 1_000);
  const latencyChart = lineChartSvg({
    title: 'Latency per second',
    xLabel: 'seconds since start',
    yLabel: 'ms',
    xs: seconds,
    series: [
      { label: 'p50', color: '#2f9e44', values: r.points.map((p) => ms(p.latency.count, p.latency.p50Us)) },
      { label: 'p99', color: '#e8590c', values: r.points.map((p) => ms(p.latency.count, p.latency.p99Us)) },
      { label: 'max', color: '#c92a2a', values: r.points.map((p) => ms(p.latency.count, p.latency.maxUs)) },
    ],
  });
  const rateChart = lineChartSvg({
    title: 'Messages per second',
    xLabel: 'seconds since start',
    yLabel: 'msg/s',
    xs: seconds,
    series: [
      { label: 'inbound (sent)', color: '#1971c2', values: r.points.map((p) => p.sent) },
      { label: 'outbound (received)', color: '#2f9e44', values: r.points.map((p) => p.received) },
    ],
  });
  const samples = r.errorSamples.map((s) => `<li><strong>${esc(s.kind)}</strong> ×${formatCount(s.count)}: ${esc(s.message)}</li>`).join('');
  const failures = r.workerFailures.map((f) => `<li>${esc(f)}</li>`).join('');
  return `<section class="run">
<h2>${esc(run.name)}</h2>
<p class="muted">${esc(combinationLabel(c))} · ${esc(run.status)}</p>
${status}${verdict}
<table class="facts">${figures.map(([k, v]) => `<tr><th>${esc(k)}</th><td>${esc(v)}</td></tr>`).join('')}</table>
${samples || failures ? `<ul class="errors">${failures}${samples}</ul>` : ''}
<div class="charts"><figure>${latencyChart}</figure><figure>${rateChart}</figure></div>
<h3>Configuration</h3>
<table class="facts">${config.map(([k, v]) => `<tr><th>${esc(k)}</th><td>${esc(v)}</td></tr>`).join('')}</table>
</section>`;
}

function tierLine(run: KeptRun): string {
  const fits = (['current', '2019'] as const).map((id) => {
    const fit = editionTiers(run.result.config, id);
    if (fit.error !== null) return `${id} edition: the guide's math cannot express this configuration`;
    return `${id} edition: ${fit.fittingTier ?? 'no tier fits'}`;
  });
  return `smallest tier that fits the configuration — ${fits.join('; ')}`;
}

const STYLE = `
:root { color-scheme: light dark; --border: #dee2e6; --good: #2b8a3e; --bad: #c92a2a; --warn: #e67700; }
@media (prefers-color-scheme: dark) { :root { --border: #373a40; --good: #69db7c; --bad: #ff8787; --warn: #ffd43b; } body { background: #141517; color: #e9ecef; } }
body { font-family: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; margin: 2rem auto; max-width: 1100px; padding: 0 1rem; line-height: 1.4; }
section { border-top: 1px solid var(--border); padding-top: 1rem; margin-top: 1.5rem; }
table { border-collapse: collapse; }
th, td { text-align: left; padding: 0.25rem 0.75rem 0.25rem 0; vertical-align: top; border-bottom: 1px solid var(--border); }
.compare td { font-variant-numeric: tabular-nums; white-space: nowrap; }
.win { font-weight: 700; color: var(--good); }
.swatch { display: inline-block; width: 0.8rem; height: 0.8rem; border-radius: 2px; margin-right: 0.4rem; vertical-align: -1px; }
.scroll { overflow-x: auto; }
.muted { opacity: 0.7; }
.verdict { font-weight: 600; font-size: 1.1rem; }
.good { color: var(--good); } .bad { color: var(--bad); } .warn { color: var(--warn); }
.charts { display: flex; flex-wrap: wrap; gap: 1rem; }
figure { margin: 0.5rem 0; max-width: 100%; overflow-x: auto; }
.errors { color: var(--bad); }
`;
