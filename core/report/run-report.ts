/**
 * One run's part of the HTML report (core/report/html.ts): status, verdict, why the run ended as
 * it did (its diagnosis, in the words the page and the runner use), figures, charts as inline
 * SVG, and the configuration. Pure; everything people typed is escaped.
 */
import { runRates, connectionsHeld } from '../execution/index.ts';
import { outcomeText, verdictDisplay } from '../outcome/index.ts';
import { diagnosisOf } from '../result/index.ts';
import { configToQuery, hubInstances, combinationLabel, scenarioLabel } from '../run-config/index.ts';
import { SIDE_LABELS, type Diagnosis } from '../diagnosis/index.ts';
import { formatCount } from '../format.ts';
import { dropPlanText, dropsText } from '../drops/index.ts';
import type { KeptRun } from '../history/index.ts';
import { judgeTiers, tierLoad, tierShareLine } from '../tiers/index.ts';
import { escapeXml as esc, lineChartSvg, lastWholeRateIndex, onSendClock, sendOffsetSec } from '../charts/index.ts';
import { serverCharts } from './server-charts.ts';
import { serverFacts } from './server-summary.ts';
import { runSummary, type RunSummaryModel } from './run-summary.ts';
import { clientSchedule } from '../client/index.ts';
import { REPORT_WORDS as W } from './words.ts';

type Rows = [label: string, value: string][];

/** The run's section, answer first as the page shows it: the verdict, the tier that fits, why;
 *  then its figures, charts and setup. `titled`: the report's own title already names the run. */
export function runSection(run: KeptRun, titled = false): string {
  const r = run.result;
  const samples = summaryOf(r).errorSamples.map((s) => `<li><strong>${esc(s.head)}</strong>: ${esc(s.message)}</li>`).join('');
  const failures = r.workerFailures.map((f) => `<li>${esc(f)}</li>`).join('');
  return `<section class="run">
${titled ? '' : `<h2>${esc(run.name)}</h2>\n`}${statusNote(run)}${verdictLine(run)}
<p class="tier" data-testid="report-tier">${esc(answerTierLine(run))}</p>
${diagnosisBlock(diagnosisOf(r))}
<p class="muted">${esc(combinationLabel(r.config))} · ${esc(outcomeText(r.outcome, r.config.durationSec))}</p>
${factTable(figureRows(run))}
${samples || failures ? `<ul class="errors">${failures}${samples}</ul>` : ''}
<div class="charts">${charts(run).map((svg) => `<figure>${svg}</figure>`).join('')}</div>
<h3>Configuration</h3>
${factTable(configRows(run))}
</section>`;
}

function factTable(rows: Rows): string {
  return `<table class="facts">${rows.map(([k, v]) => `<tr><th>${esc(k)}</th><td>${esc(v)}</td></tr>`).join('')}</table>`;
}

function statusNote(run: KeptRun): string {
  if (run.result.outcome.kind === 'interrupted') {
    return `<p class="warn">${W.interrupted()}</p>`;
  }
  if (run.result.outcome.kind === 'running') return `<p class="warn">${W.stillGoing()}</p>`;
  return '';
}

function verdictLine(run: KeptRun): string {
  const verdict = verdictDisplay(run.result.verdict, false);
  return `<p class="verdict ${verdict.tone}">${esc(verdict.text)}</p>`;
}

/** Evidence lines shown before "more", as on the page and in the runner's text. */
const EVIDENCE_SHOWN = 4;

/**
 * The run's diagnosis as the page's block (src/components/DiagnosisBlock.svelte) draws it: the
 * side as a heading (none for a run where nothing failed), the sentence, what to do, the first
 * evidence with the rest folded, and where the cause is explained. Rendered, never judged again.
 */
export function diagnosisBlock(diagnosis: Diagnosis): string {
  const tone = diagnosis.side === 'service' || diagnosis.side === 'setup' ? 'bad' : diagnosis.side === 'none' ? '' : 'warn';
  const items = (lines: readonly string[]) => lines.map((line) => `<li>${esc(line)}</li>`).join('');
  const shown = diagnosis.evidence.slice(0, EVIDENCE_SHOWN);
  const rest = diagnosis.evidence.slice(EVIDENCE_SHOWN);
  return [
    `<div class="diagnosis${tone ? ` ${tone}-edge` : ''}" data-cause="${esc(diagnosis.cause)}" data-side="${esc(diagnosis.side)}">`,
    ...(diagnosis.side === 'none' ? [] : [`<h3 class="why${tone ? ` ${tone}` : ''}">Why: ${esc(SIDE_LABELS[diagnosis.side])}</h3>`]),
    `<p class="sentence">${esc(diagnosis.sentence)}</p>`,
    `<p><strong>What to do:</strong> ${esc(diagnosis.advice)}</p>`,
    ...(shown.length > 0 ? [`<p class="muted">Evidence</p><ul class="evidence">${items(shown)}</ul>`] : []),
    ...(rest.length > 0 ? [`<details><summary>${rest.length} more</summary><ul class="evidence">${items(rest)}</ul></details>`] : []),
    `<p class="muted">${W.explainedIn({ docs: esc(diagnosis.docs) })}</p>`,
    '</div>',
  ].join('\n');
}

function figureRows(run: KeptRun): Rows {
  const r = run.result;
  const summary = summaryOf(r);
  return [
    ['Planned receptions', summary.fates],
    ...(summary.instances ?? []).map((instance, k) => [`Instance ${k + 1}`, `${instance.endpointUrl}: connections ${instance.connections} · ${instance.receptions}`]) as Rows,
    ...(r.drops ? [['Drops', dropPlanText(r.drops.settings, r.drops.stateful, r.config.endpointUrl)], ['Reconnects', dropsText(r.drops)]] as Rows : []),
    ['Messages', summary.messageFacts.join(' · ')],
    ['Latency', summary.latencyKnown ? `${summary.latency.join(' · ')} (${summary.uncorrected})` : 'no message arrived'],
    ['Connect time', `${summary.connectTime.join(' · ')} · ${summary.connections}`],
    ['Bytes', W.bytes({ bytes: summary.bytes.join(', ') })],
    ...(summary.resent ? [['Resent', summary.resent]] as Rows : []),
    ['Errors', summary.errors],
    ['Client health', `${summary.client.join(', ')}${summary.clientBehind ? `: it could not keep the schedule (it ${summary.clientBehind})` : ''}`],
    ['Guide tier', tierLine(run)],
    ...serverFacts(r),
  ];
}

/** The one summary model (run-summary.ts), with the client's schedule by the one rule. */
function summaryOf(r: KeptRun['result']): RunSummaryModel {
  return runSummary({ ...r, schedule: clientSchedule({ points: r.points, missedSlots: r.totals.missedSlots, sent: r.totals.sent }) });
}

function configRows(run: KeptRun): Rows {
  const c = run.result.config;
  return [
    ['Endpoint', hubInstances(c).join(', ')],
    ['Scenario', scenarioLabel(c)],
    ...(c.hubProfile ? [['Hub profile', JSON.stringify(c.hubProfile)]] as Rows : []),
    ['Transport + protocol', combinationLabel(c)],
    ['Connections', formatCount(c.connections)],
    ['Workers', formatCount(c.workers)],
    ['Message size', `${formatCount(c.messageBytes)} B`],
    ['Send interval', `${formatCount(c.sendIntervalMs)} ms`],
    ['Duration', `${formatCount(c.durationSec)} s${c.warmupSec > 0 ? ` (first ${c.warmupSec} s warm-up, left out)` : ''}`],
    ['Reconnect', c.reconnect ? 'on' : 'off'],
    ['Setup as a link query', `?${configToQuery(c)}`],
    ['Started', run.result.startedAt],
    ['Client', run.result.client],
    ['Versions', `SignalR Live Bench ${run.toolVersion}, @microsoft/signalr ${run.signalrClientVersion}`],
  ];
}

/** Latency percentiles and message rates per second, as in the dashboard's charts. */
function charts(run: KeptRun): string[] {
  const points = run.result.points;
  // The page's one clock: 0 at the first planned send (core/charts/time-axis.ts).
  const offset = sendOffsetSec(run.result.sendWindow);
  const xs = points.map((p) => onSendClock(p.second, offset));
  const xLabel = offset === null ? 'seconds since start' : 's from the first planned send';
  const ms = (count: number, us: number | null) => (count === 0 || us === null ? null : us / 1_000);
  // Rates over whole seconds of sending only, as the page draws them: no plunge to 0 at either end.
  const sent = points.map((p) => p.sent);
  const firstSend = sent.findIndex((n) => n > 0);
  const lastWhole = lastWholeRateIndex(sent, true);
  const from = lastWhole > firstSend ? firstSend + 1 : firstSend;
  const rate = (pick: (p: (typeof points)[number]) => number) => points.map((p, i) => (firstSend < 0 || i < from || i > lastWhole ? null : pick(p)));
  return [
    lineChartSvg({
      title: 'Latency per second',
      xLabel,
      yLabel: 'ms',
      xs,
      series: [
        { label: 'p50', color: '#2f9e44', values: points.map((p) => ms(p.latency.count, p.latency.p50Us)) },
        { label: 'p99', color: '#e8590c', values: points.map((p) => ms(p.latency.count, p.latency.p99Us)) },
        { label: 'max', color: '#c92a2a', values: points.map((p) => ms(p.latency.count, p.latency.maxUs)) },
      ],
    }),
    lineChartSvg({
      title: 'Messages per second',
      xLabel,
      yLabel: 'msg/s',
      xs,
      series: [
        { label: 'inbound (sent)', color: '#1971c2', values: rate((p) => p.sent) },
        { label: 'outbound (received)', color: '#2f9e44', values: rate((p) => p.received) },
      ],
    }),
    ...serverCharts(run.result),
    ...(run.result.drops
      ? [
          lineChartSvg({
            title: 'Connections open through the drop',
            xLabel,
            yLabel: 'connections',
            xs,
            series: [{ label: 'open', color: '#7048e8', values: points.map((p) => p.connectionsOpen) }],
          }),
          lineChartSvg({
            title: 'Reconnects per second',
            xLabel,
            yLabel: 'connections/s',
            xs,
            series: [
              { label: 'back', color: '#2f9e44', values: points.map((p) => p.reconnects ?? null) },
              { label: 'lost', color: '#c92a2a', values: points.map((p) => p.dropped ?? null) },
            ],
          }),
        ]
      : []),
  ];
}

/** Each edition's headline by the one rule: limits against the configuration, published numbers against the run's load. */
function tierLine(run: KeptRun): string {
  return (['current', '2019'] as const).map((id) => `${id} edition: ${tierHeadline(run, id)}`).join(' ');
}

/** The tier the run fits, in the words of the page's tier panel (judgeTiers's headline). */
function tierHeadline(run: KeptRun, edition: 'current' | '2019'): string {
  return judgeTiers(run.result.config, edition, answerLoad(run)).headline;
}

/** The run's load as the page's answer card takes it: the mean rates of its seconds of sending
 *  and the most connections it held (src/components/AnswerCard.svelte). */
function answerLoad(run: KeptRun) {
  const r = run.result;
  const rates = runRates(r);
  return tierLoad(r.config, connectionsHeld(r.points, r.totals.connectionsOpened), rates.inboundPerSec, rates.outboundPerSec);
}

/** The answer card's tier line: "Tier: <headline> <its largest share>", the same sentence as the page's. */
function answerTierLine(run: KeptRun): string {
  const tiers = judgeTiers(run.result.config, 'current', answerLoad(run));
  const share = tierShareLine(tiers);
  return `Tier: ${tiers.headline}${share ? ` ${share}` : ''}`;
}
